/**
 * One run of the pipeline: its request and options, the result it builds,
 * the request's retry budget (D1 RC-08), the record of its attempts, the
 * response stream, and its two endings — an answer with its earned status, or
 * a failure that claims nothing. The route handlers and the answer loop work
 * on it; nothing else keeps state.
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_ROUTE } from '../routing/classifier';
import type { FewShotExample } from '../routing/prompts';
import type { PipelineRequest, PipelineResult, ResponseMessage, RetryCycle, ValidationStatus } from '../types';
import { newRetryCycle } from '../validation/retryCycle';
import { AttemptLog } from './attemptLog';
import type { PipelineDeps, RunOptions } from './deps';
import type { RunFailure } from './failure';

export class RunContext {
  readonly id: string;
  readonly signal: AbortSignal | undefined;
  readonly result: PipelineResult;
  /** The request's one retry cycle: claimed only through validation/retryCycle.ts. */
  readonly cycle: RetryCycle;
  readonly attemptLog: AttemptLog;
  /** The status the current answer has earned. */
  status: ValidationStatus = '';
  /** The latest attempt that was generated (a failure is recorded against it). */
  lastAttempt = 0;
  /** The run's few-shot examples, once selected (the retry reuses them). */
  fewShot: FewShotExample[] | undefined;

  constructor(
    readonly deps: PipelineDeps,
    readonly request: PipelineRequest,
    readonly options: RunOptions,
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
    this.attemptLog = new AttemptLog(deps, this.id, this.result, this.cycle);
  }

  get cancelled(): boolean {
    return Boolean(this.signal?.aborted);
  }

  /** The name the parser's messages use for the answer's code. */
  get filename(): string {
    return this.request.filename ?? 'generated.avap';
  }

  /** Runs one node of the graph, timed (the node's latency goes on the next attempt event). */
  timed<T>(node: string, fn: () => Promise<T>): Promise<T> {
    return this.attemptLog.timed(node, fn);
  }

  emit(message: ResponseMessage): void {
    try {
      this.options.onMessage?.(message);
    } catch {
      // A consumer's failure must not break the run.
    }
  }

  /** Streams an attempt's pieces as drafts: no status, no code. */
  streamTo(attempt: number): (piece: string) => void {
    return (piece) => this.emit({ text: piece, avap_code: '', is_final: false, draft: true, attempt });
  }

  /** The run ends with an answer and its earned status. */
  finish(status: ValidationStatus): PipelineResult {
    this.attemptLog.final(status);
    this.result.validationStatus = status;
    this.result.latenciesMs = this.attemptLog.latencies();
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
  fail(error: RunFailure, model: string, attempt = Math.max(1, this.lastAttempt)): PipelineResult {
    this.attemptLog.failed(error, model, attempt);
    this.result.error = error;
    this.result.text = '';
    this.result.code = '';
    delete this.result.validationStatus;
    this.result.latenciesMs = this.attemptLog.latencies();
    this.emit({ text: '', avap_code: '', is_final: true });
    return this.result;
  }
}
