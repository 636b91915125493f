/**
 * The one place that records a run's attempts, in both forms: the result's
 * `attempts` (what each generation answered and what the parser said about
 * it) and the telemetry events (one per attempt, append-only). An attempt's
 * event is held until the run knows whether it is the last one: a retry that
 * follows supersedes it (written as an earlier attempt: its verdict, no
 * status), the end of the run writes it as final with the earned status. The
 * latencies of the nodes that ran since the last event go on the next one.
 *
 * Telemetry observes and never influences generation: a sink that throws is
 * ignored here.
 */
import type { TraceEntry } from '../../parser';
import type { AnswerValidation } from '../code/validateBlocks';
import type { RepairedBy } from '../code/repairAnswer';
import { monotonicMs } from '../ports';
import { calledNames, type AttemptEvent, type AttemptVerdict, TELEMETRY_SCHEMA_VERSION } from '../telemetry/events';
import type { AttemptRecord, EarlyAbort, PipelineResult, RetryCycle, ValidationStatus } from '../types';
import type { ValidationError } from '../validation/errors';
import type { RunFailure } from './failure';
import type { PipelineDeps } from './deps';

/** The fields of one attempt's telemetry event that the run decides. */
export interface EventFields {
  attempt: number;
  verdict: AttemptVerdict;
  errors: ValidationError[];
  model: string;
  code: string;
  stopReason?: string;
  errorCode?: string;
  repairedBy?: RepairedBy;
  earlyAbort?: EarlyAbort;
}

/** An attempt that produced no answer: its generation failed, so there is no code, no error and no verdict. */
interface NoAnswer {
  attempt: number;
  model: string;
  /** The failure's code. */
  errorCode: string;
}

function noAnswerFields({ attempt, model, errorCode }: NoAnswer): EventFields {
  return { attempt, verdict: 'skipped', errors: [], model, code: '', errorCode };
}

export class AttemptLog {
  /** Latencies of the nodes run since the last attempt event. */
  private pending: Record<string, number> = {};
  private readonly all: Record<string, number> = {};
  /** The latest attempt's event, written when the run ends (final) or a retry supersedes it (not final). */
  private held: EventFields | undefined;

  constructor(
    private readonly deps: Pick<PipelineDeps, 'config' | 'telemetry' | 'parserVersion'>,
    private readonly id: string,
    private readonly result: PipelineResult,
    private readonly cycle: RetryCycle,
  ) {}

  /** Runs one node of the graph and adds its time to the next event and to the run's latencies. */
  async timed<T>(node: string, fn: () => Promise<T>): Promise<T> {
    const start = monotonicMs();
    try {
      return await fn();
    } finally {
      const ms = monotonicMs() - start;
      this.pending[node] = (this.pending[node] ?? 0) + ms;
      this.all[node] = (this.all[node] ?? 0) + ms;
    }
  }

  /** Milliseconds per node over the whole run. */
  latencies(): Record<string, number> {
    return { ...this.all };
  }

  // ------------------------------------------------------------- the result's records

  /** An attempt's answer and the parser's verdict on its code (`repairedBy`: the answer the parser's fixes repaired). */
  answered(attempt: number, text: string, validation: AnswerValidation, repairedBy?: RepairedBy): void {
    const verdict = validation.verdict;
    const record: AttemptRecord = {
      attempt,
      code: validation.code,
      outcome: validation.outcome,
      text,
      ...(repairedBy ? { repairedBy } : {}),
    };
    if (verdict.kind === 'valid' || verdict.kind === 'invalid') record.responseTrace = verdict.responseTrace;
    if (validation.blocks.length) record.blocks = validation.blocks;
    this.result.attempts.push(record);
  }

  /** An attempt cancelled while its code was validated: kept as a record of what happened, with no verdict of its own. */
  cancelled(attempt: number, text: string, validation: AnswerValidation): void {
    this.result.attempts.push({ attempt, code: validation.code, outcome: validation.outcome, text });
  }

  /** The code given to *Regenerate with Trace*, with its trace: attempt 1 of the correction run. */
  given(code: string, trace: TraceEntry[], valid: boolean): void {
    this.result.attempts.push({
      attempt: 1,
      code,
      outcome: {
        kind: 'validated',
        result: { valid, trace, truncated: false, parserVersion: this.deps.parserVersion?.() ?? '' },
      },
    });
  }

  /** The attempt's stream was stopped early: on the result, on the attempt's record and on its event. */
  stoppedEarly(fields: EventFields, where: EarlyAbort): void {
    fields.earlyAbort = where;
    this.result.earlyAbort = { ...where, attempt: fields.attempt };
    const record = this.result.attempts[this.result.attempts.length - 1];
    if (record) record.earlyAbort = where;
  }

  // ------------------------------------------------------------- telemetry

  /** Keeps the latest attempt's event until the run knows whether it is the final one. */
  hold(fields: EventFields): void {
    this.supersede();
    this.held = fields;
  }

  /** Holds an attempt whose generation failed (a retry that could not be made), with why the run stops there. */
  holdNoAnswer(attempt: NoAnswer & { stopReason: string }): void {
    this.hold({ ...noAnswerFields(attempt), stopReason: attempt.stopReason });
  }

  /** A retry follows: the held attempt is written as an earlier attempt (its verdict, no status). */
  supersede(): void {
    if (!this.held) return;
    const { stopReason: _decidedLater, ...fields } = this.held;
    this.write(fields, false);
    this.held = undefined;
  }

  /** Why the held attempt is the last: a retry that was due was not made. */
  stopReason(reason: string): void {
    if (this.held) this.held.stopReason = reason;
  }

  /** The run ends with an answer: the held attempt is the final one, with the status the answer earned. */
  final(status: ValidationStatus): void {
    if (!this.held) return;
    this.write(this.held, true, status);
    this.held = undefined;
  }

  /** The run ends without an answer: a final `skipped` event with the error's code, after any held attempt. */
  failed(error: RunFailure, model: string, attempt: number): void {
    this.supersede();
    this.write(noAnswerFields({ attempt, model, errorCode: error.code }), true);
  }

  private write(fields: EventFields, final: boolean, status?: ValidationStatus): void {
    const { config } = this.deps;
    const result = this.result;
    const isCode = result.queryType === 'CODE_GENERATION';
    const event: AttemptEvent = {
      schema_version: TELEMETRY_SCHEMA_VERSION,
      generation_id: this.id,
      timestamp: new Date().toISOString(),
      attempt: fields.attempt,
      max_attempts: 1 + this.cycle.limit,
      query_type: result.queryType,
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
      temperature: config.ollama.temperature,
      seed: config.ollama.seed,
      parser_version: this.deps.parserVersion?.() ?? '',
      latencies_ms: Object.fromEntries(Object.entries(this.pending).map(([k, v]) => [k, Math.round(v * 1000) / 1000])),
      commands: fields.code ? calledNames(fields.code) : [],
      ...(result.retrievalMode ? { retrieval_mode: result.retrievalMode } : {}),
      ...(result.relevanceRetry ? { relevance_retry: true } : {}),
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
}
