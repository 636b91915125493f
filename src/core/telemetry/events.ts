/**
 * The telemetry event: one JSON line per generation attempt, append-only.
 * Telemetry observes and never influences generation: a sink failure is
 * swallowed (and logged once), never returned to the pipeline.
 */
import type { QueryType, ValidationStatus } from '../types';
import type { ErrorCode } from '../validation/errors';

export const TELEMETRY_SCHEMA_VERSION = 1;

/** What the parser said about this attempt's code. */
export type AttemptVerdict = 'valid' | 'invalid' | 'unavailable' | 'skipped';

export interface TelemetryErrorRecord {
  code: ErrorCode;
  /** The parser rule's code (e.g. `unknown-command`) of a parser finding; absent in logs written before rule codes. */
  rule?: string;
  field: string;
  line?: number;
  /** What would have been right (the parser's suggestion, or a description). */
  expected: string;
  /** The rejected value (e.g. the hallucinated command name). */
  received: string;
  severity: 'error' | 'warning';
}

export interface AttemptEvent {
  schema_version: number;
  generation_id: string;
  /** ISO 8601. */
  timestamp: string;
  attempt: number;
  max_attempts: number;
  query_type: QueryType;
  verdict: AttemptVerdict;
  errors: TelemetryErrorRecord[];
  /** Set on the last attempt of a generation: true when its code is valid, false otherwise; null on earlier attempts. */
  converged: boolean | null;
  /**
   * The run's status, on its final event only. Earlier attempts carry their
   * own `verdict` and no status; a run that failed or was cancelled before a
   * verdict has none either (`error_code` says why): it claims nothing.
   */
  validation_status?: ValidationStatus;
  /** True on the generation's last attempt. */
  final: boolean;
  model: string;
  temperature: number;
  seed: number;
  parser_version: string;
  /** Milliseconds per node that ran for this attempt (classify, reformulate, retrieve, relevance, generate_code, validate_code, …). */
  latencies_ms: Record<string, number>;
  /** AVAP commands the attempt's code calls (for the normalized per-command rate). */
  commands: string[];
  retrieval_mode?: string;
  relevance_retry?: boolean;
  /** Why the run stopped retrying, on the last attempt. */
  stop_reason?: string;
  /** Set when the generation failed (LLM unreachable, cancelled …). */
  error_code?: string;
  /** Set when this attempt's answer is the previous one repaired by the parser's proven fixes (no model call). */
  repaired_by?: 'parser-fixes';
  /** Set when this attempt's stream was stopped early on a hard error: the answer line and the parser rule. */
  early_abort?: { line: number; rule: string };
}

/** Receives events; implementations must not throw into the pipeline. */
export interface TelemetrySink {
  record(event: AttemptEvent): void;
  /** Resolves when everything recorded so far is on disk. */
  flush(): Promise<void>;
}

export const nullTelemetry: TelemetrySink = { record: () => undefined, flush: () => Promise.resolve() };

/** Keeps events in memory (tests, and the REST server's recent-events view). */
export function memoryTelemetry(): TelemetrySink & { events: AttemptEvent[] } {
  const events: AttemptEvent[] = [];
  return {
    events,
    record: (e) => {
      events.push(e);
    },
    flush: () => Promise.resolve(),
  };
}

/** Names called like commands in AVAP code: `name(`, excluding block words. Pure. */
export function calledNames(code: string): string[] {
  const names = new Set<string>();
  const stripped = code
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  for (const match of stripped.matchAll(/(?<![\w.$])([A-Za-z_][\w]*)\s*\(/g)) {
    if (match[1] && match[1] !== 'function') names.add(match[1]);
  }
  return [...names];
}
