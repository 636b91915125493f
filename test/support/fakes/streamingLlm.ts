/**
 * A streaming fake of the LLM port for the early-abort tests: answers `generate_code` line by line (a macrotask
 * between pieces, as tokens arrive from a socket), the other tasks from the task fake.
 */
import { type ChatCall, type LlmPort, promptTask } from '../../../src/core';
import { taskLlm as fakeLlm } from './llm';

/**
 * A streaming fake LLM: answers `generate_code` line by line and stops as soon
 * as the call's signal is aborted (as the Ollama adapter does); records how
 * many pieces it sent and whether it was aborted.
 */
export function streamingLlm(answers: string[]): LlmPort & { calls: ChatCall[]; sent: number[]; aborted: boolean[] } {
  const base = fakeLlm({ reformulate: ['q'] });
  const calls: ChatCall[] = [];
  const sent: number[] = [];
  const aborted: boolean[] = [];
  let n = 0;
  return {
    calls,
    sent,
    aborted,
    async chat(call) {
      if (promptTask(call.messages[0]?.content ?? '') !== 'generate_code') return base.chat(call);
      calls.push(call);
      const answer = answers[Math.min(n, answers.length - 1)] ?? '';
      n += 1;
      let pieces = 0;
      for (const piece of answer.match(/[^\n]*\n|[^\n]+/g) ?? []) {
        if (call.signal?.aborted) break;
        call.onToken?.(piece);
        pieces += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
      sent.push(pieces);
      aborted.push(Boolean(call.signal?.aborted));
      if (call.signal?.aborted)
        return { ok: false, error: { code: 'cancelled', message: 'the request was cancelled' } };
      return { ok: true, value: { text: answer } };
    },
    embed: base.embed.bind(base),
    models: base.models.bind(base),
  };
}
