/**
 * `createAssistant(config, deps)`: wires the pipeline's adapters from one
 * configuration. Every dependency can be injected (tests, the editor); what
 * is not injected is built from the config:
 *
 * - parser: openParserConnection (./parser/connection.ts) — the configured
 *   URL (one endpoint, a list or `dns:`), or the bundled parser service on a
 *   free loopback port when no URL is set; always behind the circuit breaker
 *   and the admission queue.
 * - llm: Ollama at `config.ollama.host`.
 * - retrieval: Elasticsearch when `config.retrieval.esUrl` is set, otherwise
 *   the embedded index over the shipped knowledge base.
 * - relevance: LLM YES/NO or cosine, per `config.relevance.mode`.
 * - telemetry: JSONL at `config.telemetry.file`, or none.
 * - few-shot examples: by embedding similarity over the knowledge base's
 *   pool (vectors cached under `config.cache.dir`), BM25 as the flagged fallback.
 */
import { Client } from '@elastic/elasticsearch';
import { loadKnowledgeBase } from '../knowledge';
import type { BadParserUrl } from '../protocol/parserUrl';
import { err, ok, type Result } from '../result';
import type { AssistantConfig } from './config';
import type { ParserPort, PipelineRequest, PipelineResult } from './types';
import type { LlmPort } from './llm/port';
import { createOllamaLlm } from './llm/ollamaLlm';
import type { StartBundledOptions } from './parser/bundled';
import { openParserConnection } from './parser/connection';
import type { ParserTransport } from './parser/transport';
import type { RunOptions } from './pipeline/deps';
import { resultWithoutRun } from './pipeline/failure';
import { runPipeline } from './pipeline/graph';
import { silentLogger, systemClock, type Clock, type Logger } from './ports';
import { createCosineRelevance } from './relevance/cosineRelevance';
import { createLlmRelevance } from './relevance/llmRelevance';
import type { RelevancePort } from './relevance/port';
import { createElasticRetrieval } from './retrieval/elastic';
import { createEmbeddedRetrieval, type EmbedFn } from './retrieval/embedded';
import type { KnowledgeSource, RetrievalPort } from './retrieval/port';
import { createFewShotSelector } from './fewShot/selector';
import { nullTelemetry, type TelemetrySink } from './telemetry/events';
import { jsonlTelemetry } from './telemetry/jsonlSink';

export interface AssistantDeps {
  llm?: LlmPort;
  /** A ready ParserPort (skips gRPC entirely, e.g. unit tests). */
  parser?: ParserPort;
  /** A transport to put behind the breaker instead of gRPC (tests count calls with it). */
  parserTransport?: ParserTransport;
  retrieval?: RetrievalPort;
  relevance?: RelevancePort;
  /** The knowledge base for the embedded index and few-shot examples; `null` = none. Default: the shipped one. */
  knowledge?: KnowledgeSource | null;
  /** An Elasticsearch client to use instead of one built from the URL (tests pass a mocked one). */
  esClient?: Client;
  telemetry?: TelemetrySink;
  logger?: Logger;
  clock?: Clock;
  /** Options for starting the bundled parser service. */
  bundled?: StartBundledOptions;
}

export interface Assistant {
  /** Runs one request; never rejects (failures are in `result.error`). */
  run(request: PipelineRequest, options?: RunOptions): Promise<PipelineResult>;
  /** The parser port (circuit state for the status bar, `validate` for the editor). */
  readonly parser: ParserPort;
  readonly config: AssistantConfig;
  /** Where the parser service is (`bundled 127.0.0.1:PORT`, the configured URL, or `injected`). */
  readonly parserEndpoint: string;
  /** Which retrieval adapter is in use. */
  readonly retrievalName: string;
  /** The retrieval adapter itself (evaluation probes it once to check its mode is honoured). */
  readonly retrieval: RetrievalPort;
  /** Stops the bundled parser service, closes channels, flushes telemetry. Idempotent. */
  dispose(): Promise<void>;
}

/** The assistant, or why it could not be made (an unreadable parser URL: a usage problem, nothing started). */
export type CreateAssistantResult = Result<Assistant, BadParserUrl>;

function loadShippedKnowledge(logger: Logger): ReturnType<typeof loadKnowledgeBase> {
  const loaded = loadKnowledgeBase();
  if (!loaded.ok)
    logger.warn(`knowledge base not loaded (${loaded.error.message}) — answering without documentation context`);
  return loaded;
}

/** Retrieval over a knowledge base that could not be loaded: every search fails, so answers are marked degraded. */
function unavailableRetrieval(name: string, message: string): RetrievalPort {
  return {
    name,
    retrieve: () => Promise.resolve({ ok: false, error: { code: 'retrieval-failed', message } }),
  };
}

const emptyKnowledge: KnowledgeSource = { chunks: [], search: () => [], chunk: () => undefined };

