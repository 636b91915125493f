/**
 * The routing and validation graph (the design's flow):
 *
 *   classify ─┬─ CODE_GENERATION → reformulate → retrieve → generate_code → validate_code
 *             │                     VALID → return ""        INVALID → generate_code_retry → validate_code → return
 *             ├─ RETRIEVAL → reformulate → retrieve → check_context_relevance
 *             │                     YES → generate     NO → reformulate_with_hint → retrieve → generate (unconditionally)
 *             └─ CONVERSATIONAL / PLATFORM → respond (no retrieval)
 *
 * At most one retry per request whatever the type (RC-08; the budget comes
 * from settings). An unavailable parser never triggers an LLM retry and the
 * answer is returned unvalidated (RC-07). `request.correction` starts at the
 * retry step. Every failure comes back as data in the PipelineResult.
 */
import { randomUUID } from 'node:crypto';
import { renderTrace } from '../../parser/render';
import type { TraceEntry } from '../../parser/types';
import { extractCode, stripThinking, type CodeBlock } from '../code/extract';
import { validateAnswer, type AnswerValidation } from '../code/validateBlocks';
import type { AssistantConfig } from '../config';
import type {
  AttemptRecord, ParserPort, PipelineRequest, PipelineResult, QueryType, ResponseMessage, ValidationStatus,
} from '../contracts';
import type { ChatMessage, LlmError, LlmPort } from '../llm/port';
import { monotonicMs, type Logger } from '../ports';
import type { RelevancePort } from '../relevance/port';
import type { RetrievalPort, RetrievalResult, RetrievedChunk } from '../retrieval/port';
import { classify, DEFAULT_ROUTE } from '../routing/classifier';
import {
  conversationalMessages, generateCodeMessages, generateCodeRetryMessages, generateMessages, platformMessages,
  reformulateMessages, reformulateWithHintMessages, type FewShotExample,
} from '../routing/prompts';
import { calledNames, type AttemptEvent, type AttemptVerdict, type TelemetrySink, TELEMETRY_SCHEMA_VERSION } from '../telemetry/events';
import type { FewShotSelection } from '../fewShot/selector';
import { withFirstAttempt } from './firstAttempt';
import { blocking, type ValidationError } from '../validation/contract';
import { contractFromTrace } from '../validation/fromTrace';
import { repairInstructions } from '../validation/normalizer';
import { RetryController } from '../validation/retryController';

export const LOG_PARSER_UNAVAILABLE = '[ptvl] parser unavailable — returning unvalidated';

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
  /** Receives every response message; the last has `is_final: true`. A throwing listener is ignored. */
  onMessage?: (message: ResponseMessage) => void;
}

type Failure = NonNullable<PipelineResult['error']>;

export type FewShotChoice = FewShotExample[] | FewShotSelection;

const cancelledError = (): Failure => ({ code: 'cancelled', message: 'the request was cancelled' });

function asFailure(error: LlmError | { code: string; message: string }): Failure {
  const known = ['llm-unreachable', 'model-missing', 'llm-timeout', 'cancelled', 'llm-failed'];
  return known.includes(error.code) ? (error as Failure) : { code: 'llm-failed', message: error.message };
}

