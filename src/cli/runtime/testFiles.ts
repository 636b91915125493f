/**
 * Tests as data: `NAME.avap.test.json` beside `NAME.avap` holds
 * `{cases: [{name, request, fixtures?, sql?, now?, seed?, expect: {status?, result?, error?}}]}`.
 *
 * - `request`: `{method?, query?, headers?, body?}` (method GET by default, POST when there is a body).
 * - `fixtures`: a list of recorded responses, or the path of a fixtures file (relative to the test file).
 * - `sql`: SQL text, or the path of a `.sql` file (relative to the test file).
 * - `expect.result` is compared as a deep subset (every key it names, recursively; lists item by item, same
 *   length); `expect.status` exactly; `expect.error` is `true`/`false` (whether the run ends in an uncaught
 *   error), an error code, or a subset of `{line, command, message, code}`.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fail, ok, type Failure, type Result } from '../../result';
import { checkFixtures, parseNow, type HttpFixture } from '../../runtime/host';
import type { RunRequest, RunResult } from '../../runtime/host';
import { besides } from './options';

export const TEST_SUFFIX = '.avap.test.json';

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

export interface TestFile {
  /** The .avap.test.json file. */
  file: string;
  /** The program it tests: the .avap file beside it. */
  program: string;
  cases: TestCase[];
}

type Bad = Failure<'bad-test-file'>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function requestOf(raw: unknown, where: string): Result<RunRequest, Bad> {
  if (raw === undefined) return ok({ method: 'GET', query: {}, headers: {}, body: null });
  if (!isRecord(raw))
    return fail('bad-test-file', `${where}.request must be an object {method?, query?, headers?, body?}`);
  const query: Record<string, string | string[]> = {};
  if (raw.query !== undefined) {
    if (!isRecord(raw.query)) return fail('bad-test-file', `${where}.request.query must be an object`);
    for (const [k, v] of Object.entries(raw.query)) {
      if (Array.isArray(v)) query[k] = v.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
      else query[k] = typeof v === 'string' ? v : JSON.stringify(v);
    }
  }
  const headers: Record<string, string> = {};
  if (raw.headers !== undefined) {
    if (!isRecord(raw.headers)) return fail('bad-test-file', `${where}.request.headers must be an object`);
    for (const [k, v] of Object.entries(raw.headers))
      headers[k.toLowerCase()] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  const body = raw.body ?? null;
  const method = typeof raw.method === 'string' ? raw.method.toUpperCase() : body === null ? 'GET' : 'POST';
  return ok({ method, query, headers, body });
}

async function caseOf(raw: unknown, index: number, file: string): Promise<Result<TestCase, Bad>> {
  const where = `cases[${index}]`;
  if (!isRecord(raw)) return fail('bad-test-file', `${where} must be an object {name, request, expect}`);
  if (typeof raw.name !== 'string' || raw.name.trim() === '')
    return fail('bad-test-file', `${where}.name must be a non-empty string`);
  const request = requestOf(raw.request, where);
  if (!request.ok) return request;
  if (!isRecord(raw.expect))
    return fail('bad-test-file', `${where}.expect must be an object {status?, result?, error?}`);
  const expect = raw.expect as TestExpect;
  if (expect.status !== undefined && typeof expect.status !== 'number')
    return fail('bad-test-file', `${where}.expect.status must be a number`);
  const out: TestCase = { name: raw.name, request: request.value, expect };
  if (raw.fixtures !== undefined) {
    let data: unknown = raw.fixtures;
    if (typeof raw.fixtures === 'string') {
      try {
        data = JSON.parse(await readFile(besides(file, raw.fixtures), 'utf8'));
      } catch (e) {
        return fail('bad-test-file', `${where}.fixtures: cannot read ${raw.fixtures}: ${(e as Error).message}`);
      }
    }
    const fixtures = checkFixtures(data);
    if (!fixtures.ok) return fail('bad-test-file', `${where}.fixtures: ${fixtures.error.message}`);
    out.fixtures = fixtures.value;
  }
  if (raw.sql !== undefined) {
    if (typeof raw.sql !== 'string') return fail('bad-test-file', `${where}.sql must be SQL text or a .sql file`);
    if (/^[^\s;]+\.sql$/i.test(raw.sql.trim())) {
      try {
        out.sql = await readFile(besides(file, raw.sql.trim()), 'utf8');
      } catch (e) {
        return fail('bad-test-file', `${where}.sql: cannot read ${raw.sql}: ${(e as Error).message}`);
      }
    } else out.sql = raw.sql;
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

/** Reads and checks one test file; the error names the case and the field. */
export async function loadTestFile(file: string): Promise<Result<TestFile, Bad>> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    return fail('bad-test-file', `cannot read it as JSON: ${(e as Error).message}`);
  }
  if (!isRecord(data) || !Array.isArray(data.cases) || data.cases.length === 0)
    return fail('bad-test-file', 'expected {"cases": [{name, request, expect}, …]} with at least one case');
  const cases: TestCase[] = [];
  for (const [i, raw] of data.cases.entries()) {
    const one = await caseOf(raw, i, file);
    if (!one.ok) return one;
    cases.push(one.value);
  }
  return ok({ file, program: file.slice(0, -TEST_SUFFIX.length) + '.avap', cases });
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full)));
    else if (entry.name.endsWith(TEST_SUFFIX)) out.push(full);
  }
  return out;
}

/** The test files of the given paths: directories searched, a program stands for its test file. */
export async function findTestFiles(paths: readonly string[]): Promise<Result<string[], Failure<'not-found'>>> {
  const out: string[] = [];
  for (const given of paths) {
    let info;
    try {
      info = await stat(given);
    } catch {
      return fail('not-found', `${given}: no such file or directory`);
    }
    if (info.isDirectory()) out.push(...(await walk(given)));
    else if (given.endsWith(TEST_SUFFIX)) out.push(given);
    else if (given.endsWith('.avap')) out.push(given.slice(0, -'.avap'.length) + TEST_SUFFIX);
    else return fail('not-found', `${given}: not a directory, an .avap program or a ${TEST_SUFFIX} file`);
  }
  return ok([...new Set(out)]);
}

const show = (value: unknown) => JSON.stringify(value) ?? 'undefined';

/** Where `actual` fails to contain `expected` (deep subset), or undefined when it does. */
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
      if (!(key in actual)) return `${at}.${key}: missing (got ${show(actual)})`;
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
