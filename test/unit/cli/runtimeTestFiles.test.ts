/** `avap test`'s data: test files read and checked, cases judged (deep-subset results, status, error forms). */
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// internal-import: the CLI has no library entry; reading and judging `avap test` files
import { caseFailures, findTestFiles, loadTestFile, subsetMismatch } from '../../../src/cli/runtime/testFiles';
import { caseFromData, type RunResult } from '../../../src/runtime/host';

const completed = (result: Record<string, unknown>, status = 200): RunResult => ({
  status,
  result,
  variables: {},
  logs: [],
  portability: [],
});
const failed: RunResult = {
  ...completed({}, 500),
  error: {
    line: 4,
    command: 'RequestGet',
    message: 'no recorded response for GET http://x/',
    code: 'http-not-recorded',
  },
};

describe('cli: avap test files', () => {
  it('a deep subset: named keys recursively, lists item by item with the same length, values strictly', () => {
    const actual = { user: { name: 'ana', roles: ['a', 'b'], age: 30 }, total: 2 };
    assert.equal(subsetMismatch({ user: { name: 'ana' } }, actual, 'result'), undefined);
    assert.equal(subsetMismatch({ user: { roles: ['a', 'b'] }, total: 2 }, actual, 'result'), undefined);
    assert.equal(subsetMismatch({ total: '2' }, actual, 'result'), 'result.total: expected "2", got 2');
    assert.equal(
      subsetMismatch({ user: { roles: ['a'] } }, actual, 'result'),
      'result.user.roles: expected 1 items, got 2 (["a","b"])',
    );
    assert.match(subsetMismatch({ missing: null }, actual, 'result') ?? '', /^result\.missing: missing/);
    assert.equal(subsetMismatch({ n: null }, { n: null }, 'result'), undefined);
  });

  it('a key named after an Object.prototype member is compared as an own key, never found on every object', () => {
    const expected = JSON.parse('{"toString": 1, "__proto__": {"a": 1}}') as unknown;
    assert.match(subsetMismatch(expected, { n: 1 }, 'result') ?? '', /^result\.toString: missing/);
    const actual = JSON.parse('{"toString": 1, "__proto__": {"a": 1, "b": 2}}') as unknown;
    assert.equal(subsetMismatch(expected, actual, 'result'), undefined);
    assert.match(subsetMismatch({ valueOf: 1 }, { toString: 1 }, 'result') ?? '', /^result\.valueOf: missing/);
    const read = caseFromData(
      JSON.parse(
        '{"name": "p", "request": {"query": {"__proto__": "7"}, "headers": {"__proto__": "h"}}, "expect": {}}',
      ),
      'case',
    );
    assert.ok(read.ok);
    assert.deepEqual(Object.entries(read.value.request.query), [['__proto__', '7']]);
    assert.deepEqual(Object.entries(read.value.request.headers), [['__proto__', 'h']]);
  });

  it('judges status, result and the forms of expect.error', () => {
    assert.deepEqual(caseFailures({ status: 200, result: { a: 1 } }, completed({ a: 1, b: 2 })), []);
    assert.deepEqual(caseFailures({ status: 201 }, completed({})), ['status: expected 201, got 200']);
    assert.deepEqual(caseFailures({ error: true }, failed), []);
    assert.deepEqual(caseFailures({ error: 'http-not-recorded' }, failed), []);
    assert.deepEqual(caseFailures({ error: { line: 4, command: 'RequestGet' } }, failed), []);
    assert.deepEqual(caseFailures({ error: { line: 3 } }, failed), ['error.line: expected 3, got 4']);
    assert.match(caseFailures({ error: false }, failed)[0] ?? '', /^expected no error, got: no recorded response/);
    assert.match(caseFailures({ error: true }, completed({}))[0] ?? '', /^expected an error, the run completed/);
    assert.match(caseFailures({}, failed)[0] ?? '', /^unexpected error/);
  });

  it('reads a test file with inline and file fixtures and SQL, defaults the request, and names a bad field', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'avap-testfile-'));
    writeFileSync(path.join(dir, 'seed.sql'), 'CREATE TABLE t (a int);');
    writeFileSync(path.join(dir, 'calls.json'), JSON.stringify([{ url: 'https://x.example/', body: 'hi' }]));
    const file = path.join(dir, 'prog.avap.test.json');
    writeFileSync(
      file,
      JSON.stringify({
        cases: [
          { name: 'plain', expect: { status: 200 } },
          {
            name: 'full',
            request: { query: { q: 'a', n: 3 }, headers: { 'X-A': 'b' }, body: { k: 1 } },
            fixtures: 'calls.json',
            sql: 'seed.sql',
            now: '2026-01-01T00:00:00Z',
            seed: 7,
            expect: { result: { a: 1 } },
          },
          { name: 'inline sql', sql: 'SELECT 1;', fixtures: [], expect: {} },
        ],
      }),
    );
    const loaded = await loadTestFile(file);
    assert.ok(loaded.ok, loaded.ok ? '' : loaded.error.message);
    const [plain, full, inline] = loaded.value.cases;
    assert.equal(loaded.value.program, path.join(dir, 'prog.avap'));
    assert.deepEqual(plain?.request, { method: 'GET', query: {}, headers: {}, body: null });
    assert.deepEqual(full?.request, {
      method: 'POST',
      query: { q: 'a', n: '3' },
      headers: { 'x-a': 'b' },
      body: { k: 1 },
    });
    assert.equal(full?.sql, 'CREATE TABLE t (a int);');
    assert.equal(full?.fixtures?.[0]?.body, 'hi');
    assert.equal(full?.nowMs, Date.parse('2026-01-01T00:00:00Z'));
    assert.equal(full?.seed, 7);
    assert.equal(inline?.sql, 'SELECT 1;');

    writeFileSync(
      file,
      JSON.stringify({
        cases: [
          { name: 'x', expect: {} },
          { name: '', expect: {} },
        ],
      }),
    );
    const bad = await loadTestFile(file);
    assert.ok(!bad.ok);
    assert.equal(bad.error.message, 'cases[1].name must be a non-empty string');
  });

  it('finds test files in directories (recursively, sorted), beside a program, or named directly', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'avap-find-'));
    mkdirSync(path.join(dir, 'sub'));
    for (const f of ['b.avap.test.json', 'a.avap.test.json', 'sub/c.avap.test.json', 'd.json', 'x.avap'])
      writeFileSync(path.join(dir, f), '{}');
    const found = await findTestFiles([dir, path.join(dir, 'x.avap')]);
    assert.ok(found.ok);
    assert.deepEqual(
      found.value.map((f) => path.relative(dir, f)),
      ['a.avap.test.json', 'b.avap.test.json', path.join('sub', 'c.avap.test.json'), 'x.avap.test.json'],
    );
    const missing = await findTestFiles([path.join(dir, 'nope')]);
    assert.ok(!missing.ok);
  });
});
