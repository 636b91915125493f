/** GET /v1/models: the models pulled in Ollama. */
import type { FastifyPluginAsync } from 'fastify';
import { clientSignal, type RestContext } from '../context';

export const modelsRoutes: FastifyPluginAsync<{ ctx: RestContext }> = (app, { ctx }) => {
  const { deps, inflight, internal } = ctx;

  app.get('/v1/models', async (_request, reply) => {
    const { signal, done } = clientSignal(reply, inflight);
    try {
      const models = await deps.llm.models(signal);
      if (models.ok) return { models: models.value };
      return reply.code(502).send(internal('GET /v1/models', models.error.code, models.error.message));
    } finally {
      done();
    }
  });
  return Promise.resolve();
};
