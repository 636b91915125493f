/**
 * The editor-free core of AVAP Assistant: the routing and validation pipeline
 * behind one programmatic API, used alike by the VS Code extension, the CLI
 * and the REST server. Nothing here imports `vscode`.
 *
 * ## The API
 *
 *   import { configFromEnv, createAssistant } from './core';
 *
 *   const config = configFromEnv(process.env);          // typed config + the design's env vars
 *   const created = await createAssistant(config, deps); // deps: optional injected adapters
 *   if (!created.ok) throw new Error(created.error.message); // kind 'bad-url': a malformed parser URL
 *   const assistant = created.value;
 *
 *   const result = await assistant.run(
 *     { query: 'return the SHA-256 of the password parameter', forceType: 'CODE_GENERATION' },
 *     { signal, onMessage: (m) => …  },                  // ResponseMessage stream; last has is_final
 *   );
 *   result.validationStatus   // '' | 'INVALID_UNRESOLVED' | 'PARSER_UNAVAILABLE'
 *   result.code / result.text / result.attempts (each with the parser outcome and trace)
 *   result.error              // set when no answer could be produced (llm-unreachable, model-missing,
 *                             //  llm-timeout, llm-failed, cancelled)
 *
 *   assistant.parser.circuit()            // {state, consecutiveFailures, nextProbeAt} for the status bar
 *   assistant.parser.onCircuitChange(fn)  // subscribe; returns an unsubscribe function
 *   assistant.parser.resetCircuit()       // the editor's "Reset Parser Circuit"
 *   assistant.parser.validate(src, name)  // one validation through the breaker
 *   await assistant.dispose()             // stops the bundled parser service, flushes telemetry
 *
 * `run` never rejects. Requests with `correction: {code, trace}` start at the
 * retry step (the editor's Regenerate with Trace). `deps` (all optional):
 * `llm`, `parser` or `parserTransport`, `retrieval`, `relevance`, `knowledge`,
 * `esClient`, `telemetry`, `logger` (messages only; the adapter built with `prefixedLogger` adds `[ptvl]`), `clock`
 * (the breaker's cooldown), `bundled` (options of the bundled parser service).
 *
 * ## The pieces (one concern per module)
 *
 *   config.ts                 AssistantConfig, defaults, configFromEnv, configFromSettings, ENV_VARS
 *   types.ts                  the types shared with the editor, CLI and REST server (ParserPort, request, result)
 *   ports.ts                  Logger (prefixedLogger adds [ptvl]), Clock (tests use test/support/fakes/ports.ts)
 *   parser/                   openParserConnection (the one factory), gRPC transport (balanced over several
 *                             endpoints), cockatiel circuit breaker (BreakerParser), admission queue, startBundledParser()
 *   llm/                      LlmPort and the Ollama adapter (ttfb timeout, cancellation, distinct errors);
 *                             checkOllama (first run: does the server answer, are the configured models pulled)
 *   routing/                  prompts, classifier (JSON schema + zod + one repair + safe default)
 *   retrieval/                RetrievalPort; Elasticsearch (hybrid RRF / knn_only, mapping, ingestion); embedded index
 *   fewShot/                  few-shot selection by embedding similarity (pool vectors cached), BM25 fallback
 *   relevance/                RelevancePort; LLM YES/NO and cosine adapters
 *   code/                     code extraction from answers; per-block validation with line mapping
 *   validation/               validation errors (E-codes), normalizer (repair instructions), the retry cycle
 *                             (D1 RC-08: the one retry budget), the status (D1 RC-07)
 *   telemetry/                JSONL attempt events, torn-line-tolerant reader, metrics (trend, needs_review),
 *                             before/after comparison by parser version or model
 *   pipeline/                 the graph (docs/design.md D1): graph.ts classifies and hands the run to its route
 *                             (routes/); answerLoop.ts generate → validate → repair → retry → review; attempt.ts one
 *                             generation; retrieve.ts, fewShot.ts, repair.ts, review.ts; run.ts one run's state;
 *                             attemptLog.ts the one place that records attempts (result and telemetry)
 *   assistant.ts              createAssistant: wiring from config
 */
