/**
 * In-memory fakes of the LLM port (src/core/llm/port.ts). Every test that needs a model without a server takes
 * one from here: `fakeLlm` answers from plain functions, `taskLlm` answers each pipeline node from its own queue.
 * Tests that need the HTTP layer use the scripted Ollama server (test/support/scriptedOllama.ts) instead.
 */
import {
  type ChatCall,
  type LlmError,
  type LlmPort,
  type LlmResult,
  promptTask,
  type PromptTask,
} from '../../../src/core';

/** What the fake answers; each defaults to an `llm-failed` "not scripted" error. */
export interface LlmScript {
  chat?: (call: ChatCall) => LlmResult<{ text: string }>;
  embed?: (model: string, texts: string[]) => LlmResult<number[][]>;
  models?: () => LlmResult<string[]>;
}

export type FakeLlm = LlmPort & {
  /** Every chat call, in order. */
  chats: ChatCall[];
  /** The texts of every embed call, in order. */
  embeds: string[][];
};

export const llmError = (code: LlmError['code'], message: string): { ok: false; error: LlmError } => ({
  ok: false,
  error: { code, message },
});

const notScripted = (what: string) => llmError('llm-failed', `${what}: not scripted`);

/** A fake LLM answering from `script`; it records what it was asked. */
export function fakeLlm(script: LlmScript = {}): FakeLlm {
  const chats: ChatCall[] = [];
  const embeds: string[][] = [];
  return {
    chats,
    embeds,
    chat: (call) => {
      chats.push(call);
      return Promise.resolve(script.chat ? script.chat(call) : notScripted('chat'));
    },
    embed: (model, texts) => {
      embeds.push(texts);
      return Promise.resolve(script.embed ? script.embed(model, texts) : notScripted('embed'));
    },
    models: () => Promise.resolve(script.models ? script.models() : notScripted('models')),
  };
}

/** Bag-of-letters vectors (26 counts): similar texts get similar vectors, deterministically. */
export function bagOfLetters(texts: string[]): number[][] {
  return texts.map((t) =>
    Array.from({ length: 26 }, (_, i) => [...t.toLowerCase()].filter((c) => c.charCodeAt(0) - 97 === i).length),
  );
}

export type TaskScript = Partial<Record<PromptTask, (string | LlmResult<{ text: string }>)[]>>;

/**
 * A fake LLM answering each pipeline node (recognised by its prompt) from a per-task queue; the last answer
 * repeats. A string answer is streamed in five-character pieces when the call asks for tokens. Embeddings are
 * `[1, 0]` for every text; no models are listed.
 */
export function taskLlm(script: TaskScript): FakeLlm & { calls: ChatCall[] } {
  const used: Partial<Record<PromptTask, number>> = {};
  const llm = fakeLlm({
    chat: (call) => {
      const task = promptTask(call.messages[0]?.content ?? '') as PromptTask;
      const queue = script[task] ?? [];
      const index = Math.min(used[task] ?? 0, queue.length - 1);
      used[task] = (used[task] ?? 0) + 1;
      const answer = queue[index];
      if (answer === undefined) return llmError('llm-failed', `no script for ${task}`);
      if (typeof answer !== 'string') return answer;
      if (call.onToken) for (const piece of answer.match(/[\s\S]{1,5}/g) ?? []) call.onToken(piece);
      return { ok: true, value: { text: answer } };
    },
    embed: (_model, texts) => ({ ok: true, value: texts.map(() => [1, 0]) }),
    models: () => ({ ok: true, value: [] }),
  });
  return Object.assign(llm, { calls: llm.chats });
}
