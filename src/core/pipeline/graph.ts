/**
 * The routing and validation graph (the design's flow):
 *
 *   classify ─┬─ CODE_GENERATION → reformulate → retrieve → generate_code → validate_code
 *             │                     VALID → return ""        INVALID → generate_code_retry → validate_code → return
 *             ├─ RETRIEVAL → reformulate → retrieve → check_context_relevance
 *             │                     YES → generate     NO → reformulate_with_hint → retrieve → generate (unconditionally)
 *             └─ CONVERSATIONAL / PLATFORM → respond (no retrieval)
 *
 * RC-07, on every route: every AVAP code block an answer shows is validated
 * before the final message, and the status is earned (validation/status.ts):
 * `""` only when the parser validated all of them or there are none. Until
 * then the stream carries drafts (`draft: true`, no status, no code). The
 * final message's `text` is the answer delivered — exactly the text whose
 * code was validated — and an answer the parser's fixes repaired is streamed
 * again whole, as a draft that replaces the attempt's earlier ones.
 *
 * RC-08: one retry cycle per request, whatever triggers it — the relevance
 * reformulation, the parser's trace, or the quality judge's hint (a reviewer
 * passed in RunOptions); the budget is 0 or 1 (validation/retryCycle.ts). A
 * retry that is due but not made is logged, recorded in `result.retry` and in
 * the telemetry's `stop_reason`. An unavailable parser never triggers a retry
 * and the answer is returned PARSER_UNAVAILABLE. `request.correction` starts
 * at the retry step. Every failure comes back as data in the PipelineResult;
 * a failed or cancelled run has no status (it claims nothing).
 */
import { randomUUID } from 'node:crypto';
import { renderTrace, type TraceEntry } from '../../parser';
import { codeAnswerBlocks, shownCodeBlocks, stripThinking, type CodeBlock } from '../code/extract';
import { validateAnswer, type AnswerValidation } from '../code/validateBlocks';
import { LOG_REPAIRED_BY_FIXES, REPAIRED_BY_FIXES, repairAnswer } from '../code/repairAnswer';
import { LOG_EARLY_ABORT, StreamCheck, type HardFinding } from '../code/streamCheck';
import { isAvapFinding } from '../code/notAvap';
import { PARSER_VERSION } from '../../parser';
import type { AssistantConfig } from '../config';
import type {
  AnswerRetryOutcome,
  AnswerReviewer,
  AttemptRecord,
  ParserPort,
  PipelineRequest,
  PipelineResult,
  QueryType,
  ResponseMessage,
  RetryCycle,
  ValidationStatus,
} from '../contracts';
import type { ChatMessage, LlmError, LlmPort } from '../llm/port';
import { monotonicMs, type Logger } from '../ports';
import type { RelevancePort } from '../relevance/port';
import type { RetrievalPort, RetrievalResult, RetrievedChunk } from '../retrieval/port';
import { classify, DEFAULT_ROUTE } from '../routing/classifier';
import {
  answerRetryMessages,
  conversationalMessages,
  generateCodeMessages,
  generateCodeRetryMessages,
  generateMessages,
  hintedRetryMessages,
  platformMessages,
  reformulateMessages,
  reformulateWithHintMessages,
  type FewShotExample,
} from '../routing/prompts';
import {
  calledNames,
  type AttemptEvent,
  type AttemptVerdict,
  type TelemetrySink,
  TELEMETRY_SCHEMA_VERSION,
} from '../telemetry/events';
import type { FewShotSelection } from '../fewShot/selector';
import { withFirstAttempt } from './firstAttempt';
import { blocking, type ValidationError } from '../validation/contract';
import { contractFromTrace } from '../validation/fromTrace';
import { repairInstructions } from '../validation/normalizer';
import { RetryController } from '../validation/retryController';
import { claimRetry, describeSkip, newRetryCycle, retryAvailable, skipStopReason } from '../validation/retryCycle';
import { statusOf, type CodeCheck } from '../validation/status';
import { err, ok, type Result } from '../../result';

/**
 * The design's line when the parser cannot answer (a message: the logger adds `[ptvl]`; tests compare `prefixed(…)`).
 * @internal
 */
export const LOG_PARSER_UNAVAILABLE = 'parser unavailable — returning unvalidated';
/**
 * Logged when retrieval fails and the answer goes on without documentation context.
 * @internal
 */
export const logRetrievalFailed = (source: string, message: string): string =>
  `retrieval failed (${source}: ${message}) — answering without documentation context`;
/**
 * Logged when few-shot examples go into the code prompt; `how` is '' or ' by embedding similarity' / ' by BM25'.
 * @internal
 */
