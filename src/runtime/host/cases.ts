/**
 * Run cases as data: `{name, request, fixtures?, sql?, now?, seed?, expect: {status?, result?, error?}}` — the
 * shape of `avap test`'s `NAME.avap.test.json`, of the knowledge base's example cases and of the golden set's
 * executable cases. Pure: reading a case from parsed JSON, and judging a run against its expectations. Files a
 * case may name (a fixtures file, a .sql file) are read by the caller and handed over inline.
 *
 * - `request`: `{method?, query?, headers?, body?}` (method GET by default, POST when there is a body).
 * - `expect.result` is compared as a deep subset (every key it names, recursively; lists item by item, same
 *   length); `expect.status` exactly; `expect.error` is `true`/`false` (whether the run ends in an uncaught
 *   error), an error code, or a subset of `{line, command, message, code}`.
 */
import { fail, ok, type Failure, type Result } from '../../result';
import type { RunRequest, RunResult } from '..';
import { parseNow } from './clockRandom';
import { checkFixtures, type HttpFixture } from './httpFixtures';
import type { SandboxSpec } from './protocol';

export interface TestExpect {
  status?: number;
  result?: unknown;
  error?: boolean | string | Record<string, unknown>;
}

export interface TestCase {
  name: string;
  request: RunRequest;
  fixtures?: HttpFixture[];
  sql?: string;
  nowMs?: number;
  seed?: number;
  expect: TestExpect;
}

export type BadCase = Failure<'bad-test-file'>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The request of a case (`where` names it in the error). */
function caseRequest(raw: unknown, where: string): Result<RunRequest, BadCase> {
  if (raw === undefined) return ok({ method: 'GET', query: {}, headers: {}, body: null });
  if (!isRecord(raw))
    return fail('bad-test-file', `${where}.request must be an object {method?, query?, headers?, body?}`);
  // Built with Object.fromEntries, which defines each name: a parameter named `__proto__` is kept as one.
  let query: Record<string, string | string[]> = {};
  if (raw.query !== undefined) {
    if (!isRecord(raw.query)) return fail('bad-test-file', `${where}.request.query must be an object`);
    query = Object.fromEntries(
      Object.entries(raw.query).map(([k, v]) => [
        k,
        Array.isArray(v)
          ? v.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)))
          : typeof v === 'string'
            ? v
            : JSON.stringify(v),
      ]),
    );
  }
  let headers: Record<string, string> = {};
  if (raw.headers !== undefined) {
    if (!isRecord(raw.headers)) return fail('bad-test-file', `${where}.request.headers must be an object`);
    headers = Object.fromEntries(
      Object.entries(raw.headers).map(([k, v]) => [k.toLowerCase(), typeof v === 'string' ? v : JSON.stringify(v)]),
    );
  }
  const body = raw.body ?? null;
  const method = typeof raw.method === 'string' ? raw.method.toUpperCase() : body === null ? 'GET' : 'POST';
  return ok({ method, query, headers, body });
}

/**
 * One case from parsed JSON, with its fixtures (a list) and SQL (text) inline; the error names the case
 * (`where`, e.g. `cases[2]`) and the field.
 */