/** First meaningful line of a reformulation; the original query when the model gave nothing usable. Pure. */
export function cleanSearchQuery(text: string, fallback: string): string {
  const line = stripThinking(text).split('\n').map((l) => l.trim()).find((l) => l.length > 0) ?? '';
  const cleaned = line.replace(/^(search query|query)\s*:\s*/i, '').replace(/^["'`]+|["'`]+$/g, '').trim().slice(0, 300);
  return cleaned || fallback;
}

/** One run of the graph. Create with the dependencies, call `run` once. */
class Run {
  private readonly id: string;
  private readonly signal: AbortSignal | undefined;
  private readonly result: PipelineResult;
  private fewShot: FewShotExample[] | undefined;
  /** Latencies of the nodes run since the last attempt event. */
  private pending: Record<string, number> = {};
  private readonly all: Record<string, number> = {};
  private retrievalMode: string | undefined;
  private readonly maxAttempts: number;

  constructor(private readonly deps: PipelineDeps, private readonly request: PipelineRequest, private readonly options: RunOptions) {
    this.id = deps.newId?.() ?? randomUUID();
    this.signal = options.signal;
    this.maxAttempts = 1 + Math.max(0, deps.config.pipeline.maxRetries);
    this.result = {
      queryType: request.forceType ?? (request.correction ? 'CODE_GENERATION' : DEFAULT_ROUTE),
      text: '',
      code: '',
      validationStatus: '',
      attempts: [],
      sources: [],
      relevanceRetry: false,
      generationId: this.id,
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

  private finish(status: ValidationStatus, error?: Failure): PipelineResult {
    this.result.validationStatus = status;
    if (error) this.result.error = error;
    this.result.latenciesMs = { ...this.all };
    this.emit({ text: '', avap_code: this.result.code, is_final: true, validation_status: status });
    return this.result;
  }

  private recordEvent(fields: {
    attempt: number; verdict: AttemptVerdict; errors: ValidationError[]; final: boolean; status: ValidationStatus;
    model: string; code: string; stopReason?: string; errorCode?: string;
  }): void {
    const isCode = this.result.queryType === 'CODE_GENERATION';
    const event: AttemptEvent = {
      schema_version: TELEMETRY_SCHEMA_VERSION,
      generation_id: this.id,
      timestamp: new Date().toISOString(),
      attempt: fields.attempt,
      max_attempts: isCode ? this.maxAttempts : 1,
      query_type: this.result.queryType,
      verdict: fields.verdict,
      errors: fields.errors.map((e) => ({ code: e.code, field: e.field, ...(e.line !== undefined ? { line: e.line } : {}), received: e.received, severity: e.severity })),
      converged: isCode && fields.final ? fields.verdict === 'valid' : null,
      validation_status: fields.status,
      final: fields.final,
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
    };
    this.pending = {};
    try {
      this.deps.telemetry.record(event);
    } catch {
      // Telemetry observes; it never influences generation.
    }
  }

  /** A run that ends without an answer (LLM failure or cancellation). */
  private fail(error: Failure, model: string, attempt = 1): PipelineResult {
    this.recordEvent({ attempt, verdict: 'skipped', errors: [], final: true, status: '', model, code: '', errorCode: error.code });
    return this.finish('', error);
  }

  private streamTo(attempt: number): (piece: string) => void {
    return (piece) => this.emit({ text: piece, avap_code: '', is_final: false, validation_status: '', attempt });
  }

  async run(): Promise<PipelineResult> {
    const { config, llm, logger } = this.deps;
    if (this.request.correction) return this.correct(this.request.correction);
    if (this.cancelled) return this.fail(cancelledError(), config.ollama.model);

    const classified = await this.timed('classify', () => classify(llm, config.ollama.model, {
      query: this.request.query, forceType: this.request.forceType, history: this.request.history,
    }, logger, this.signal));
    if (!classified.ok) return this.fail(asFailure(classified.error), config.ollama.model);
    this.result.queryType = classified.type;
    this.result.classification = classified.how;

    if (classified.type === 'CONVERSATIONAL' || classified.type === 'PLATFORM') return this.respond(classified.type);

    const retrieved = await this.reformulateAndRetrieve(this.request.query, 'reformulate', 'retrieve', false);
    if (!retrieved.ok) return this.fail(retrieved.error, config.ollama.model);
    let context = retrieved.value;
    this.result.retrievalMode = this.retrievalMode as PipelineResult['retrievalMode'];

    if (classified.type === 'RETRIEVAL') {
      const verdict = await this.timed('check_context_relevance', () => this.deps.relevance.judge(this.request.query, context, this.signal));
      if (!verdict.ok) return this.fail(asFailure(verdict.error), config.ollama.model);
      this.result.relevance = { mode: this.deps.relevance.mode, relevant: verdict.value.relevant, detail: verdict.value.detail };
      if (!verdict.value.relevant) {
        logger.info(`[ptvl] context not relevant (${verdict.value.detail}) — reformulating with hint and retrieving once more`);
        this.result.relevanceRetry = true;
        const again = await this.reformulateAndRetrieve(this.request.query, 'reformulate_with_hint', 'retrieve_retry', true);
        if (!again.ok) return this.fail(again.error, config.ollama.model);
        context = again.value;
        this.result.retrievalMode = this.retrievalMode as PipelineResult['retrievalMode'];
      }
      return this.answer(context.chunks);
    }
    return this.generateCode(context.chunks);
  }

  private async reformulateAndRetrieve(
    query: string, reformulateNode: string, retrieveNode: string, withHint: boolean,
  ): Promise<{ ok: true; value: RetrievalResult } | { ok: false; error: Failure }> {
    const { config, llm, logger, retrieval } = this.deps;
    const messages = withHint ? reformulateWithHintMessages(query) : reformulateMessages(query);
    const rewritten = await this.timed(reformulateNode, () => llm.chat({ model: config.ollama.model, messages, signal: this.signal, maxTokens: 96 }));
    if (!rewritten.ok) return { ok: false, error: asFailure(rewritten.error) };
    const searchQuery = cleanSearchQuery(rewritten.value.text, query);
    (this.result.searchQueries ??= []).push(searchQuery);
    const found = await this.timed(retrieveNode, () => retrieval.retrieve(searchQuery, { topK: config.retrieval.topK, signal: this.signal }));
    if (this.cancelled) return { ok: false, error: cancelledError() };
    if (!found.ok) {
      if (found.error.code === 'cancelled') return { ok: false, error: cancelledError() };
      logger.warn(`[ptvl] retrieval failed (${retrieval.name}: ${found.error.message}) — answering without context`);
      this.retrievalMode = 'none';
      return { ok: true, value: { chunks: [], mode: 'bm25_only' } };
    }
    this.retrievalMode = found.value.mode;
    if (found.value.fallback) this.result.retrievalFallback = found.value.fallback;
    this.result.sources = found.value.chunks.map((c) => ({ id: c.id, title: c.title, score: c.score }));
    return found;
  }

  private async respond(type: QueryType): Promise<PipelineResult> {
    const { config, llm } = this.deps;
    const model = config.ollama.conversationalModel;
    const messages = type === 'PLATFORM'
      ? platformMessages(this.request.query, this.request.history)
      : conversationalMessages(this.request.query, this.request.history);
    const reply = await this.timed(type === 'PLATFORM' ? 'respond_platform' : 'respond_conversational',
      () => llm.chat({ model, messages, signal: this.signal, onToken: this.streamTo(1) }));
    if (!reply.ok) return this.fail(asFailure(reply.error), model);
    this.result.text = stripThinking(reply.value.text);
    this.recordEvent({ attempt: 1, verdict: 'skipped', errors: [], final: true, status: '', model, code: '' });
    return this.finish('');
  }

  private async answer(chunks: RetrievedChunk[]): Promise<PipelineResult> {
    const { config, llm } = this.deps;
    const model = config.ollama.model;
    const reply = await this.timed('generate', () => llm.chat({
      model, messages: generateMessages(this.request.query, chunks, this.request.history), signal: this.signal, onToken: this.streamTo(1),
    }));
    if (!reply.ok) return this.fail(asFailure(reply.error), model);
    this.result.text = stripThinking(reply.value.text);
    this.result.code = extractCode(this.result.text).filter((b) => b.fenced).map((b) => b.code).join('\n');
    this.recordEvent({ attempt: 1, verdict: 'skipped', errors: [], final: true, status: '', model, code: '' });
    return this.finish('');
  }

  /** The few-shot examples of this run, selected once (the retry reuses them). */
  private async examples(): Promise<FewShotExample[]> {
    if (this.fewShot) return this.fewShot;
    const { config, logger } = this.deps;
    const k = config.pipeline.fewShotExamples;
    const select = this.deps.examples;
    if (!select || k <= 0) {
      this.result.fewShot = { status: 'disabled', k, injected: 0 };
      logger.info(`[ptvl] few-shot: disabled (K=${k}${select ? '' : ', no example pool'})`);
      return (this.fewShot = []);
    }
    try {
      const choice = await select(this.request.query, k, this.signal);
      const picked = Array.isArray(choice) ? { examples: choice } : choice;
      const chosen = picked.examples;
      this.result.fewShot = {
        status: 'enabled', k, injected: chosen.length,
        ...('selection' in picked ? { selection: picked.selection, ...(picked.detail ? { selectionDetail: picked.detail } : {}) } : {}),
      };
      const how = 'selection' in picked ? ` by ${picked.selection === 'embedding' ? 'embedding similarity' : 'BM25'}` : '';
      logger.info(`[ptvl] few-shot: K=${k}, ${chosen.length} validated example(s) injected${how}`);
      if ('selection' in picked && picked.selection === 'lexical') {
        logger.warn(`[ptvl] few-shot: no embedding similarity (${picked.detail ?? 'unavailable'}) — examples chosen lexically; few_shot_selection: lexical`);
      }
      return (this.fewShot = chosen);
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      this.result.fewShot = { status: 'degraded', k, injected: 0, detail };
      logger.warn(`[ptvl] few-shot example retrieval failed (${detail}) — generating without examples; few_shot_injection: degraded`);
      return (this.fewShot = []);
    }
  }

  /** Blocks of one answer; an answer with text but no recognisable code is validated whole. */
  private blocksOf(text: string): CodeBlock[] {
    const blocks = extractCode(text);
    if (blocks.length || !text.trim()) return blocks;
    return [{ code: text, startLine: 1, label: '', fenced: false }];
  }

  private async attemptOnce(attempt: number, messages: ChatMessage[], node: string): Promise<
    { ok: true; text: string; validation: AnswerValidation } | { ok: false; error: Failure }
  > {
    const { config, llm, parser } = this.deps;
    const reply = await this.timed(node, () => llm.chat({ model: config.ollama.model, messages, signal: this.signal, onToken: this.streamTo(attempt) }));
    if (!reply.ok) return { ok: false, error: asFailure(reply.error) };
    const text = stripThinking(reply.value.text);
    const blocks = this.blocksOf(text);
    const validation = await this.timed('validate_code', () => validateAnswer(parser, blocks, this.request.filename ?? 'generated.avap', this.signal));
    return { ok: true, text, validation };
  }

  private record(attempt: number, text: string, validation: AnswerValidation): AttemptRecord {
    const record: AttemptRecord = { attempt, code: validation.code, outcome: validation.outcome, text };
    if (validation.verdict.kind === 'valid' || validation.verdict.kind === 'invalid') record.responseTrace = validation.verdict.responseTrace;
    this.result.attempts.push(record);
    this.result.text = text;
    this.result.code = validation.code;
    return record;
  }

  private errorsOf(validation: AnswerValidation): ValidationError[] | undefined {
    const verdict = validation.verdict;
    if (verdict.kind === 'valid' || verdict.kind === 'invalid') return contractFromTrace(verdict.trace).errors;
    if (verdict.kind === 'no-code') {
      return [{ code: 'E009', field: 'response', expected: 'an AVAP program', received: '', severity: 'error', line: 1, message: 'the answer contained no AVAP code' }];
    }
    return undefined;
  }

  private traceLinesOf(validation: AnswerValidation, errors: ValidationError[]): string[] {
    const verdict = validation.verdict;
    if (verdict.kind === 'invalid') return renderTrace(verdict.trace, { includeWarnings: false }).split('\n').filter(Boolean);
    return blocking(errors).map((e) => `Line ${e.line ?? 1}: ${e.message}`);
  }

  private async generateCode(chunks: RetrievedChunk[]): Promise<PipelineResult> {
    const { config, logger } = this.deps;
    const model = config.ollama.model;
    const examples = await this.examples();
    const controller = new RetryController(config.pipeline.maxRetries);
    let messages = generateCodeMessages(this.request.query, chunks, examples, this.request.history);
    let invalidVerdicts = 0;
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.attemptOnce(attempt, messages, attempt === 1 ? 'generate_code' : 'generate_code_retry');
      if (!outcome.ok) {
        if (attempt === 1 || outcome.error.code === 'cancelled') return this.fail(outcome.error, model, attempt);
        // The retry could not be generated: the invalid first candidate stands, unresolved.
        logger.warn(`[ptvl] retry generation failed (${outcome.error.message}) — returning the invalid candidate`);
        this.recordEvent({ attempt, verdict: 'skipped', errors: [], final: true, status: 'INVALID_UNRESOLVED', model, code: '', errorCode: outcome.error.code, stopReason: 'retry-failed' });
        return this.finish('INVALID_UNRESOLVED', outcome.error);
      }
      const { text, validation } = outcome;
      this.record(attempt, text, validation);
      const verdict = validation.verdict;

      if (verdict.kind === 'unavailable') {
        if (verdict.outcome.reason === 'cancelled' || this.cancelled) {
          this.recordEvent({ attempt, verdict: 'unavailable', errors: [], final: true, status: '', model, code: validation.code, errorCode: 'cancelled' });
          return this.finish('', cancelledError());
        }
        logger.warn(`${LOG_PARSER_UNAVAILABLE} (${verdict.outcome.reason}: ${verdict.outcome.detail})`);
        this.recordEvent({ attempt, verdict: 'unavailable', errors: [], final: true, status: 'PARSER_UNAVAILABLE', model, code: validation.code, stopReason: `parser-${verdict.outcome.reason}` });
        return this.finish('PARSER_UNAVAILABLE');
      }

      const errors = this.errorsOf(validation) ?? [];
      if (verdict.kind === 'valid') {
        this.recordEvent({ attempt, verdict: 'valid', errors, final: true, status: '', model, code: validation.code, stopReason: 'valid' });
        return this.finish('');
      }
      invalidVerdicts += 1;
      const decision = controller.decide(errors);
      if (!decision.retry) {
        this.recordEvent({ attempt, verdict: 'invalid', errors, final: true, status: 'INVALID_UNRESOLVED', model, code: validation.code, stopReason: decision.reason });
        logger.info(`[ptvl] code still invalid after ${attempt} attempt(s) (${decision.reason}) — returning INVALID_UNRESOLVED`);
        return this.finish('INVALID_UNRESOLVED');
      }
      this.recordEvent({ attempt, verdict: 'invalid', errors, final: false, status: 'INVALID_UNRESOLVED', model, code: validation.code });
      logger.info(`[ptvl] attempt ${attempt} invalid (${blocking(errors).length} error(s)) — retrying with the trace (${invalidVerdicts}/${config.pipeline.maxRetries})`);
      messages = generateCodeRetryMessages(
        this.request.query, validation.code || text, this.traceLinesOf(validation, errors), repairInstructions(errors), chunks, examples,
      );
    }
  }

  /** "Regenerate with trace": the given code and trace are attempt 1; this run is the retry. */
  private async correct(correction: { code: string; trace: TraceEntry[] }): Promise<PipelineResult> {
    const { config, logger } = this.deps;
    const model = config.ollama.model;
    this.result.queryType = 'CODE_GENERATION';
    this.result.classification = 'correction';
    if (this.cancelled) return this.fail(cancelledError(), model, 2);
    const errors = contractFromTrace(correction.trace).errors;
    this.result.attempts.push({
      attempt: 1,
      code: correction.code,
      outcome: { kind: 'validated', result: { valid: !blocking(errors).length, trace: correction.trace, truncated: false, parserVersion: this.deps.parserVersion?.() ?? '' } },
    });
    const traceLines = renderTrace(correction.trace, { includeWarnings: false }).split('\n').filter(Boolean);
    const messages = generateCodeRetryMessages(this.request.query, correction.code, traceLines, repairInstructions(errors), [], await this.examples());
    const outcome = await this.attemptOnce(2, messages, 'generate_code_retry');
    if (!outcome.ok) return this.fail(outcome.error, model, 2);
    const { text, validation } = outcome;
    this.record(2, text, validation);
    const verdict = validation.verdict;
    if (verdict.kind === 'unavailable') {
      if (verdict.outcome.reason === 'cancelled' || this.cancelled) {
        this.recordEvent({ attempt: 2, verdict: 'unavailable', errors: [], final: true, status: '', model, code: validation.code, errorCode: 'cancelled' });
        return this.finish('', cancelledError());
      }
      logger.warn(`${LOG_PARSER_UNAVAILABLE} (${verdict.outcome.reason}: ${verdict.outcome.detail})`);
      this.recordEvent({ attempt: 2, verdict: 'unavailable', errors: [], final: true, status: 'PARSER_UNAVAILABLE', model, code: validation.code });
      return this.finish('PARSER_UNAVAILABLE');
    }
    const newErrors = this.errorsOf(validation) ?? [];
    const valid = verdict.kind === 'valid';
    const status: ValidationStatus = valid ? '' : 'INVALID_UNRESOLVED';
    this.recordEvent({ attempt: 2, verdict: valid ? 'valid' : 'invalid', errors: newErrors, final: true, status, model, code: validation.code, stopReason: valid ? 'valid' : 'budget-exhausted' });
    return this.finish(status);
  }
}

/** Runs one request through the graph. Never throws for expected failures: they come back in `result.error`. */
export function runPipeline(deps: PipelineDeps, request: PipelineRequest, options: RunOptions = {}): Promise<PipelineResult> {
  return new Run(deps, request, options).run().then(withFirstAttempt);
}