export const logFewShot = (k: number, injected: number, how = ''): string =>
  `few-shot: K=${k}, ${injected} validated example(s) injected${how}`;

export interface PipelineDeps {
  config: AssistantConfig;
  llm: LlmPort;
  parser: ParserPort;
  retrieval: RetrievalPort;
  relevance: RelevancePort;
  /**
   * Few-shot examples for code generation (the knowledge base's pool): a list,
   * or a selection that says how it was made (by embedding similarity, or the
   * flagged lexical fallback).
   */
  examples?: (request: string, k: number, signal?: AbortSignal) => FewShotChoice | Promise<FewShotChoice>;
  telemetry: TelemetrySink;
  logger: Logger;
  /** The parser version for telemetry (last seen verdict). */
  parserVersion?: () => string | undefined;
  newId?: () => string;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Receives every response message: drafts, then one final message. A throwing listener is ignored. */
  onMessage?: (message: ResponseMessage) => void;
  /** Reviews documentation (RETRIEVAL) answers before the final message; may ask for the one hinted retry. */
  review?: AnswerReviewer;
}

type Failure = NonNullable<PipelineResult['error']>;

type FewShotChoice = FewShotExample[] | FewShotSelection;

const cancelledError = (): Failure => ({ code: 'cancelled', message: 'the request was cancelled' });

function asFailure(error: LlmError | { code: string; message: string }): Failure {
  const known = ['llm-unreachable', 'model-missing', 'llm-timeout', 'cancelled', 'llm-failed'];
  return known.includes(error.code) ? (error as Failure) : { code: 'llm-failed', message: error.message };
}

/**
 * First meaningful line of a reformulation; the original query when the model gave nothing usable. Pure.
 * @internal
 */
