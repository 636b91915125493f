/** POST /v1/generate: one generation, its response messages streamed as NDJSON or SSE. */
import type { FastifyPluginAsync } from 'fastify';
import type { ResponseMessage } from '../../core';
import { checkBody, clientSignal, GENERATION_ERROR_STATUS, type RestContext } from '../context';
import { GenerateBodyContract, type GenerateBody } from '../schemas';

function wantsSse(body: GenerateBody, accept: string | undefined): boolean {
  if (body.stream) return body.stream === 'sse';
  return /text\/event-stream/i.test(accept ?? '');
}

export const generateRoutes: FastifyPluginAsync<{ ctx: RestContext }> = (app, { ctx }) => {
  const { inflight, log, internal, noteUnrecorded, runOne, finalExtras } = ctx;

  app.post('/v1/generate', async (request, reply) => {
    const body = checkBody(GenerateBodyContract, request, reply);
    if (!body) return reply;
    const sse = wantsSse(body, request.headers.accept);
    const { signal, done } = clientSignal(reply, inflight);
    reply.hijack();
    const raw = reply.raw;
    // Headers go out with the first message, so a run that fails before
    // producing anything gets a real HTTP error status instead of a 200 stream.
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      raw.writeHead(200, {
        'Content-Type': sse ? 'text/event-stream; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
        'Cache-Control': 'no-cache',
        'X-Accel-Buffering': 'no',
        ...(sse ? { Connection: 'keep-alive' } : {}),
      });
    };
    let sequence = 0;
    const write = (message: Record<string, unknown>) => {
      if (raw.destroyed || raw.writableEnded) return;
      start();
      sequence += 1;
      raw.write(
        sse ? `id: ${sequence}\nevent: message\ndata: ${JSON.stringify(message)}\n\n` : `${JSON.stringify(message)}\n`,
      );
    };
    const fail = (status: number, body: Record<string, unknown>) => {
      if (raw.destroyed || raw.writableEnded) return;
      raw.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
      raw.end(JSON.stringify(body));
    };
    let held: ResponseMessage | undefined;
    let outcome = 'ok';
    try {
      const run = await runOne(
        {
          query: body.query,
          ...(body.force_type ? { forceType: body.force_type } : {}),
          ...(body.filename ? { filename: body.filename } : {}),
        },
        signal,
        (message) => {
          if (message.is_final) held = message;
          else write({ ...message });
        },
      );
      noteUnrecorded(run);
      const { error } = run.result;
      if (error && !started) {
        fail(GENERATION_ERROR_STATUS[error.code] ?? 502, {
          ...internal(`generation ${run.result.generationId}`, error.code, error.message),
          generation_id: run.result.generationId,
          query_type: run.result.queryType,
        });
      } else {
        const final: ResponseMessage = held ?? {
          text: run.result.text,
          avap_code: run.result.code,
          is_final: true,
          ...(run.result.validationStatus !== undefined ? { validation_status: run.result.validationStatus } : {}),
        };
        write({ ...final, ...finalExtras(run) });
      }
      outcome = error ? error.code : `${run.result.queryType} status="${run.result.validationStatus}"`;
    } catch (err) {
      // runOne does not throw by contract; keep the answer well-formed if it ever does.
      const body = {
        error: 'internal-error',
        message: `the server failed to answer (request ${request.id}); the details are in its log`,
      };
      if (started) write({ text: '', avap_code: '', is_final: true, error: body });
      else fail(500, body);
      outcome = `failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    } finally {
      done();
      if (!raw.writableEnded) raw.end();
      log(`[rest] POST /v1/generate ${raw.statusCode} ${outcome}`);
    }
  });
  return Promise.resolve();
};
