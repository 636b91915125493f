import { validateAvap } from '../../../src/parser';
import type { CircuitSnapshot, ParserOutcome, ParserPort } from '../../../src/core/contracts';
import type { ChatCall, LlmPort, LlmResult } from '../../../src/core/llm/port';

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
