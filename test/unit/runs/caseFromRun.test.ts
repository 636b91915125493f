/**
 * AVAP: Add Test Case from Last Run — a run's request and response become a case, appended to the test file
 * without rewriting it; the added case passes against the run it came from.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ok } from '../../../src/result';
import { appendCase, caseFromRun, caseName, judgeCase, loadTestCases, outlineTestFile } from '../../../src/runs';
import { AGE_CHECK, get, traced } from './support';

const EXAMPLES = path.resolve(__dirname, '..', '..', '..', 'examples');
const noFiles = () => Promise.resolve(ok(''));

describe('runs: a test case from the last run', () => {
  it('names the case by what it sent and got, and expects the status and the whole response', async () => {
    const fields = { request: { query: { age: '30' } } };
    const run = await traced(AGE_CHECK, get({ age: '30' }));
    assert.equal(caseName(fields, run), 'GET ?age=30 → 200');
    assert.deepEqual(caseFromRun('adult', fields, run), {
      name: 'adult',
      request: { query: { age: '30' } },
      expect: { status: 200, result: { verdict: 'adult' }, error: false },
    });
    const failed = await traced('nope()\n');
    assert.equal(caseName(undefined, failed), 'GET → 500 unknown-command');
    assert.deepEqual(caseFromRun('x', undefined, failed).expect, { status: 500, error: 'unknown-command' });
  });

  it("keeps the request file's fields as written: a fixtures file stays a file name", async () => {
    const fields = { request: { method: 'POST', body: { a: 1 } }, fixtures: 'calls.json', seed: 3 };
    const run = await traced('addVar(a, 1)\naddResult(a)\n');
    const made = caseFromRun('n', fields, run);
    assert.equal(made.fixtures, 'calls.json');
    assert.equal(made.seed, 3);
    assert.equal(caseName(fields, run), 'POST → 200');
  });

  it('starts a test file when there is none', async () => {
    const run = await traced(AGE_CHECK, get({ age: '30' }));
    const added = appendCase(undefined, caseFromRun('adult', { request: { query: { age: '30' } } }, run));
    assert.ok(added.ok);
    const cases = await loadTestCases(added.value.text, noFiles);
    assert.ok(cases.ok);
    assert.equal(cases.value.length, 1);
    assert.deepEqual(added.value.at, { line: 2, character: 4 });
    assert.equal(judgeCase(cases.value[0]!, run, AGE_CHECK).passed, true, 'the new case passes against its run');
  });

  it("appends to each example's test file as it is written, leaving the rest as it was", async () => {
    const run = await traced(AGE_CHECK, get({ age: '18' }));
    for (const name of ['age-check', 'fetch-with-fallback', 'numbers-list']) {
      const text = readFileSync(path.join(EXAMPLES, `${name}.avap.test.json`), 'utf8');
      const before = outlineTestFile(text);
      assert.ok(before.ok);
      const added = appendCase(text, caseFromRun('from a run', { request: { query: { age: '18' } } }, run));
      assert.ok(added.ok, name);
      const after = outlineTestFile(added.value.text);
      assert.ok(after.ok, name);
      assert.equal(after.value.cases.length, before.value.cases.length + 1);
      const last = after.value.cases[after.value.cases.length - 1];
      assert.equal(last?.name, 'from a run');
      assert.deepEqual(last?.from, added.value.at);
      // What was there is still there, byte for byte, up to the last old case's end.
      const end = before.value.cases[before.value.cases.length - 1]?.end ?? 0;
      assert.equal(added.value.text.slice(0, end), text.slice(0, end), name);
      assert.ok((await loadTestCases(added.value.text, noFiles)).ok, name);
    }
  });

  it('gives a repeated name a number, and adds into an empty list', async () => {
    const run = await traced(AGE_CHECK, get({ age: '30' }));
    const text = '{\n  "cases": [\n    { "name": "same", "expect": {} }\n  ]\n}\n';
    const once = appendCase(text, caseFromRun('same', undefined, run));
    assert.ok(once.ok);
    assert.equal(once.value.name, 'same (2)');
    const twice = appendCase(once.value.text, caseFromRun('same', undefined, run));
    assert.ok(twice.ok);
    assert.equal(twice.value.name, 'same (3)');
    const empty = appendCase('{ "cases": [] }', caseFromRun('first', undefined, run));
    assert.ok(empty.ok);
    const outline = outlineTestFile(empty.value.text);
    assert.ok(outline.ok);
    assert.deepEqual(
      outline.value.cases.map((c) => c.name),
      ['first'],
    );
  });

  it('leaves a test file that is not JSON alone and says where it is broken', async () => {
    const run = await traced(AGE_CHECK);
    const added = appendCase('{\n  "cases": [\n', caseFromRun('x', undefined, run));
    assert.equal(added.ok, false);
    if (!added.ok) assert.match(added.error.message, /not JSON.*\(line 3\)/);
  });
});
