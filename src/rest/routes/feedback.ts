/** POST /v1/feedback: thumbs and outcomes on a recorded generation, as training signals. */
import type { FastifyPluginAsync } from 'fastify';
import { checkBody, type RestContext } from '../context';
import { FeedbackBodyContract } from '../schemas';

/** A refused feedback: the HTTP status, the error's code, why (the answer's message), what the log says, the store's code. */
interface Refusal {
  status: number;
  error: string;
  why: string;
  logged: string;
  code?: string | undefined;
}

export const feedbackRoutes: FastifyPluginAsync<{ ctx: RestContext }> = (app, { ctx }) => {
  const { deps, log, unrecorded } = ctx;

  app.post('/v1/feedback', async (request, reply) => {
    const body = checkBody(FeedbackBodyContract, request, reply);
    if (!body) return reply;
    if (!deps.signals) {
      return reply.code(409).send({
        error: 'no-signal-store',
        message: 'this server records no training signals; start it with --signals FILE or AVAP_SIGNALS_FILE',
      });
    }
    // Nothing is lost silently: a store that cannot take the feedback says so
    // (503, with the reason; the log has the file), never "unknown generation".
    const refuse = ({ status, error, why, logged, code }: Refusal) => {
      log(`[rest] POST /v1/feedback ${status} ${error} for ${body.generation_id}: ${logged}`);
      return reply.code(status).send({
        error,
        message: `${why}; GET /health shows the store's state`,
        generation_id: body.generation_id,
        ...(code ? { code } : {}),
      });
    };
    const codeOf = (code: string | undefined) => (code ? ` (${code})` : '');
    const unwritable = (code: string | undefined) =>
      `the feedback was not recorded: the training-signal store cannot be written${codeOf(code)}`;
    const known = await deps.signals.has(body.generation_id);
    if (!known.ok)
      return refuse({
        status: 503,
        error: 'signal-store-unreadable',
        why: `the feedback was not recorded: the training-signal store cannot be read${codeOf(known.error.code)}`,
        logged: known.error.message,
        code: known.error.code,
      });
    if (!known.value) {
      const health = await deps.signals.health();
      if (!health.ok)
        return refuse({
          status: 503,
          error: 'signal-store-unwritable',
          why: unwritable(health.error.code),
          logged: health.error.message,
          code: health.error.code,
        });
      if (unrecorded.has(body.generation_id)) {
        return refuse({
          status: 409,
          error: 'signal-not-recorded',
          why: `the feedback was not recorded: the answer of generation '${body.generation_id}' could not be written to the training-signal store when it was generated`,
          logged: 'its signal was lost',
        });
      }
      return reply
        .code(404)
        .send({ error: 'unknown-generation', message: `no generation '${body.generation_id}' in the signal store` });
    }
    const writes = [];
    if (body.thumbs)
      writes.push(await deps.signals.recordFeedback(body.generation_id, body.thumbs, 'rest', body.comment));
    if (body.outcome)
      writes.push(await deps.signals.recordOutcome(body.generation_id, body.outcome, 'rest', body.final_code));
    const failed = writes.find((w) => !w.ok);
    if (failed && !failed.ok) {
      const why = writes.some((w) => w.ok)
        ? `the feedback was only partly recorded (the thumbs, not the outcome): the training-signal store cannot be written${codeOf(failed.error.code)}`
        : unwritable(failed.error.code);
      return refuse({
        status: 503,
        error: 'signal-store-unwritable',
        why,
        logged: failed.error.message,
        code: failed.error.code,
      });
    }
    return { recorded: true, generation_id: body.generation_id };
  });
  return Promise.resolve();
};
