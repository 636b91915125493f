import type { AnswerReviewer, PipelineRequest, PipelineResult } from '../../../src/core';
import type { ChatCall, LlmPort, LlmResult } from '../../../src/core/llm/port';
import { hintedRetryMessages } from '../../../src/core/routing/prompts';
import { bagOfLetters, fakeLlm, type FakeLlm } from '../../support/fakes/llm';

/** An LLM whose chat answers come from `answer(call)`; embeddings are bag-of-letters vectors; one model listed. */
export function scriptedLlm(answer: (call: ChatCall) => LlmResult<{ text: string }>): FakeLlm {
  return fakeLlm({
    chat: answer,
    embed: (_model, texts) => ({ ok: true, value: bagOfLetters(texts) }),
    models: () => ({ ok: true, value: ['qwen3:1.7b'] }),
  });
}

/**
 * What the pipeline does with a reviewer (core/pipeline/review.ts), for tests of the layers above
 * it: a RETRIEVAL answer is reviewed before the final message; `retry(hint)` is granted once
 * (the request's one retry cycle, unless `cycleUsed`) and asks `retryLlm` for the new answer.
 */
export async function reviewed(
  first: PipelineResult,
  request: PipelineRequest,
  options: { review?: AnswerReviewer; signal?: AbortSignal } | undefined,
  retryLlm: LlmPort,
  cycleUsed = false,
): Promise<PipelineResult> {
  const result = structuredClone(first);
  if (!options?.review || result.queryType !== 'RETRIEVAL' || result.error || !result.text.trim()) return result;
  let used = cycleUsed;
  await options.review(
    { question: request.query, answer: result.text, queryType: result.queryType, sources: result.sources },
    async (hint) => {
      if (used)
        return {
          ok: false,
          skipped: { trigger: 'judge-hint', reason: 'cycle-used', usedBy: cycleUsed ? 'relevance' : 'judge-hint' },
        };
      used = true;
      const made = await retryLlm.chat({ model: 'm', messages: hintedRetryMessages([], result.text, hint) });
      if (!made.ok) return { ok: false, error: made.error };
      result.text = made.value.text;
      return { ok: true, answer: made.value.text };
    },
    options.signal,
  );
  return result;
}
