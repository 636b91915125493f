/**
 * The types the editor-free core shares with its callers (the extension, the
 * CLI, the REST server) and its adapters: the parser port and its outcome, the
 * request, the response stream, the result and the retry cycle. Adapters on
 * both sides depend on these types only. Errors cross these boundaries as
 * data, never as exceptions.
 */
import type { QueryType } from '../knowledge';
import type { TraceEntry, ValidationResult } from '../parser';

export type { QueryType };

/** `""` valid; `INVALID_UNRESOLVED` evidence of invalid code after the retry; `PARSER_UNAVAILABLE` no evidence. */
export type ValidationStatus = '' | 'INVALID_UNRESOLVED' | 'PARSER_UNAVAILABLE';

/**
 * The parser's state as a port reports it: the circuit breaker's three states (`closed`, `open`, `half-open`), or
 * one of two that are not the circuit's — `disabled` (validation is switched off: no parser at all) and
 * `not-connected` (no connection has been made yet: the editor before its first connect, or settings that gave
 * none). A connection that has not been made is not an open circuit: nothing failed.
 */
export type CircuitState = 'closed' | 'open' | 'half-open' | 'disabled' | 'not-connected';

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

/** Port: whatever can validate AVAP (gRPC client behind a breaker; in unit tests the fake in test/support/fakes/parser.ts). */
export interface ParserPort {
  validate(source: string, filename: string, signal?: AbortSignal): Promise<ParserOutcome>;
  circuit(): CircuitSnapshot;
  /** Closes the circuit and forgets failures (the editor's "Reset Parser Circuit"). */
  resetCircuit(): void;
  /** Subscribe to circuit changes; returns an unsubscribe function. */
  onCircuitChange(listener: (snapshot: CircuitSnapshot) => void): () => void;
}

/**
 * A draft: a streamed piece of an answer the parser has not judged yet. It
 * carries no `validation_status` (it makes no validity claim) and no
 * `avap_code`; a client shows it as *validating…* until the final message.
 */
interface DraftMessage {
  text: string;
  /** Always empty: code is only handed over in the final message, after the verdict. */
  avap_code: '';
  is_final: false;
  draft: true;
  /**
   * Extension: which generation attempt a streamed piece belongs to (1, or 2
   * for the retry). A client showing the stream starts afresh when it grows.
   */
  attempt?: number;
  /**
   * Extension: this draft's `text` is the whole answer of its attempt as the
   * pipeline changed it after it streamed (the parser's proven fixes repaired
   * it): it replaces every earlier draft of the attempt instead of adding to
   * them. The final message's `text` is that answer too.
   */
  replace?: true;
}

/**
 * The final message. `validation_status` is the run's earned verdict on the
 * code it hands over; it is absent when the run failed or was cancelled
 * before a verdict (no validity claim; the caller reports the error).
 */
export interface FinalMessage {
  /**
   * The whole answer the run delivers: the text whose every code block was
   * validated to earn `validation_status` (repaired when the parser's fixes
   * repaired it, without the model's reasoning preamble). A client shows this
   * text in place of the drafts. Empty when the run failed.
   */
  text: string;
  avap_code: string;
  is_final: true;
  validation_status?: ValidationStatus;
  /** Extension: set when the answer is the model's answer repaired by the parser's proven fixes (no LLM retry). */
  repaired_by?: 'parser-fixes';
}

/** One message of the response stream: drafts, then exactly one final message. */
export type ResponseMessage = DraftMessage | FinalMessage;

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
  /**
   * Extension: this record is the attempt's answer repaired by the parser's
   * proven fixes (no model call), validated by the parser service.
   */
  repairedBy?: 'parser-fixes';
  /**
   * Extension: the model was stopped mid-answer because a complete streamed
   * line was certain to be rejected (checked in-process by the parser
   * library); `text` and `code` are what had arrived, the outcome holds the
   * hard findings. The retry's answer gets the service's verdict.
   */
  earlyAbort?: EarlyAbort;
  /** Extension: the verdict on each code block of `text`, in order (a block the parser was not asked about is `unavailable`). */
  blocks?: ('valid' | 'invalid' | 'unavailable')[];
}

/** Extension: where and why a streamed answer was stopped early. */
export interface EarlyAbort {
  /** The line of the answer text. */
  line: number;
  /** The parser rule of the hard finding. */
  rule: string;
}

/** Extension: an answer repaired by the parser's fixes instead of an LLM retry. */
interface FixRepair {
  by: 'parser-fixes';
  /** The attempt whose answer was repaired. */
  attempt: number;
  /** The fixes kept, in order. */
  applied: { line: number; code: string; title: string }[];
  rounds: number;
}

/** What may trigger the one retry cycle of a request (D1 RC-08). */
export type RetryTrigger = 'relevance' | 'parser-trace' | 'judge-hint';

/** A retry that was due but not made: the budget is 0, or the request already used its cycle. */
export interface RetrySkip {
  trigger: RetryTrigger;
  reason: 'retries-disabled' | 'cycle-used';
  /** With `cycle-used`: what used it. */
  usedBy?: RetryTrigger;
}

/** The request's retry cycle: at most one, whatever triggers it. */
export interface RetryCycle {
  /** 0 or 1. */
  limit: 0 | 1;
  /** What used the cycle, once used. */
  usedBy?: RetryTrigger;
  skipped: RetrySkip[];
}

