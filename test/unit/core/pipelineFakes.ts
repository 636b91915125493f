/**
 * The pipeline's dependencies for the graph's unit tests and the layers above it: the shared fakes
 * (test/support/fakes: an LLM answering each node from a per-task script, the real parser library as the
 * parser port) with a one-chunk retrieval and a relevance check that always says yes.
 */
import {
  defaultConfig,
  mergeConfig,
  type DeepPartial,
  type AssistantConfig,
  type ParserPort,
  type LlmPort,
  type RelevancePort,
  type RetrievalPort,
  memoryTelemetry,
} from '../../../src/core';
import { memoryLogger } from '../../support/fakes/ports';

export const retrieval: RetrievalPort & { queries: string[] } = {
  name: 'fake',
  queries: [],
  retrieve(query) {
    this.queries.push(query);
    return Promise.resolve({
      ok: true,
      value: {
        chunks: [{ id: 'c1', title: 'encodeSHA256', text: 'encodeSHA256(source, target)', score: 1 }],
        mode: 'hybrid',
      },
    });
  },
};

const yes: RelevancePort = {
  mode: 'llm',
  judge: () => Promise.resolve({ ok: true, value: { relevant: true, detail: 'yes' } }),
};

export function deps(llm: LlmPort, parser: ParserPort, patch: DeepPartial<AssistantConfig> = {}) {
  retrieval.queries = [];
  const telemetry = memoryTelemetry();
  const logger = memoryLogger();
  let n = 0;
  return {
    telemetry,
    logger,
    deps: {
      config: mergeConfig(defaultConfig(), patch),
      llm,
      parser,
      retrieval,
      relevance: yes,
      telemetry,
      logger,
      parserVersion: () => 'pv-1',
      newId: () => `gen-${++n}`,
    },
  };
}
