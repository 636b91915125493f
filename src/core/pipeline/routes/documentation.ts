/**
 * RETRIEVAL: reformulate → retrieve → check the context's relevance; when it
 * is not relevant, reformulate with that hint and retrieve once more (the
 * request's one retry, D1 RC-08), then answer unconditionally. The answer's code
 * is validated like any other, and the reviewer (the quality judge) sees the
 * answer before the final message.
 */
import { generateMessages } from '../../routing/prompts';
import type { PipelineResult } from '../../types';
import { claimRetry, describeSkip } from '../../validation/retryCycle';
import { answerLoop } from '../answerLoop';
import { asFailure } from '../failure';
import { FIRST_PASS, HINTED_PASS, reformulateAndRetrieve } from '../retrieve';
import type { RunContext } from '../run';
import { proseSpec } from '../spec';

export async function answerFromDocumentation(run: RunContext): Promise<PipelineResult> {
  const { config, logger, relevance } = run.deps;
  const model = config.ollama.model;
  const query = run.request.query;
  const retrieved = await reformulateAndRetrieve(run, FIRST_PASS);
  if (!retrieved.ok) return run.fail(retrieved.error, model);
  let context = retrieved.value;
  const verdict = await run.timed('check_context_relevance', () => relevance.judge(query, context, run.signal));
  if (!verdict.ok) return run.fail(asFailure(verdict.error), model);
  run.result.relevance = { mode: relevance.mode, relevant: verdict.value.relevant, detail: verdict.value.detail };
  if (!verdict.value.relevant) {
    const claim = claimRetry(run.cycle, 'relevance');
    if (claim.granted) {
      logger.info(`context not relevant (${verdict.value.detail}) — reformulating with hint and retrieving once more`);
      run.result.relevanceRetry = true;
      const again = await reformulateAndRetrieve(run, HINTED_PASS);
      if (!again.ok) return run.fail(again.error, model);
      context = again.value;
    } else {
      logger.info(
        `context not relevant (${verdict.value.detail}) — retry skipped (${describeSkip(claim.skip)}); answering with this context`,
      );
    }
  }
  const messages = generateMessages(query, context.chunks, run.request.history);
  return answerLoop(run, proseSpec(model, 'generate', messages), run.options.review);
}
