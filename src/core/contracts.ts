/**
 * The contracts between the editor-free core and its callers (the extension,
 * the CLI, the REST server). Adapters on both sides depend on these types only.
 * Errors cross these boundaries as data, never as exceptions.
 */
import type { TraceEntry, ValidationResult } from '../parser/types';

export type QueryType = 'CODE_GENERATION' | 'RETRIEVAL' | 'CONVERSATIONAL' | 'PLATFORM';

/** `""` valid; `INVALID_UNRESOLVED` evidence of invalid code after the retry; `PARSER_UNAVAILABLE` no evidence. */
export type ValidationStatus = '' | 'INVALID_UNRESOLVED' | 'PARSER_UNAVAILABLE';

export type CircuitState = 'closed' | 'open' | 'half-open' | 'disabled';

export interface CircuitSnapshot {
  state: CircuitState;
  consecutiveFailures: number;
  /** Epoch ms at which an open circuit lets the next probe through; absent unless open. */
  nextProbeAt?: number;
}

/** The outcome of asking the parser about one source. */
export type ParserOutcome =
  | { kind: 'validated'; result: ValidationResult }
  | {
      kind: 'unavailable';
      /**
       * Why no verdict: transport failure, deadline, open circuit, validation
       * disabled, or `overloaded` — the service is up but could not serve this
       * call in time (no evidence for this call; not counted against the circuit).
       */
      reason: 'transport' | 'timeout' | 'circuit-open' | 'disabled' | 'cancelled' | 'rejected' | 'overloaded';
      detail: string;
      /** overloaded: the service's estimate of the wait, in ms. */
      retryAfterMs?: number;
    };

/** Port: whatever can validate AVAP (gRPC client behind a breaker, or in-process in unit tests). */
export interface ParserPort {
  validate(source: string, filename: string, signal?: AbortSignal): Promise<ParserOutcome>;
  circuit(): CircuitSnapshot;
  /** Closes the circuit and forgets failures (the editor's "Reset Parser Circuit"). */
  resetCircuit(): void;
  /** Subscribe to circuit changes; returns an unsubscribe function. */
  onCircuitChange(listener: (snapshot: CircuitSnapshot) => void): () => void;
}

/** One message of the response stream; the last one has `is_final: true`. */
export interface ResponseMessage {
  text: string;
  avap_code: string;
  is_final: boolean;
  validation_status: ValidationStatus;
  /**
   * Extension: which generation attempt a streamed piece belongs to (1, or 2
   * for the retry). A client showing the stream starts afresh when it grows.
   */
  attempt?: number;
}

export interface PipelineRequest {
  query: string;
  /** Forces the route (the editor's Generate command always forces CODE_GENERATION). */
  forceType?: QueryType;
  /**
   * For "regenerate with trace": the code to correct and its current trace.
   * The pipeline then starts at the correction step.
   */
  correction?: { code: string; trace: TraceEntry[] };
  /** Extension: earlier turns of the conversation (compact intent history for the classifier, context for answers). */
  history?: ConversationTurn[];
  /** Extension: name used in parser messages (default `generated.avap`). */
  filename?: string;
}

/** Extension: one earlier turn of a conversation. */
export interface ConversationTurn {
  role: 'user' | 'assistant';
  content: string;
  /** The route the turn took, when known. */
  queryType?: QueryType;
}

export interface RetrievedSource {
  id: string;
  title: string;
  score: number;
}

export interface AttemptRecord {
  attempt: number;
  code: string;
  outcome: ParserOutcome | { kind: 'skipped' };
  /** Extension: the full answer text of this attempt. */
  text?: string;
  /** Extension: the trace mapped onto lines of `text` (the outcome's trace is relative to `code`). */
  responseTrace?: TraceEntry[];
}

export interface PipelineResult {
  queryType: QueryType;
  /** Full answer text (Markdown) of the final attempt. */
  text: string;
  /** Last candidate code (may be empty for non-code answers). */
  code: string;
  validationStatus: ValidationStatus;
  attempts: AttemptRecord[];
  sources: RetrievedSource[];
  relevanceRetry: boolean;
  generationId: string;
  /** Set when the run could not produce an answer at all (e.g. LLM unreachable). */
  error?: { code: 'llm-unreachable' | 'model-missing' | 'llm-timeout' | 'cancelled' | 'llm-failed'; message: string };
  /** Extension: how the route was chosen (forced, platform fast path, LLM, repaired, safe default). */
  classification?: 'forced' | 'fast-path' | 'llm' | 'repaired' | 'default' | 'correction';
  /** Extension: the relevance verdict of a RETRIEVAL run (of the first retrieval). */
  relevance?: { mode: 'llm' | 'cosine'; relevant: boolean; detail: string };
  /** Extension: how the chunks were found (`knn_only` and `bm25_only` are tagged). */
  retrievalMode?: 'hybrid' | 'knn_only' | 'bm25_only' | 'none';
  /** Extension: the search queries used (the reformulation, then the hinted one). */
  searchQueries?: string[];
  /** Extension: milliseconds per node of the graph. */
  latenciesMs?: Record<string, number>;
  /**
   * Extension (code generation only): the few-shot injection of ADR-0007 —
   * the configured K, how many validated examples went into the prompt, and
   * `degraded` when the example retrieval failed and generation went on without them.
   */
  fewShot?: FewShotInjection;
}

export interface FewShotInjection {
  status: 'enabled' | 'degraded' | 'disabled';
  k: number;
  injected: number;
  /** Why the injection is degraded. */
  detail?: string;
}
