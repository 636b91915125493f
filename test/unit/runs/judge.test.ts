/**
 * A case judged for the Testing view: pass or fail by the rules of `avap test`, expected against actual cut to
 * what the case names (a readable diff), and the program line that produced the first wrong value.
 */
import assert from 'node:assert/strict';
import type { TestCase } from '../../../src/runtime/host';
import { firstMismatch, judgeCase, projectOnto } from '../../../src/runs';
import { AGE_CHECK, get, traced } from './support';

const testCase = (expect: TestCase['expect'], query: Record<string, string> = {}): TestCase => ({
  name: 'case',
  request: get(query),
  expect,
});

describe('runs: a case judged, with its diff and its line', () => {
  it('keys named after Object.prototype members are own keys: missing when absent, kept when present', () => {
    const expected = JSON.parse('{"toString": 1, "__proto__": {"a": 1}}') as unknown;
    assert.deepEqual(firstMismatch(expected, { n: 1 }), ['toString']);
    assert.deepEqual(projectOnto(expected, { n: 1 }), {});
    const actual = JSON.parse('{"toString": 1, "__proto__": {"a": 1, "b": 2}, "n": 3}') as unknown;
    assert.equal(firstMismatch(expected, actual), undefined);
    assert.equal(JSON.stringify(projectOnto(expected, actual)), '{"toString":1,"__proto__":{"a":1}}');
  });

  it('a passing case passes; the diff sides are equal', async () => {
    const run = await traced(AGE_CHECK, get({ age: '30' }));
    const verdict = judgeCase(testCase({ status: 200, result: { verdict: 'adult' } }), run, AGE_CHECK);
    assert.equal(verdict.passed, true);
    assert.deepEqual(verdict.failures, []);
    assert.equal(verdict.expected, verdict.actual);
    assert.equal(verdict.line, undefined);
  });

  it('a wrong result value: expected against actual for the fields named, at the line that set it', async () => {
    const source = `${AGE_CHECK}addVar(extra, 1)\naddResult(extra)\n`;
    const run = await traced(source, get({ age: '17' }));
    const verdict = judgeCase(testCase({ status: 200, result: { verdict: 'adult' } }), run, source);
    assert.equal(verdict.passed, false);
    assert.deepEqual(verdict.failures, ['result.verdict: expected "adult", got "minor"']);
    assert.deepEqual(JSON.parse(verdict.expected), { status: 200, result: { verdict: 'adult' } });
    // The response also holds `extra`; the case does not ask for it, so the diff leaves it out.
    assert.deepEqual(JSON.parse(verdict.actual), { status: 200, result: { verdict: 'minor' } });
    assert.equal(verdict.line, 6, 'addVar(verdict, "minor") in the else branch');
  });

  it('a wrong status is blamed on the line that set _status', async () => {
    const source = 'addParam(password, p)\nif(p, None, ==)\n  _status = 400\nend()\naddResult(p)\n';
    const run = await traced(source);
    const verdict = judgeCase(testCase({ status: 200 }), run, source);
    assert.equal(verdict.passed, false);
    assert.equal(verdict.line, 3);
    assert.deepEqual(JSON.parse(verdict.actual), { status: 400 });
  });

  it('an uncaught error is blamed on its line and shown on the actual side', async () => {
    const source = 'addVar(a, 1)\nnope(a)\naddResult(a)\n';
    const run = await traced(source);
    const verdict = judgeCase(testCase({ result: { a: 1 } }), run, source);
    assert.equal(verdict.passed, false);
    assert.equal(verdict.line, 2);
    const expectedCode = judgeCase(testCase({ error: 'unknown-command' }), run, source);
    assert.equal(expectedCode.passed, true);
    const wrongCode = judgeCase(testCase({ error: 'type-error' }), run, source);
    assert.deepEqual(JSON.parse(wrongCode.actual), { error: 'unknown-command' });
    const anyError = judgeCase(testCase({ error: false }), run, source);
    assert.deepEqual(JSON.parse(anyError.actual), { error: true });
  });

  it('a result key never set by a statement is blamed on its addResult line', async () => {
    const source = 'addVar(a, 1)\naddResult(missing)\n';
    const run = await traced(source);
    const verdict = judgeCase(testCase({ result: { missing: 5 } }), run, source);
    assert.equal(verdict.passed, false);
    assert.equal(verdict.line, 2);
  });

  it('cuts the actual to the expected shape and finds the first mismatch path', () => {
    assert.deepEqual(projectOnto({ a: { b: 1 } }, { a: { b: 2, c: 3 }, d: 4 }), { a: { b: 2 } });
    assert.deepEqual(projectOnto([{ x: 1 }], [{ x: 1, y: 2 }, { x: 5 }]), [{ x: 1 }, { x: 5 }]);
    assert.deepEqual(projectOnto({ a: 1 }, 'text'), 'text');
    assert.deepEqual(firstMismatch({ a: { b: 1 } }, { a: { b: 2 } }), ['a', 'b']);
    assert.deepEqual(firstMismatch({ a: [1, 2] }, { a: [1, 3] }), ['a', '1']);
    assert.deepEqual(firstMismatch({ a: [1, 2] }, { a: [1] }), ['a']);
    assert.deepEqual(firstMismatch({ a: 1 }, {}), ['a']);
    assert.equal(firstMismatch({ a: 1 }, { a: 1, b: 2 }), undefined);
  });
});
