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
import { caseFromData, type BadCase, type TestCase } from '../../runtime/host';
import { besides } from './options';

export { caseFailures, /** @internal */ subsetMismatch } from '../../runtime/host';

export const TEST_SUFFIX = '.avap.test.json';

export interface TestFile {
  /** The .avap.test.json file. */
  file: string;
  /** The program it tests: the .avap file beside it. */
  program: string;
  cases: TestCase[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One case: a fixtures file or a .sql file it names (relative to the test file) is read, then the case is checked. */
async function caseOf(raw: unknown, index: number, file: string): Promise<Result<TestCase, BadCase>> {
  const where = `cases[${index}]`;
  if (!isRecord(raw)) return caseFromData(raw, where);
  // The case's name, request and expectations are checked before any file it names is read.
  const head = caseFromData({ name: raw.name, request: raw.request, expect: raw.expect }, where);
  if (!head.ok) return head;
  const inline: Record<string, unknown> = { ...raw };
  if (typeof raw.fixtures === 'string') {
    try {
      inline.fixtures = JSON.parse(await readFile(besides(file, raw.fixtures), 'utf8'));
    } catch (e) {
      return fail('bad-test-file', `${where}.fixtures: cannot read ${raw.fixtures}: ${(e as Error).message}`);
    }
  }
  if (typeof raw.sql === 'string' && /^[^\s;]+\.sql$/i.test(raw.sql.trim())) {
    try {
      inline.sql = await readFile(besides(file, raw.sql.trim()), 'utf8');
    } catch (e) {
      return fail('bad-test-file', `${where}.sql: cannot read ${raw.sql}: ${(e as Error).message}`);
    }
  }
  return caseFromData(inline, where);
}

/** Reads and checks one test file; the error names the case and the field. */
export async function loadTestFile(file: string): Promise<Result<TestFile, BadCase>> {
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
