/**
 * In-memory ports for the runtime's unit tests: a fixed clock, a seeded
 * random source, recorded HTTP answers and a scripted database. The real
 * adapters (worker sandbox, PGlite, fixtures file, allow-list) live in
 * src/runtime/host and have their own tests.
 */
import { err, fail, ok } from '../../../src/result';
import type {
  DatabasePort,
  DbAnswer,
  HttpCall,
  HttpPort,
  RunLimits,
  RunRequest,
  RunResult,
  RuntimePorts,
} from '../../../src/runtime';
import { execute } from '../../../src/runtime';

export interface Recorded {
  method: 'GET' | 'POST';
  url: string;
  status: number;
  headers?: Record<string, string>;
  body: string;
}

export class RecordedHttp implements HttpPort {
  readonly calls: HttpCall[] = [];
  constructor(
    private readonly answers: readonly Recorded[] = [],
    private readonly failures: Readonly<Record<string, 'network' | 'timeout' | 'not-allowed'>> = {},
  ) {}

  fetch(call: HttpCall, signal: AbortSignal) {
    this.calls.push(call);
    if (signal.aborted) return Promise.resolve(fail('timeout', 'cancelled'));
    const failure = this.failures[call.url];
    if (failure) return Promise.resolve(fail(failure, `${failure} for ${call.url}`));
    const a = this.answers.find((r) => r.method === call.method && r.url === call.url);
    if (!a) return Promise.resolve(fail('not-recorded', `no recorded answer for ${call.method} ${call.url}`));
    return Promise.resolve(ok({ status: a.status, headers: a.headers ?? {}, body: a.body }));
  }
}

export type DbScript = (sql: string, params: readonly unknown[]) => DbAnswer | { error: string; code?: string };

export class ScriptedDb implements DatabasePort {
  readonly queries: { sql: string; params: readonly unknown[] }[] = [];
  constructor(private readonly script: DbScript = () => ({ error: 'no database in this test' })) {}

  query(sql: string, params: readonly unknown[]) {
    this.queries.push({ sql, params });
    const a = this.script(sql, params);
    if ('error' in a) return Promise.resolve(err({ kind: 'sql-error' as const, message: a.error, code: a.code }));
    return Promise.resolve(ok(a));
  }
}

/** A linear congruential generator: the same seed, the same numbers. */
function seeded(seed: number): { next(): number } {
  let s = seed >>> 0;
  return {
    next() {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return s / 2 ** 32;
    },
  };
}

export const NOW = Date.UTC(2026, 10, 26, 22, 22, 0); // 2026-11-26T22:22:00Z

export function ports(options: { http?: HttpPort; db?: DatabasePort; now?: number; seed?: number } = {}): RuntimePorts {
  return {
    http: options.http ?? new RecordedHttp(),
    db: options.db ?? new ScriptedDb(),
    clock: { now: () => options.now ?? NOW },
    random: seeded(options.seed ?? 42),
  };
}

export function request(partial: Partial<RunRequest> = {}): RunRequest {
  return { method: 'GET', query: {}, headers: {}, body: undefined, ...partial };
}

export const LIMITS: RunLimits = { maxSteps: 100_000 };

/** Runs `source` with fake ports; lines may be given as an array. */
export function run(
  source: string | readonly string[],
  options: { request?: Partial<RunRequest>; ports?: RuntimePorts; limits?: Partial<RunLimits> } = {},
): Promise<RunResult> {
  const text = typeof source === 'string' ? source : source.join('\n');
  return execute(text, request(options.request), options.ports ?? ports(), { ...LIMITS, ...options.limits });
}
