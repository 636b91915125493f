/**
 * Reading the cases of a test file and the request of a request file from their text, into what the sandbox
 * runs: the checks are the sandbox's own (`caseFromData` in src/runtime/host/cases.ts, the rules `avap test`
 * applies). A case may name a fixtures file or a `.sql` file instead of holding them; those are read through the
 * caller's `read` (paths relative to the file that names them), so this module reaches no file system itself.
 */
import { fail, ok, type Failure, type Result } from '../result';
import { caseFromData, type BadCase, type TestCase } from '../runtime/host';

/** Reads a file named by a case, relative to the file the case is in. */
export type ReadBeside = (relative: string) => Promise<Result<string, Failure>>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A `sql` value that names a file rather than holding SQL. */
const SQL_FILE = /^[^\s;]+\.sql$/i;

/** One case from parsed JSON, with the fixtures and SQL files it names read and inlined, then checked. */
export async function loadCase(raw: unknown, where: string, read: ReadBeside): Promise<Result<TestCase, BadCase>> {
  if (!isRecord(raw)) return caseFromData(raw, where);
  // The name, request and expectations are checked before any file the case names is read.
  const head = caseFromData({ name: raw.name, request: raw.request, expect: raw.expect }, where);
  if (!head.ok) return head;
  const inline: Record<string, unknown> = { ...raw };
  if (typeof raw.fixtures === 'string') {
    const text = await read(raw.fixtures);
    if (!text.ok) return fail('bad-test-file', `${where}.fixtures: cannot read ${raw.fixtures}: ${text.error.message}`);
    try {
      inline.fixtures = JSON.parse(text.value) as unknown;
    } catch (e) {
      return fail('bad-test-file', `${where}.fixtures: ${raw.fixtures} is not JSON (${(e as Error).message})`);
    }
  }
  if (typeof raw.sql === 'string' && SQL_FILE.test(raw.sql.trim())) {
    const text = await read(raw.sql.trim());
    if (!text.ok) return fail('bad-test-file', `${where}.sql: cannot read ${raw.sql}: ${text.error.message}`);
    inline.sql = text.value;
  }
  // An empty seed is no seed (the request file's template has one to fill in).
  if (typeof inline.sql === 'string' && inline.sql.trim() === '') delete inline.sql;
  return caseFromData(inline, where);
}

/** Every case of a test file's text, checked; the error names the case and the field. */
export async function loadTestCases(text: string, read: ReadBeside): Promise<Result<TestCase[], BadCase>> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return fail('bad-test-file', `not JSON: ${(e as Error).message}`);
  }
  if (!isRecord(data) || !Array.isArray(data.cases) || data.cases.length === 0)
    return fail('bad-test-file', 'expected {"cases": [{name, request, expect}, …]} with at least one case');
  const cases: TestCase[] = [];
  for (const [i, raw] of data.cases.entries()) {
    const one = await loadCase(raw, `cases[${i}]`, read);
    if (!one.ok) return one;
    cases.push(one.value);
  }
  return ok(cases);
}