/** Whether the answer had the documentation context it asked for. */
interface RetrievalState {
  /** `degraded`: retrieval failed and the answer was generated without documentation context. */
  status: 'ok' | 'degraded';
  reason?: string;
}

/** Why the pipeline produced no answer: the model could not be reached, is not pulled, timed out or failed, or the run was cancelled. */
export type RunErrorCode = 'llm-unreachable' | 'model-missing' | 'llm-timeout' | 'cancelled' | 'llm-failed';

/**
 * Why a run produced no answer: the pipeline's own reasons, or — from a front end that has no assistant to run —
 * `bad-parser-url` (the configured parser URL cannot be read, so nothing was started) or `not-started` (none was
 * set up yet, or it was disposed). No model was asked in either.
 */
export type PipelineErrorCode = RunErrorCode | 'bad-parser-url' | 'not-started';

export interface PipelineResult {
  queryType: QueryType;
  /** Full answer text (Markdown) of the final attempt; empty when the run failed. */
  text: string;
  /** The code of the final answer (its AVAP blocks joined); empty for answers without code and failed runs. */
  code: string;
  /**
   * The earned verdict on every code block of the final answer: `""` only
   * when the parser validated all of them (or there are none). Absent when
   * the run failed or was cancelled before a verdict — no validity claim.
   */
  validationStatus?: ValidationStatus;
  attempts: AttemptRecord[];
  sources: RetrievedSource[];
  relevanceRetry: boolean;
  generationId: string;
  /**
   * Set when the run could not produce an answer (e.g. LLM unreachable), or —
   * with `validationStatus: INVALID_UNRESOLVED` — when the retry could not be
   * generated and the invalid first answer stands.
   */
  error?: { code: PipelineErrorCode; message: string };
  /** Extension: the request's retry cycle (what used it, what was skipped and why). */
  retry?: RetryCycle;
  /** Extension: set on routes that retrieve; `degraded` when the answer had no documentation context. */
  retrieval?: RetrievalState;
  /** Extension: how the route was chosen (forced, platform fast path, LLM, repaired, safe default). */
  classification?: 'forced' | 'fast-path' | 'llm' | 'repaired' | 'default' | 'correction';
  /** Extension: the relevance verdict of a RETRIEVAL run (of the first retrieval). */
  relevance?: { mode: 'llm' | 'cosine'; relevant: boolean; detail: string };
  /** Extension: how the chunks were found (`knn_only` and `bm25_only` are tagged; `none` when retrieval failed). */
  retrievalMode?: 'hybrid' | 'knn_only' | 'bm25_only' | 'none';
  /**
   * Extension: set when a retrieval of this run could not run in the configured
   * mode and fell back (e.g. `knn_only` or `hybrid` without a working embedding
   * model → `bm25_only`): why. Evaluation aborts on it; elsewhere it is logged.
   */
  retrievalFallback?: string;
  /**
   * D1's `parser_trace` (CODE_GENERATION): the raw trace of the first
   * validation, `Line N: message` per error; empty when it was valid or got no verdict.
   */
  parserTrace?: string;
  /** D1's `context_relevant` (RETRIEVAL): the relevance check's verdict on the first retrieval. */
  contextRelevant?: boolean;
  /** Extension: the search queries used (the reformulation, then the hinted one). */
  searchQueries?: string[];
  /** Extension: milliseconds per node of the graph. */
  latenciesMs?: Record<string, number>;
  /**
   * Extension (code generation only): the few-shot injection of D2 (docs/design.md) —
   * the configured K, how many validated examples went into the prompt, and
   * `degraded` when the example retrieval failed and generation went on without them.
   */
  fewShot?: FewShotInjection;
  /**
   * Extension: set when the final answer is an invalid answer repaired by the
   * parser's proven fixes and validated by the parser service — the LLM retry
   * was not spent on it.
   */
  repair?: FixRepair;
  /** Extension: set when an attempt's stream was stopped early on a hard error (see AttemptRecord.earlyAbort). */
  earlyAbort?: EarlyAbort & { attempt: number };
}

interface FewShotInjection {
  status: 'enabled' | 'degraded' | 'disabled';
  k: number;
  injected: number;
  /** Why the injection is degraded. */
  detail?: string;
  /**
   * How the examples were chosen: `embedding` (top-K by cosine similarity to
   * the request, D2) or `lexical` (BM25, the flagged fallback when no
   * embedding model answers). Absent when the selector does not say.
   */
  selection?: FewShotSelectionKind;
  /** Why the selection fell back to `lexical`. */
  selectionDetail?: string;
}

/** Extension: the outcome of the one hinted retry a reviewer may ask for. */
export type AnswerRetryOutcome =
  | { ok: true; answer: string }
  | { ok: false; skipped: RetrySkip }
  | { ok: false; error: { code: RunErrorCode; message: string } };

interface AnswerReviewInput {
  question: string;
  answer: string;
  queryType: QueryType;
  sources: RetrievedSource[];
}

/**
 * Extension: a reviewer of documentation answers (the quality judge). The
 * pipeline calls it with the validated answer before the final message; it may
 * call `retry(hint)` once, which the pipeline makes only if the request has not
 * used its retry cycle — the retry's code is validated like any answer's.
 */
export type AnswerReviewer = (
  input: AnswerReviewInput,
  retry: (hint: string) => Promise<AnswerRetryOutcome>,
  signal?: AbortSignal,
) => Promise<void>;

export type FewShotSelectionKind = 'embedding' | 'lexical';