export async function createAssistant(
  config: AssistantConfig,
  deps: AssistantDeps = {},
): Promise<CreateAssistantResult> {
  const logger = deps.logger ?? silentLogger;
  const clock = deps.clock ?? systemClock;
  const disposers: (() => Promise<void> | void)[] = [];

  // Parser: an injected port, or the one connection factory (injected transport, configured URL, bundled service).
  let parser: ParserPort;
  let parserEndpoint = 'injected';
  if (deps.parser) {
    parser = deps.parser;
  } else {
    const opened = await openParserConnection(config.parser, {
      logger,
      clock,
      ...(deps.bundled ? { bundled: deps.bundled } : {}),
      ...(deps.parserTransport ? { transport: deps.parserTransport } : {}),
    });
    if (!opened.ok) return err(opened.error);
    const connection = opened.value;
    parser = connection.port;
    parserEndpoint = connection.endpoint;
    disposers.push(() => connection.close());
  }

  const llm = deps.llm ?? createOllamaLlm(config.ollama);
  const embed: EmbedFn = (texts, signal) => llm.embed(config.ollama.embeddingModel, texts, signal);

  let knowledge: KnowledgeSource | null;
  let knowledgeProblem: string | undefined;
  if (deps.knowledge === undefined) {
    const loaded = loadShippedKnowledge(logger);
    knowledge = loaded.ok ? loaded.value : null;
    if (!loaded.ok) knowledgeProblem = `the knowledge base could not be loaded (${loaded.error.message})`;
  } else {
    knowledge = deps.knowledge;
  }
  let retrieval = deps.retrieval;
  if (!retrieval && config.retrieval.esUrl) {
    const client =
      deps.esClient ??
      new Client({
        node: config.retrieval.esUrl,
        ...(config.retrieval.esApiKey ? { auth: { apiKey: config.retrieval.esApiKey } } : {}),
      });
    if (!deps.esClient) disposers.push(() => client.close());
    retrieval = createElasticRetrieval({
      client,
      index: config.retrieval.esIndex,
      embed,
      mode: config.retrieval.mode,
      rrfK: config.retrieval.rrfK,
      logger,
      label: config.retrieval.esUrl,
    });
  }
  if (!retrieval && knowledgeProblem) retrieval = unavailableRetrieval('embedded (not loaded)', knowledgeProblem);
  retrieval ??= createEmbeddedRetrieval(knowledge ?? emptyKnowledge, {
    embed,
    mode: config.retrieval.mode,
    rrfK: config.retrieval.rrfK,
    logger,
  });

  const relevance =
    deps.relevance ??
    (config.relevance.mode === 'cosine'
      ? createCosineRelevance(llm, config.ollama.embeddingModel, config.relevance.cosineThreshold)
      : createLlmRelevance(llm, config.ollama.model));

  const telemetry =
    deps.telemetry ?? (config.telemetry.file ? jsonlTelemetry(config.telemetry.file, logger) : nullTelemetry);

  // Few-shot: top-K by embedding similarity (pool vectors cached per corpus and model), BM25 as the flagged fallback.
  const examples = knowledge?.selectExamples
    ? createFewShotSelector({
        pool: knowledge.pool?.examples ?? [],
        lexical: (request, k) => (knowledge.selectExamples?.(request, k) ?? []).map((s) => s.example),
        ...(config.ollama.embeddingModel ? { embed } : {}),
        model: config.ollama.embeddingModel,
        fingerprint: knowledge.fingerprint ?? 'unversioned',
        // Without a corpus fingerprint a cache file could not tell it is stale: memory only.
        ...(config.cache?.dir && knowledge.fingerprint ? { cacheDir: config.cache.dir } : {}),
        logger,
      })
    : undefined;

  const parserVersion = () => (parser as { parserVersion?: string }).parserVersion;
  let disposed: Promise<void> | undefined;
  const assistant: Assistant = {
    parser,
    config,
    parserEndpoint,
    retrievalName: retrieval.name,
    retrieval,
    async run(request, options = {}) {
      try {
        return await runPipeline(
          { config, llm, parser, retrieval, relevance, examples, telemetry, logger, parserVersion },
          request,
          options,
        );
      } catch (err) {
        // Defence in depth: the graph returns failures as data; a bug must not escape to the host.
        const message = err instanceof Error ? err.message : String(err);
        logger.warn(`internal error: ${message}`);
        const result = resultWithoutRun(request, {
          generationId: 'internal-error',
          error: { code: 'llm-failed', message: `internal error: ${message}` },
        });
        try {
          // A failed run claims nothing: no status.
          options.onMessage?.({ text: '', avap_code: '', is_final: true });
        } catch {
          // ignore
        }
        return result;
      }
    },
    dispose() {
      disposed ??= (async () => {
        for (const dispose of disposers) {
          try {
            await dispose();
          } catch {
            // keep disposing the rest
          }
        }
        await telemetry.flush();
      })();
      return disposed;
    },
  };
  return ok(assistant);
}
