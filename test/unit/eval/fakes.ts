import { validateAvap } from '../../../src/parser';
import type { AnswerReviewer, CircuitSnapshot, ParserOutcome, ParserPort, PipelineRequest, PipelineResult } from '../../../src/core/contracts';
import type { ChatCall, LlmPort, LlmResult } from '../../../src/core/llm/port';
import { hintedRetryMessages } from '../../../src/core/routing/prompts';

/** An in-memory parser port: the real parser library, or "unavailable" on demand. */
export function libraryParser(state: { down: boolean } = { down: false }): ParserPort & { calls: number } {
  const snapshot: CircuitSnapshot = { state: 'closed', consecutiveFailures: 0 };
  const port = {
    calls: 0,
    async validate(source: string): Promise<ParserOutcome> {
      port.calls++;
      if (state.down) return { kind: 'unavailable', reason: 'transport', detail: 'connection refused' };
      return { kind: 'validated', result: validateAvap(source) };
    },
    circuit: () => snapshot,
    resetCircuit: () => undefined,
    onCircuitChange: () => () => undefined,
  };
  return port;
}

/** An LLM whose chat answers come from `answer(call)`; embeddings are bag-of-letters vectors. */
export function scriptedLlm(answer: (call: ChatCall) => LlmResult<{ text: string }>): LlmPort & { chats: ChatCall[] } {
  const chats: ChatCall[] = [];
  return {
    chats,
    async chat(call) {
      chats.push(call);
      return answer(call);
    },
    async embed(_model, texts) {
      return { ok: true, value: texts.map((t) => Array.from({ length: 26 }, (_, i) => [...t.toLowerCase()].filter((c) => c.charCodeAt(0) - 97 === i).length)) };
    },
    async models() {
      return { ok: true, value: ['qwen3:1.7b'] };
    },
  };
}

/**
 * What the pipeline does with a reviewer (core/pipeline/graph.ts), for tests of the layers above
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
  await options.review({ question: request.query, answer: result.text, queryType: result.queryType, sources: result.sources }, async (hint) => {
    if (used) return { ok: false, skipped: { trigger: 'judge-hint', reason: 'cycle-used', usedBy: cycleUsed ? 'relevance' : 'judge-hint' } };
    used = true;
    const made = await retryLlm.chat({ model: 'm', messages: hintedRetryMessages([], result.text, hint) });
    if (!made.ok) return { ok: false, error: made.error };
    result.text = made.value.text;
    return { ok: true, answer: made.value.text };
  }, options.signal);
  return result;
}
