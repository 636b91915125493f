/**
 * In-memory fakes behind the pipeline's ports (the graph's unit tests and the
 * layers above it): an LLM answering each node from a per-task script, the
 * real parser library as the parser port, a one-chunk retrieval.
 */
import { defaultConfig, mergeConfig, type DeepPartial, type AssistantConfig } from '../../../src/core/config';
import type { ParserOutcome, ParserPort } from '../../../src/core/contracts';
import type { ChatCall, LlmPort, LlmResult } from '../../../src/core/llm/port';
import { memoryLogger } from '../../../src/core/ports';
import type { RelevancePort } from '../../../src/core/relevance/port';
import type { RetrievalPort } from '../../../src/core/retrieval/port';
import { promptTask, type PromptTask } from '../../../src/core/routing/prompts';
import { memoryTelemetry } from '../../../src/core/telemetry/events';
import { validateAvap } from '../../../src/parser';

export type Script = Partial<Record<PromptTask, (string | LlmResult<{ text: string }>)[]>>;

/** A fake LLM answering each node from a per-task queue (the last answer repeats). */
export function fakeLlm(script: Script): LlmPort & { calls: ChatCall[] } {
  const calls: ChatCall[] = [];
  const used: Partial<Record<PromptTask, number>> = {};
  return {
    calls,
    async chat(call) {
      calls.push(call);
      const task = promptTask(call.messages[0]?.content ?? '') as PromptTask;
      const queue = script[task] ?? [];
      const index = Math.min(used[task] ?? 0, queue.length - 1);
      used[task] = (used[task] ?? 0) + 1;
      const answer = queue[index];
      if (answer === undefined) return { ok: false, error: { code: 'llm-failed', message: `no script for ${task}` } };
      if (typeof answer !== 'string') return answer;
      if (call.onToken) for (const piece of answer.match(/[\s\S]{1,5}/g) ?? []) call.onToken(piece);
      return { ok: true, value: { text: answer } };
    },
    embed: async (_model, texts) => ({ ok: true, value: texts.map(() => [1, 0]) }),
    models: async () => ({ ok: true, value: [] }),
  };
}

export function fakeParser(mode: 'real' | 'down' | 'disabled' = 'real'): ParserPort & { sources: string[] } {
  const sources: string[] = [];
  return {
    sources,
    async validate(source): Promise<ParserOutcome> {
      if (mode === 'disabled') return { kind: 'unavailable', reason: 'disabled', detail: 'off' };
      sources.push(source);
      if (mode === 'down') return { kind: 'unavailable', reason: 'transport', detail: 'ECONNREFUSED' };
      return { kind: 'validated', result: validateAvap(source) };
    },
    circuit: () => ({ state: 'closed', consecutiveFailures: 0 }),
    resetCircuit: () => undefined,
    onCircuitChange: () => () => undefined,
  };
}

export const retrieval: RetrievalPort & { queries: string[] } = {
  name: 'fake',
  queries: [],
  async retrieve(query) {
    this.queries.push(query);
    return { ok: true, value: { chunks: [{ id: 'c1', title: 'encodeSHA256', text: 'encodeSHA256(source, target)', score: 1 }], mode: 'hybrid' } };
  },
};

export const yes: RelevancePort = { mode: 'llm', judge: async () => ({ ok: true, value: { relevant: true, detail: 'yes' } }) };

export function deps(llm: LlmPort, parser: ParserPort, patch: DeepPartial<AssistantConfig> = {}) {
  retrieval.queries = [];
  const telemetry = memoryTelemetry();
  const logger = memoryLogger();
  let n = 0;
  return {
    telemetry,
    logger,
    deps: {
      config: mergeConfig(defaultConfig(), patch), llm, parser, retrieval, relevance: yes, telemetry, logger,
      parserVersion: () => 'pv-1', newId: () => `gen-${++n}`,
    },
  };
}

