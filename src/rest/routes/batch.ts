/** POST /v1/batch: validations and generations, one after the other, answered together. */
import type { FastifyPluginAsync } from 'fastify';
import { attemptCount } from '../../core';
import { defineContract, preValidate, type InputContract } from '../../inputContract';
import { checkBody, clientSignal, GENERATION_ERROR_STATUS, validateOne, type RestContext } from '../context';
import {
  BATCH_ITEM_CONTRACTS,
  BatchBodyOuterContract,
  type BatchGenerateItem,
  type BatchValidateItem,
} from '../schemas';

export const batchRoutes: FastifyPluginAsync<{ ctx: RestContext }> = (app, { ctx }) => {
  const { deps, inflight, log, noteUnrecorded, runOne, finalExtras } = ctx;

  app.post('/v1/batch', async (request, reply) => {
    const outer = checkBody(BatchBodyOuterContract, request, reply);
    if (!outer) return reply;
    const items: (BatchValidateItem | BatchGenerateItem)[] = [];
    for (const [index, raw] of outer.requests.entries()) {
      const base = BATCH_ITEM_CONTRACTS[raw.kind];
      const contract = defineContract(
        `POST /v1/batch body, requests[${index}]`,
        base.schema as never,
        base.semantic as never,
      );
      const checked = preValidate(contract as InputContract<BatchValidateItem | BatchGenerateItem>, raw);
      if (!checked.valid)
        return reply.code(400).send({ valid: false, error: checked.error, suggestions: checked.suggestions });
      items.push(checked.value);
    }
    const { signal, done } = clientSignal(reply, inflight);
    try {
      const results: { index: number; kind: string; status: number; body: unknown }[] = [];
      for (const [index, item] of items.entries()) {
        if (signal.aborted) break;
        if (item.kind === 'validate') {
          const one = await validateOne(deps.assistant.parser, item.source, item.filename, signal);
          if (!one.ok) log(`[rest] POST /v1/batch requests[${index}] ${one.error.status}: ${one.error.detail}`);
          results.push({
            index,
            kind: 'validate',
            status: one.ok ? 200 : one.error.status,
            body: one.ok ? one.value : one.error.body,
          });
          continue;
        }
        const run = await runOne(
          {
            query: item.query,
            ...(item.force_type ? { forceType: item.force_type } : {}),
            ...(item.filename ? { filename: item.filename } : {}),
          },
          signal,
        );
        noteUnrecorded(run);
        const { result } = run;
        results.push({
          index,
          kind: 'generate',
          status: result.error ? (GENERATION_ERROR_STATUS[result.error.code] ?? 502) : 200,
          body: {
            text: result.text,
            avap_code: result.code,
            ...(result.validationStatus !== undefined ? { validation_status: result.validationStatus } : {}),
            attempts: attemptCount(result),
            sources: result.sources,
            ...finalExtras(run),
          },
        });
      }
      return { results };
    } finally {
      done();
    }
  });
  return Promise.resolve();
};