export * from './types';
export {
  configFromEnv,
  configFromSettings,
  /** @internal */ defaultConfig,
  mergeConfig,
  normalizeOllamaHost,
  /** @internal */ parseDuration,
  ConfigError,
  /** @internal */ ENV_VARS,
  parseParserTimeout,
  parseRelevanceMode,
  parseRetrievalMode,
  type AssistantConfig,
  type DeepPartial,
  type ParserConfig,
} from './config';
export { createAssistant, type Assistant, type AssistantDeps } from './assistant';
export { /** @internal */ runPipeline } from './pipeline/graph';
export { resultWithoutRun } from './pipeline/failure';
export { /** @internal */ LOG_PARSER_UNAVAILABLE } from './pipeline/attempt';
export type { RunOptions } from './pipeline/deps';
export { firstAttemptFields } from './pipeline/firstAttempt';
export { attemptCount } from './pipeline/attemptCount';
export { describeSkip } from './validation/retryCycle';
export { hintedRetryMessages, QUALITY_RETRY_HEAD } from './routing/prompts';
export { /** @internal */ prefixed, prefixedLogger, silentLogger } from './ports';
export {
  /** @internal */ BreakerParser,
  /** @internal */ LOG_CLOSED,
  /** @internal */ LOG_HALF_OPEN,
  /** @internal */ LOG_SKIP,
} from './parser/breakerParser';
export { /** @internal */ startBundledParser, type BundledParser } from './parser/bundled';
export { /** @internal */ createGrpcTransport } from './parser/grpcTransport';
export { /** @internal */ AdmissionParser } from './parser/admission';
export type { ParserTransport, TransportResult } from './parser/transport';
export { createOllamaLlm } from './llm/ollamaLlm';
export {
  checkOllama,
  neededModels,
  /** @internal */ canonicalModelName,
  /** @internal */ pullCommand,
  type NeededModel,
  type OllamaCheck,
} from './llm/ollamaCheck';
export type { ChatCall, ChatMessage, LlmError, LlmPort, LlmResult } from './llm/port';
export {
  blockEntries,
  codeAnswerBlocks,
  extractCode,
  isAvapFenceLabel,
  shownCodeBlocks,
  stripThinking,
  type CodeBlock,
} from './code/extract';
export { plainlyNotAvap } from './code/notAvap';
export { /** @internal */ ERROR_CODES, type ValidationError } from './validation/errors';
export { /** @internal */ errorsFromTrace } from './validation/fromTrace';
export { /** @internal */ repairInstructions } from './validation/normalizer';
export type { AttemptEvent } from './telemetry/events';
export { calledNames, memoryTelemetry } from './telemetry/events';
export { jsonlTelemetry, type JsonlTelemetrySink } from './telemetry/jsonlSink';
export { parseTelemetry } from './telemetry/read';
export { computeMetrics, renderMetrics, REVIEW_THRESHOLD, type Metrics } from './telemetry/metrics';
export { compareBy, renderComparison, isCompareBy, COMPARE_BY, type Comparison } from './telemetry/comparison';
export type { RetrievalPort, KnowledgeSource } from './retrieval/port';
export { ingestKnowledge, type IngestEvent, type IngestPhase } from './retrieval/elastic';
export type { BulkBatchFailure } from './retrieval/bulkFailures';
export { cosine } from './retrieval/rrf';
export type { RelevancePort } from './relevance/port';
// What the core shows the outside and a test or the benchmark observes it by: the prompts' task markers (a model
// — or the scripted one — tells the tasks apart by them), the correction the retry sends, and the log lines the
// design names; and the adapters behind the ports, for a caller that composes its own pipeline.
export {
  /** @internal */ promptTask,
  /** @internal */ PROMPT_HEADERS,
  /** @internal */ CORRECTION_HEAD,
  /** @internal */ CORRECTION_TAIL,
  /** @internal */ correctionContext,
  /** @internal */ contextInsufficientHint,
  type PromptTask,
} from './routing/prompts';
export {
  /** @internal */ CLASSIFICATION_JSON_SCHEMA,
  /** @internal */ LOG_CLASSIFIER_DEFAULT_ROUTE,
  /** @internal */ logClassifierMalformed,
} from './routing/classifier';
export { /** @internal */ logRetrievalFailed } from './pipeline/retrieve';
export { /** @internal */ LOG_REPAIRED_BY_FIXES } from './code/repairAnswer';
export { /** @internal */ LOG_EARLY_ABORT, /** @internal */ StreamCheck } from './code/streamCheck';
export { /** @internal */ validateAnswer } from './code/validateBlocks';
export { /** @internal */ CANARY_FILENAME } from './parser/breakerParser';
export { /** @internal */ INGEST_PIPELINE, /** @internal */ createElasticRetrieval } from './retrieval/elastic';
export { /** @internal */ createEmbeddedRetrieval, type EmbedFn } from './retrieval/embedded';
export { /** @internal */ createCosineRelevance } from './relevance/cosineRelevance';
export { /** @internal */ createLlmRelevance } from './relevance/llmRelevance';
