/** POST /v1/validate: one source, answered with exactly the JSON of `validate --json`. */
import type { FastifyPluginAsync } from 'fastify';
import { checkBody, clientSignal, validateOne, type RestContext } from '../context';
import { ValidateBodyContract } from '../schemas';

export const validateRoutes: FastifyPluginAsync<{ ctx: RestContext }> = (app, { ctx }) => {
  const { deps, inflight, log } = ctx;

  app.post('/v1/validate', async (request, reply) => {
    const body = checkBody(ValidateBodyContract, request, reply);
    if (!body) return reply;
    const { signal, done } = clientSignal(reply, inflight);
    try {
      const result = await validateOne(deps.assistant.parser, body.source, body.filename, signal);
      if (result.ok) return result.value;
      const { status, detail, body: refusal } = result.error;
      log(`[rest] POST /v1/validate ${status}: ${detail}`);
      return reply.code(status).send(refusal);
    } finally {
      done();
    }
  });
  return Promise.resolve();
};
