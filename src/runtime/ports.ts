/**
 * The runtime's ports: everything a run reads from or does to the world goes
 * through one of these, so the host decides what is real (the sandbox's
 * adapters in host/) and a test decides what is fixed (in-memory fakes).
 * Every call that can fail answers with the project's Result; none throws.
 */
import type { Failure, Result } from '../result';

/** One HTTP request of RequestGet / RequestPost. `url` already carries the query string. */
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

/**
 * - `not-recorded`: no recorded answer matches (fixtures mode);
 * - `not-allowed`: the host may not be reached (not on the allow-list);
 * - `network`: the request could not be made or read;
 * - `timeout`: no answer within `timeoutMs` (or the run was cancelled).
 */
export type HttpFailureKind = 'not-recorded' | 'not-allowed' | 'network' | 'timeout';

export interface HttpPort {
  fetch(call: HttpCall, signal: AbortSignal): Promise<Result<HttpAnswer, Failure<HttpFailureKind>>>;
}

/** `command` is the SQL command tag (SELECT, INSERT, …); `rows` the rows it returned; `affected` the rows it changed. */
export interface DbAnswer {
  command: string;
  rows: Record<string, unknown>[];
  affected: number;
}

/** `sql-error`: the database refused the statement (`code` is its SQLSTATE when known); `unavailable`: no database. */
export type DbFailureKind = 'sql-error' | 'unavailable';

export interface DatabasePort {
  query(
    sql: string,
    params: readonly unknown[],
    signal: AbortSignal,
  ): Promise<Result<DbAnswer, Failure<DbFailureKind> & { code?: string }>>;
}

export interface ClockPort {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export interface RandomPort {
  /** A number uniform in [0, 1). */
  next(): number;
}

export interface RuntimePorts {
  http: HttpPort;
  db: DatabasePort;
  clock: ClockPort;
  random: RandomPort;
}
