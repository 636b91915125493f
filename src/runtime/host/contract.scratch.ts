/**
 * SCRATCH: the runtime's port interfaces and entry point as agreed with the interpreter's branch, copied here until
 * that branch's src/runtime/index.ts is merged. Delete this file then and import from '..' instead.
 */
import type { Failure, Result } from '../../result';

export interface RunRequest {
  method: string;
  path?: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body: unknown;
  variables?: Record<string, unknown>;
}
export interface HttpCall {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}
export type HttpFailureKind = 'not-recorded' | 'not-allowed' | 'network' | 'timeout';
export interface HttpPort {
  fetch(call: HttpCall, signal: AbortSignal): Promise<Result<HttpAnswer, Failure<HttpFailureKind>>>;
}
export interface DbAnswer {
  command: string;
  rows: Record<string, unknown>[];
  affected: number;
}
export type DbFailureKind = 'sql-error' | 'unavailable';
export interface DatabasePort {
  query(
    sql: string,
    params: readonly unknown[],
    signal: AbortSignal,
  ): Promise<Result<DbAnswer, Failure<DbFailureKind> & { code?: string }>>;
}
export interface ClockPort {
  now(): number;
}
export interface RandomPort {
  next(): number;
}
export interface RuntimePorts {
  http: HttpPort;
  db: DatabasePort;
  clock: ClockPort;
  random: RandomPort;
}
export interface RunLimits {
  maxSteps: number;
  signal?: AbortSignal;
  trace?: boolean;
}
export interface RunError {
  line: number;
  command: string;
  message: string;
  code: string;
}
export interface PortabilityNote {
  line: number;
  rule: string;
  spec: string;
  reference: string;
}
export interface StepRecord {
  line: number;
  command: string;
  changes: Record<string, unknown>;
}
export interface RunResult {
  status: number;
  result: Record<string, unknown>;
  variables: Record<string, unknown>;
  logs: unknown[];
  error?: RunError;
  portability: PortabilityNote[];
  steps?: StepRecord[];
}

/** SCRATCH stand-in for the interpreter's entry point, only so the pool can be exercised before it lands. */
export function execute(
  source: string,
  _request: RunRequest,
  ports: RuntimePorts,
  limits: RunLimits,
): Promise<RunResult> {
  const base = { status: 200, result: {} as Record<string, unknown>, variables: {}, logs: [], portability: [] };
  if (source.startsWith('loop')) for (;;);
  if (source.startsWith('steps')) {
    let n = 0;
    for (;;)
      if (++n > limits.maxSteps)
        return Promise.resolve({
          ...base,
          status: 500,
          error: { line: 1, command: 'startLoop', message: 'step budget', code: 'step-budget' },
        });
  }
  if (source.startsWith('alloc')) {
    const keep: string[][] = [];
    for (;;) keep.push(new Array(1e6).fill('x'));
  }
  if (source.startsWith('sql ')) {
    return ports.db
      .query(source.slice(4), [], limits.signal ?? new AbortController().signal)
      .then((r) => ({ ...base, result: { r } }));
  }
  if (source.startsWith('http ')) {
    return ports.http
      .fetch({ method: 'GET', url: source.slice(5), headers: {}, timeoutMs: 2000 }, new AbortController().signal)
      .then((r) => ({ ...base, result: { r } }));
  }
  return Promise.resolve({ ...base, result: { now: ports.clock.now(), random: ports.random.next(), source } });
}