export function cleanSearchQuery(text: string, fallback: string): string {
  const line =
    stripThinking(text)
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? '';
  const cleaned = line
    .replace(/^(search query|query)\s*:\s*/i, '')
    .replace(/^["'`]+|["'`]+$/g, '')
    .trim()
    .slice(0, 300);
  return cleaned || fallback;
}

/** The fields of one attempt's telemetry event that the run decides. */
interface EventFields {
  attempt: number;
  verdict: AttemptVerdict;
  errors: ValidationError[];
  model: string;
  code: string;
  stopReason?: string;
  errorCode?: string;
  repairedBy?: 'parser-fixes';
  earlyAbort?: { line: number; rule: string };
}

/** How one route asks for an answer and checks it. */
interface AnswerSpec {
  model: string;
  node: string;
  retryNode: string;
  messages: ChatMessage[];
  /** CODE_GENERATION: the answer must hold code (none is an error, E009); other routes may answer in prose. */
  codeRequired: boolean;
  /** The code blocks of an answer that the parser must see. */
  blocks: (text: string) => CodeBlock[];
  /** The trace-guided retry. */
  retryMessages: (
    text: string,
    validation: AnswerValidation,
    traceLines: string[],
    errors: ValidationError[],
  ) => ChatMessage[];
  /** The attempt the loop starts at (2 for Regenerate with Trace: the given code is attempt 1). */
  firstAttempt?: number;
}

/** One run of the graph. Create with the dependencies, call `run` once. */
class Run {
  private readonly id: string;
  private readonly signal: AbortSignal | undefined;
  private readonly result: PipelineResult;
  private readonly cycle: RetryCycle;
  private fewShot: FewShotExample[] | undefined;
  /** Latencies of the nodes run since the last attempt event. */
  private pending: Record<string, number> = {};
  private readonly all: Record<string, number> = {};
  private retrievalMode: string | undefined;
  /** The latest attempt's event, written when the run ends (final) or a retry supersedes it (not final). */
  private held: EventFields | undefined;
  /** The status the current answer has earned. */
  private status: ValidationStatus = '';
  private lastAttempt = 0;

  constructor(
    private readonly deps: PipelineDeps,
    private readonly request: PipelineRequest,
    private readonly options: RunOptions,
  ) {
    this.id = deps.newId?.() ?? randomUUID();
    this.signal = options.signal;
    this.cycle = newRetryCycle(deps.config.pipeline.maxRetries);
    this.result = {
      queryType: request.forceType ?? (request.correction ? 'CODE_GENERATION' : DEFAULT_ROUTE),
      text: '',
      code: '',
      attempts: [],
      sources: [],
      relevanceRetry: false,
      generationId: this.id,
      retry: this.cycle,
    };
  }

  private emit(message: ResponseMessage): void {
    try {
      this.options.onMessage?.(message);
    } catch {
      // A consumer's failure must not break the run.
    }
  }

  private async timed<T>(node: string, fn: () => Promise<T>): Promise<T> {
    const start = monotonicMs();
    try {
      return await fn();
    } finally {
      const ms = monotonicMs() - start;
      this.pending[node] = (this.pending[node] ?? 0) + ms;
      this.all[node] = (this.all[node] ?? 0) + ms;
    }
  }

  private get cancelled(): boolean {
    return Boolean(this.signal?.aborted);
  }

  // ------------------------------------------------------------- telemetry

  private writeEvent(fields: EventFields, final: boolean, status?: ValidationStatus): void {
    const isCode = this.result.queryType === 'CODE_GENERATION';
    const event: AttemptEvent = {
      schema_version: TELEMETRY_SCHEMA_VERSION,
      generation_id: this.id,
      timestamp: new Date().toISOString(),
      attempt: fields.attempt,
      max_attempts: 1 + this.cycle.limit,
      query_type: this.result.queryType,
      verdict: fields.verdict,
      errors: fields.errors.map((e) => ({
        code: e.code,
        ...(e.rule ? { rule: e.rule } : {}),
        field: e.field,
        ...(e.line !== undefined ? { line: e.line } : {}),
        expected: e.expected,
        received: e.received,
        severity: e.severity,
      })),
      converged: isCode && final && status !== undefined ? fields.verdict === 'valid' : null,
      ...(final && status !== undefined ? { validation_status: status } : {}),
      final,
      model: fields.model,
      temperature: this.deps.config.ollama.temperature,
      seed: this.deps.config.ollama.seed,
      parser_version: this.deps.parserVersion?.() ?? '',
      latencies_ms: Object.fromEntries(Object.entries(this.pending).map(([k, v]) => [k, Math.round(v * 1000) / 1000])),
      commands: fields.code ? calledNames(fields.code) : [],
      ...(this.retrievalMode ? { retrieval_mode: this.retrievalMode } : {}),
      ...(this.result.relevanceRetry ? { relevance_retry: true } : {}),
      ...(fields.stopReason ? { stop_reason: fields.stopReason } : {}),
      ...(fields.errorCode ? { error_code: fields.errorCode } : {}),
      ...(fields.repairedBy ? { repaired_by: fields.repairedBy } : {}),
      ...(fields.earlyAbort ? { early_abort: fields.earlyAbort } : {}),
    };
    this.pending = {};
    try {
      this.deps.telemetry.record(event);
    } catch {
      // Telemetry observes; it never influences generation.
    }
  }

  /** Keeps the latest attempt's event until the run knows whether it is the final one. */
  private hold(fields: EventFields): void {
    this.supersede();
    this.held = fields;
  }

  /** A retry follows: the held attempt is written as an earlier attempt (its verdict, no status). */
  private supersede(): void {
    if (!this.held) return;
    const { stopReason: _decidedLater, ...fields } = this.held;
    this.writeEvent(fields, false);
    this.held = undefined;
  }

  // ------------------------------------------------------------- endings

  /** The run ends with an answer and its earned status. */
  private finish(status: ValidationStatus): PipelineResult {
    if (this.held) {
      this.writeEvent(this.held, true, status);
      this.held = undefined;
    }
    this.result.validationStatus = status;
    this.result.latenciesMs = { ...this.all };
    this.emit({
      text: this.result.text,
      avap_code: this.result.code,
      is_final: true,
      validation_status: status,
      ...(this.result.repair && status === '' ? { repaired_by: this.result.repair.by } : {}),
    });
    return this.result;
  }

  /** A run that ends without an answer (LLM failure or cancellation): no text, no code, no status. */
  private fail(error: Failure, model: string, attempt = Math.max(1, this.lastAttempt)): PipelineResult {
    this.supersede();
    this.writeEvent({ attempt, verdict: 'skipped', errors: [], model, code: '', errorCode: error.code }, true);
    this.result.error = error;
    this.result.text = '';
    this.result.code = '';
    delete this.result.validationStatus;
    this.result.latenciesMs = { ...this.all };
    this.emit({ text: '', avap_code: '', is_final: true });
    return this.result;
  }

  private streamTo(attempt: number): (piece: string) => void {
    return (piece) => this.emit({ text: piece, avap_code: '', is_final: false, draft: true, attempt });
  }

  // ------------------------------------------------------------- the graph

  async run(): Promise<PipelineResult> {
    const { config, llm, logger } = this.deps;
    if (this.request.correction) return this.correct(this.request.correction);
    if (this.cancelled) return this.fail(cancelledError(), config.ollama.model);

    const classified = await this.timed('classify', () =>
      classify(
        llm,
        config.ollama.model,
        {
          query: this.request.query,
          forceType: this.request.forceType,
          history: this.request.history,
        },
        logger,
        this.signal,
      ),
    );
    if (!classified.ok) return this.fail(asFailure(classified.error), config.ollama.model);
    const route = classified.value;
    this.result.queryType = route.type;
    this.result.classification = route.how;

    if (route.type === 'CONVERSATIONAL' || route.type === 'PLATFORM') return this.respond(route.type);

    const retrieved = await this.reformulateAndRetrieve(this.request.query, 'reformulate', 'retrieve', false);
    if (!retrieved.ok) return this.fail(retrieved.error, config.ollama.model);
    let context = retrieved.value;
    this.result.retrievalMode = this.retrievalMode as PipelineResult['retrievalMode'];

    if (route.type === 'RETRIEVAL') {
      const verdict = await this.timed('check_context_relevance', () =>
        this.deps.relevance.judge(this.request.query, context, this.signal),
      );
      if (!verdict.ok) return this.fail(asFailure(verdict.error), config.ollama.model);
      this.result.relevance = {
        mode: this.deps.relevance.mode,
        relevant: verdict.value.relevant,
        detail: verdict.value.detail,
      };
      if (!verdict.value.relevant) {
        const claim = claimRetry(this.cycle, 'relevance');
        if (claim.granted) {
          logger.info(
            `context not relevant (${verdict.value.detail}) — reformulating with hint and retrieving once more`,
          );
          this.result.relevanceRetry = true;
          const again = await this.reformulateAndRetrieve(
            this.request.query,
            'reformulate_with_hint',
            'retrieve_retry',
            true,
          );
          if (!again.ok) return this.fail(again.error, config.ollama.model);
          context = again.value;
          this.result.retrievalMode = this.retrievalMode as PipelineResult['retrievalMode'];
        } else {
          logger.info(
            `context not relevant (${verdict.value.detail}) — retry skipped (${describeSkip(claim.skip)}); answering with this context`,
          );
        }
      }
      return this.answer(context.chunks);
    }
    return this.generateCode(context.chunks);
  }

  private async reformulateAndRetrieve(
    query: string,
    reformulateNode: string,
    retrieveNode: string,
    withHint: boolean,
  ): Promise<Result<RetrievalResult, Failure>> {
    const { config, llm, logger, retrieval } = this.deps;
    const messages = withHint ? reformulateWithHintMessages(query) : reformulateMessages(query);
    const rewritten = await this.timed(reformulateNode, () =>
      llm.chat({ model: config.ollama.model, messages, signal: this.signal, maxTokens: 96 }),
    );
    if (!rewritten.ok) return err(asFailure(rewritten.error));
    const searchQuery = cleanSearchQuery(rewritten.value.text, query);
    (this.result.searchQueries ??= []).push(searchQuery);
    const found = await this.timed(retrieveNode, () =>
      retrieval.retrieve(searchQuery, { topK: config.retrieval.topK, signal: this.signal }),
    );
    if (this.cancelled) return err(cancelledError());
    if (!found.ok) {
      if (found.error.code === 'cancelled') return err(cancelledError());
      logger.warn(logRetrievalFailed(retrieval.name, found.error.message));
      this.retrievalMode = 'none';
      this.result.retrieval = {
        status: 'degraded',
        reason: `retrieval failed (${retrieval.name}): ${found.error.message}`,
      };
      this.result.sources = [];
      return { ok: true, value: { chunks: [], mode: 'bm25_only' } };
    }
    this.retrievalMode = found.value.mode;
    this.result.retrieval = { status: 'ok' };
    if (found.value.fallback) this.result.retrievalFallback = found.value.fallback;
    this.result.sources = found.value.chunks.map((c) => ({ id: c.id, title: c.title, score: c.score }));
    return found;
  }

  /** CONVERSATIONAL and PLATFORM: the conversational model, no retrieval; any code it shows is validated all the same. */
  private respond(type: QueryType): Promise<PipelineResult> {
    const messages =
      type === 'PLATFORM'
        ? platformMessages(this.request.query, this.request.history)
        : conversationalMessages(this.request.query, this.request.history);
    const node = type === 'PLATFORM' ? 'respond_platform' : 'respond_conversational';
    return this.answerLoop(this.proseSpec(this.deps.config.ollama.conversationalModel, node, messages));
  }

  /** RETRIEVAL: the documentation answer, its code validated, then the reviewer (the judge) when there is one. */
  private answer(chunks: RetrievedChunk[]): Promise<PipelineResult> {
    const messages = generateMessages(this.request.query, chunks, this.request.history);
    return this.answerLoop(this.proseSpec(this.deps.config.ollama.model, 'generate', messages), this.options.review);
  }

  private proseSpec(model: string, node: string, messages: ChatMessage[]): AnswerSpec {
    return {
      model,
      node,
      retryNode: `${node}_retry`,
      messages,
      codeRequired: false,
      blocks: shownCodeBlocks,
      retryMessages: (text, validation, traceLines, errors) =>
        answerRetryMessages(messages, text, validation.code, traceLines, repairInstructions(errors)),
    };
  }

  /** The few-shot examples of this run, selected once (the retry reuses them). */
  private async examples(): Promise<FewShotExample[]> {
    if (this.fewShot) return this.fewShot;
    const { config, logger } = this.deps;
    const k = config.pipeline.fewShotExamples;
    const select = this.deps.examples;
    if (!select || k <= 0) {
      this.result.fewShot = { status: 'disabled', k, injected: 0 };
      logger.info(`few-shot: disabled (K=${k}${select ? '' : ', no example pool'})`);
      return (this.fewShot = []);
    }
    try {
      const choice = await select(this.request.query, k, this.signal);
      const picked = Array.isArray(choice) ? { examples: choice } : choice;
      const chosen = picked.examples;
      this.result.fewShot = {
        status: 'enabled',
        k,
        injected: chosen.length,
        ...('selection' in picked
          ? { selection: picked.selection, ...(picked.detail ? { selectionDetail: picked.detail } : {}) }
          : {}),
      };
      const how =
        'selection' in picked ? ` by ${picked.selection === 'embedding' ? 'embedding similarity' : 'BM25'}` : '';
      logger.info(logFewShot(k, chosen.length, how));
      if ('selection' in picked && picked.selection === 'lexical') {
        logger.warn(
          `few-shot: no embedding similarity (${picked.detail ?? 'unavailable'}) — examples chosen lexically; few_shot_selection: lexical`,
        );
      }
      return (this.fewShot = chosen);
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      this.result.fewShot = { status: 'degraded', k, injected: 0, detail };
      logger.warn(
        `few-shot example retrieval failed (${detail}) — generating without examples; few_shot_injection: degraded`,
      );
      return (this.fewShot = []);
    }
  }

  private codeSpec(
    messages: ChatMessage[],
    chunks: RetrievedChunk[],
    examples: FewShotExample[],
    firstAttempt = 1,
  ): AnswerSpec {
    return {
      model: this.deps.config.ollama.model,
      node: 'generate_code',
      retryNode: 'generate_code_retry',
      messages,
      codeRequired: true,
      blocks: codeAnswerBlocks,
      retryMessages: (text, validation, traceLines, errors) =>
        generateCodeRetryMessages(
          this.request.query,
          validation.code || text,
          traceLines,
          repairInstructions(errors),
          chunks,
          examples,
        ),
      firstAttempt,
    };
  }

  private async generateCode(chunks: RetrievedChunk[]): Promise<PipelineResult> {
    const examples = await this.examples();
    return this.answerLoop(
      this.codeSpec(generateCodeMessages(this.request.query, chunks, examples, this.request.history), chunks, examples),
    );
  }

  /** "Regenerate with trace": the given code and trace are attempt 1; this run is the retry (it uses the request's cycle). */
  private async correct(correction: { code: string; trace: TraceEntry[] }): Promise<PipelineResult> {
    this.result.queryType = 'CODE_GENERATION';
    this.result.classification = 'correction';
    this.cycle.usedBy = 'parser-trace';
    if (this.cancelled) return this.fail(cancelledError(), this.deps.config.ollama.model, 2);
    const errors = contractFromTrace(correction.trace).errors;
    this.result.attempts.push({
      attempt: 1,
      code: correction.code,
      outcome: {
        kind: 'validated',
        result: {
          valid: !blocking(errors).length,
          trace: correction.trace,
          truncated: false,
          parserVersion: this.deps.parserVersion?.() ?? '',
        },
      },
    });
    const traceLines = renderTrace(correction.trace).split('\n').filter(Boolean);
    const examples = await this.examples();
    const messages = generateCodeRetryMessages(
      this.request.query,
      correction.code,
      traceLines,
      repairInstructions(errors),
      [],
      examples,
    );
    const spec = this.codeSpec(messages, [], examples, 2);
    return this.answerLoop({ ...spec, node: 'generate_code_retry' });
  }

  // ------------------------------------------------------------- answers, validation, retries

  private async attemptOnce(
    spec: AnswerSpec,
    attempt: number,
    messages: ChatMessage[],
    node: string,
    watch = false,
  ): Promise<Result<{ text: string; validation: AnswerValidation; aborted?: HardFinding }, Failure>> {
    const { llm, parser } = this.deps;
    this.lastAttempt = attempt;
    // Early abort: complete code lines are checked as they stream; a hard error stops the model (see code/streamCheck.ts).
    const check = watch ? new StreamCheck() : undefined;
    const stop = new AbortController();
    const signal = check ? (this.signal ? AbortSignal.any([this.signal, stop.signal]) : stop.signal) : this.signal;
    const forward = this.streamTo(attempt);
    let streamed = '';
    const onToken = (piece: string) => {
      if (stop.signal.aborted) return; // what still arrives after the stop is not part of the answer
      forward(piece);
      if (!check) return;
      streamed += piece;
      if (check.push(piece) && isAvapFinding(check.finding)) stop.abort();
    };
    const reply = await this.timed(node, () => llm.chat({ model: spec.model, messages, signal, onToken }));
    const hard = isAvapFinding(check?.finding) ? check?.finding : undefined;
    // Decided by the content alone (a reply that finished before the abort landed is treated the same), so runs are reproducible.
    if (hard && !this.cancelled) return ok({ ...Run.abortedAnswer(streamed, hard), aborted: hard });
    if (!reply.ok) return err(asFailure(reply.error));
    if (this.cancelled) return err(cancelledError());
    const text = stripThinking(reply.value.text);
    const blocks = spec.blocks(text);
    const validation = await this.timed('validate_code', () =>
      validateAnswer(parser, blocks, this.request.filename ?? 'generated.avap', this.signal),
    );
    const verdict = validation.verdict;
    if (this.cancelled || (verdict.kind === 'unavailable' && verdict.outcome.reason === 'cancelled')) {
      // Kept as a record of what happened; the run itself ends without an answer or a status.
      if (blocks.length)
        this.result.attempts.push({ attempt, code: validation.code, outcome: validation.outcome, text });
      return err(cancelledError());
    }
    return ok({ text, validation });
  }

  /**
   * What a stopped stream leaves: the text that arrived (up to the line with
   * the hard error) and the library's hard findings on it, as an invalid
   * verdict of the parser library — evidence enough to retry, never a status.
   */
  private static abortedAnswer(streamed: string, hard: HardFinding): { text: string; validation: AnswerValidation } {
    // The lines up to the one whose completion stopped the stream (the fence left open, as a cut stream leaves it).
    const text = stripThinking(streamed.split('\n').slice(0, hard.lastLine).join('\n'));
    const offset = hard.responseLine - hard.entry.line;
    const trace = hard.entries;
    const responseTrace = trace.map((e) => ({ ...e, line: e.line + offset }));
    return {
      text,
      validation: {
        verdict: { kind: 'invalid', trace, responseTrace, parserVersion: PARSER_VERSION },
        code: hard.code,
        outcome: {
          kind: 'validated',
          result: { valid: false, trace, truncated: false, parserVersion: PARSER_VERSION },
        },
        // The cut answer's one (open) block holds the hard findings; it was not sent to the service.
        blocks: ['invalid'],
        calls: 0,
      },
    };
  }

  /** The answer of this attempt becomes the run's answer; what the parser said about it is kept. */
  private adopt(spec: AnswerSpec, attempt: number, text: string, validation: AnswerValidation): CodeCheck {
    const verdict = validation.verdict;
    this.result.text = text;
    this.result.code = validation.code;
    if (verdict.kind !== 'no-code' || spec.codeRequired) {
      const record: AttemptRecord = { attempt, code: validation.code, outcome: validation.outcome, text };
      if (verdict.kind === 'valid' || verdict.kind === 'invalid') record.responseTrace = verdict.responseTrace;
      if (validation.blocks.length) record.blocks = validation.blocks;
      this.result.attempts.push(record);
    }
    if (verdict.kind === 'unavailable')
      this.deps.logger.warn(`${LOG_PARSER_UNAVAILABLE} (${verdict.outcome.reason}: ${verdict.outcome.detail})`);
    // A code request answered with no code at all is a failed attempt (E009), not a valid one.
    return verdict.kind === 'no-code' && spec.codeRequired ? 'invalid' : verdict.kind;
  }

  private errorsOf(validation: AnswerValidation): ValidationError[] {
    const verdict = validation.verdict;
    if (verdict.kind === 'valid' || verdict.kind === 'invalid') return contractFromTrace(verdict.trace).errors;
    if (verdict.kind === 'no-code') {
      return [
        {
          code: 'E009',
          field: 'response',
          expected: 'an AVAP program',
          received: '',
          severity: 'error',
          line: 1,
          message: 'the answer contained no AVAP code',
        },
      ];
    }
    return [];
  }

  private traceLinesOf(validation: AnswerValidation, errors: ValidationError[]): string[] {
    const verdict = validation.verdict;
    // Warnings never cause the retry, but once there is one they are listed with the errors.
    if (verdict.kind === 'invalid') return renderTrace(verdict.trace).split('\n').filter(Boolean);
    return errors.map((e) => `Line ${e.line ?? 1}: ${e.severity === 'warning' ? 'warning: ' : ''}${e.message}`);
  }

  private static telemetryVerdict(check: CodeCheck): AttemptVerdict {
    return check === 'no-code' ? 'skipped' : check;
  }

  /**
   * Generate → validate → (one trace-guided retry while the cycle is unused)
   * → the reviewer, if any → the final message with the earned status.
   */
  private async answerLoop(spec: AnswerSpec, review?: AnswerReviewer): Promise<PipelineResult> {
    const { logger } = this.deps;
    const first = spec.firstAttempt ?? 1;
    const controller = new RetryController(1);
    let messages = spec.messages;
    for (let attempt = first; ; attempt += 1) {
      // Stopping a stream early only makes sense when the trace-guided retry can follow it.
      const watch = attempt === 1 && retryAvailable(this.cycle);
      const outcome = await this.attemptOnce(
        spec,
        attempt,
        messages,
        attempt === first ? spec.node : spec.retryNode,
        watch,
      );
      if (!outcome.ok) {
        if (attempt === first || outcome.error.code === 'cancelled')
          return this.fail(outcome.error, spec.model, attempt);
        // The retry could not be generated: the invalid answer before it stands, unresolved.
        logger.warn(
          `retry generation failed (${outcome.error.message}) — returning the invalid answer as INVALID_UNRESOLVED`,
        );
        this.hold({
          attempt,
          verdict: 'skipped',
          errors: [],
          model: spec.model,
          code: '',
          errorCode: outcome.error.code,
          stopReason: 'retry-failed',
        });
        this.result.error = outcome.error;
        return this.finish('INVALID_UNRESOLVED');
      }
      const { text, validation, aborted } = outcome.value;
      const check = this.adopt(spec, attempt, text, validation);
      const errors = check === 'unavailable' ? [] : this.errorsOf(validation);
      const fields: EventFields = {
        attempt,
        verdict: Run.telemetryVerdict(check),
        errors: check === 'no-code' ? [] : errors,
        model: spec.model,
        code: validation.code,
      };
      if (aborted) {
        const where = { line: aborted.responseLine, rule: aborted.entry.code };
        fields.earlyAbort = where;
        this.result.earlyAbort = { ...where, attempt };
        const record = this.result.attempts[this.result.attempts.length - 1];
        if (record) record.earlyAbort = where;
        logger.info(`${LOG_EARLY_ABORT} (attempt ${attempt}, line ${where.line}: ${where.rule})`);
      }
      if (check === 'invalid' && !aborted) {
        // Deterministic repair first: when every error has a proven fix, the parser's fixes may spare the LLM retry.
        const repaired = await this.timed('repair_with_fixes', () =>
          repairAnswer(
            this.deps.parser,
            text,
            validation,
            spec.blocks,
            this.request.filename ?? 'generated.avap',
            this.signal,
          ),
        );
        if (this.cancelled) return this.fail(cancelledError(), spec.model, attempt);
        if (repaired.kind === 'repaired') {
          this.hold(fields);
          this.supersede();
          const fixed = repaired.validation;
          this.result.text = repaired.text;
          // What streamed is not what is delivered: the repaired answer replaces the attempt's drafts.
          this.emit({ text: repaired.text, avap_code: '', is_final: false, draft: true, attempt, replace: true });
          this.result.code = fixed.code;
          const record: AttemptRecord = {
            attempt,
            code: fixed.code,
            outcome: fixed.outcome,
            text: repaired.text,
            repairedBy: REPAIRED_BY_FIXES,
          };
          if (fixed.verdict.kind === 'valid') record.responseTrace = fixed.verdict.responseTrace;
          if (fixed.blocks.length) record.blocks = fixed.blocks;
          this.result.attempts.push(record);
          this.result.repair = { by: REPAIRED_BY_FIXES, attempt, applied: repaired.applied, rounds: repaired.rounds };
          logger.info(
            `${LOG_REPAIRED_BY_FIXES} (attempt ${attempt}: ${repaired.applied.length} fix(es) in ${repaired.rounds} round(s))`,
          );
          this.hold({
            attempt,
            verdict: 'valid',
            errors: this.errorsOf(fixed),
            model: spec.model,
            code: fixed.code,
            stopReason: 'repaired-by-fixes',
            repairedBy: REPAIRED_BY_FIXES,
          });
          this.status = statusOf('valid');
          break;
        }
        if (repaired.kind === 'unrepaired')
          logger.info(`attempt ${attempt}: the parser's fixes did not give a valid answer (${repaired.stop})`);
      }
      if (check !== 'invalid') {
        const verdict = validation.verdict;
        this.hold({
          ...fields,
          stopReason: verdict.kind === 'unavailable' ? `parser-${verdict.outcome.reason}` : check,
        });
        this.status = statusOf(check);
        break;
      }
      const decision = controller.decide(errors);
      let stopReason: string;
      if (attempt === 1) {
        const claim = claimRetry(this.cycle, 'parser-trace');
        if (claim.granted) {
          this.hold(fields);
          this.supersede();
          logger.info(
            `attempt ${attempt} ${aborted ? 'stopped early' : 'invalid'} (${blocking(errors).length} error(s)) — retrying with the trace`,
          );
          messages = spec.retryMessages(text, validation, this.traceLinesOf(validation, errors), errors);
          continue;
        }
        stopReason = skipStopReason(claim.skip);
        logger.info(
          `attempt ${attempt} invalid — retry skipped (${describeSkip(claim.skip)}) — returning INVALID_UNRESOLVED`,
        );
      } else {
        stopReason = decision.retry ? 'budget-exhausted' : decision.reason;
        logger.info(`code still invalid after ${attempt} attempt(s) (${stopReason}) — returning INVALID_UNRESOLVED`);
      }
      this.hold({ ...fields, stopReason });
      this.status = 'INVALID_UNRESOLVED';
      break;
    }
    if (review && this.result.text.trim()) {
      try {
        await review(
          {
            question: this.request.query,
            answer: this.result.text,
            queryType: this.result.queryType,
            sources: [...this.result.sources],
          },
          (hint) => this.hintedRetry(spec, hint),
          this.signal,
        );
      } catch (err) {
        // The reviewer only ever improves an answer; its failure leaves the answer as it is.
        logger.warn(`answer review failed (${err instanceof Error ? err.message : String(err)}) — keeping the answer`);
      }
      if (this.cancelled) return this.fail(cancelledError(), spec.model);
    }
    return this.finish(this.status);
  }

  /** The reviewer's hinted retry: made only while the cycle is unused; its code is validated, and its verdict is final. */
  private async hintedRetry(spec: AnswerSpec, hint: string): Promise<AnswerRetryOutcome> {
    const { logger } = this.deps;
    if (this.cancelled) return { ok: false, error: cancelledError() };
    const claim = claimRetry(this.cycle, 'judge-hint');
    if (!claim.granted) {
      logger.info(`judge retry skipped (${describeSkip(claim.skip)})`);
      if (this.held) this.held.stopReason = skipStopReason(claim.skip);
      return { ok: false, skipped: claim.skip };
    }
    const attempt = this.lastAttempt + 1;
    const previous = this.result.text;
    this.supersede();
    const outcome = await this.attemptOnce(
      spec,
      attempt,
      hintedRetryMessages(spec.messages, previous, hint),
      'generate_judge_retry',
    );
    if (!outcome.ok) {
      // The answer before it stands, with the status it earned.
      this.hold({
        attempt,
        verdict: 'skipped',
        errors: [],
        model: spec.model,
        code: '',
        errorCode: outcome.error.code,
        stopReason: 'judge-retry-failed',
      });
      return { ok: false, error: outcome.error };
    }
    const { text, validation } = outcome.value;
    const check = this.adopt(spec, attempt, text, validation);
    const errors = check === 'unavailable' || check === 'no-code' ? [] : this.errorsOf(validation);
    this.status = statusOf(check);
    if (check === 'invalid')
      logger.info("the judge's retry shows invalid code and the retry cycle is used — returning INVALID_UNRESOLVED");
    this.hold({
      attempt,
      verdict: Run.telemetryVerdict(check),
      errors,
      model: spec.model,
      code: validation.code,
      stopReason: 'judge-hint',
    });
    return { ok: true, answer: text };
  }
}

/** Runs one request through the graph. Never throws for expected failures: they come back in `result.error`. */
export function runPipeline(
  deps: PipelineDeps,
  request: PipelineRequest,
  options: RunOptions = {},
): Promise<PipelineResult> {
  return new Run(deps, request, options).run().then(withFirstAttempt);
}