export function caseFromData(raw: unknown, where: string): Result<TestCase, BadCase> {
  if (!isRecord(raw)) return fail('bad-test-file', `${where} must be an object {name, request, expect}`);
  if (typeof raw.name !== 'string' || raw.name.trim() === '')
    return fail('bad-test-file', `${where}.name must be a non-empty string`);
  const request = caseRequest(raw.request, where);
  if (!request.ok) return request;
  if (!isRecord(raw.expect))
    return fail('bad-test-file', `${where}.expect must be an object {status?, result?, error?}`);
  const expect = raw.expect as TestExpect;
  if (expect.status !== undefined && typeof expect.status !== 'number')
    return fail('bad-test-file', `${where}.expect.status must be a number`);
  const out: TestCase = { name: raw.name, request: request.value, expect };
  if (raw.fixtures !== undefined) {
    const fixtures = checkFixtures(raw.fixtures);
    if (!fixtures.ok) return fail('bad-test-file', `${where}.fixtures: ${fixtures.error.message}`);
    out.fixtures = fixtures.value;
  }
  if (raw.sql !== undefined) {
    if (typeof raw.sql !== 'string') return fail('bad-test-file', `${where}.sql must be SQL text or a .sql file`);
    out.sql = raw.sql;
  }
  if (raw.now !== undefined) {
    const now = typeof raw.now === 'string' || typeof raw.now === 'number' ? parseNow(String(raw.now)) : undefined;
    if (now === undefined) return fail('bad-test-file', `${where}.now must be an ISO 8601 date-time`);
    out.nowMs = now;
  }
  if (raw.seed !== undefined) {
    if (typeof raw.seed !== 'number' || !Number.isInteger(raw.seed) || raw.seed < 0)
      return fail('bad-test-file', `${where}.seed must be a non-negative integer`);
    out.seed = raw.seed;
  }
  return ok(out);
}

/** The sandbox a case runs in: its fixtures, its seed SQL (a fresh database), its clock and generator. */
export function caseSandbox(test: TestCase): SandboxSpec {
  return {
    ...(test.fixtures ? { fixtures: test.fixtures } : {}),
    ...(test.sql !== undefined ? { sql: test.sql } : {}),
    ...(test.nowMs !== undefined ? { nowMs: test.nowMs } : {}),
    ...(test.seed !== undefined ? { seed: test.seed } : {}),
  };
}

const show = (value: unknown) => JSON.stringify(value) ?? 'undefined';

/**
 * Where `actual` fails to contain `expected` (deep subset), or undefined when it does.
 * @internal
 */
export function subsetMismatch(expected: unknown, actual: unknown, at: string): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected a list ${show(expected)}, got ${show(actual)}`;
    if (actual.length !== expected.length)
      return `${at}: expected ${expected.length} items, got ${actual.length} (${show(actual)})`;
    for (const [i, item] of expected.entries()) {
      const miss = subsetMismatch(item, actual[i], `${at}[${i}]`);
      if (miss) return miss;
    }
    return undefined;
  }
  if (isRecord(expected)) {
    if (!isRecord(actual)) return `${at}: expected an object ${show(expected)}, got ${show(actual)}`;
    for (const [key, value] of Object.entries(expected)) {
      // Own keys only: an expected `toString` is not found on every object.
      if (!Object.hasOwn(actual, key)) return `${at}.${key}: missing (got ${show(actual)})`;
      const miss = subsetMismatch(value, actual[key], `${at}.${key}`);
      if (miss) return miss;
    }
    return undefined;
  }
  return Object.is(expected, actual) || expected === actual
    ? undefined
    : `${at}: expected ${show(expected)}, got ${show(actual)}`;
}

/** Why a run does not meet a case's expectations (empty when it does). */
export function caseFailures(expect: TestExpect, result: RunResult): string[] {
  const out: string[] = [];
  if (expect.status !== undefined && expect.status !== result.status)
    out.push(`status: expected ${expect.status}, got ${result.status}`);
  if (expect.result !== undefined) {
    const miss = subsetMismatch(expect.result, result.result, 'result');
    if (miss) out.push(miss);
  }
  const error = result.error;
  const wanted = expect.error;
  if (wanted === undefined) {
    if (error && expect.status === undefined && expect.result === undefined)
      out.push(`unexpected error: ${error.message} [${error.code}]`);
  } else if (wanted === false) {
    if (error) out.push(`expected no error, got: ${error.message} [${error.code}]`);
  } else if (!error) out.push(`expected an error${wanted === true ? '' : ` ${show(wanted)}`}, the run completed`);
  else if (typeof wanted === 'string' && error.code !== wanted)
    out.push(`error: expected code ${wanted}, got ${error.code} (${error.message})`);
  else if (isRecord(wanted)) {
    const miss = subsetMismatch(wanted, error, 'error');
    if (miss) out.push(miss);
  }
  return out;
}
