import assert from 'node:assert/strict';
// internal-import: expression evaluation, tested below execute
import { compile, type Env } from '../../../src/runtime/expressions/evaluate';
// internal-import: expression parsing, tested below execute
import { parseExpression } from '../../../src/runtime/expressions/parse';
// internal-import: the runtime's failure type, which the value tests expect thrown
import { RunFailure } from '../../../src/runtime/failure';
// internal-import: the Python-compatible text forms, tested value by value
import { pyRepr } from '../../../src/runtime/pytext';
// internal-import: the runtime's values, tested below execute
import { fromPlain, type Value } from '../../../src/runtime/values';
import { run } from './fakes';

function env(vars: Record<string, unknown> = {}): Env {
  const m = new Map<string, Value>(Object.entries(vars).map(([k, v]) => [k, fromPlain(v)]));
  return { read: (n) => m.get(n), readGlobal: (n) => m.get(n), template: (raw) => `<${raw}>` };
}

/** Evaluates and writes the result as Python's repr(). */
function ev(text: string, vars: Record<string, unknown> = {}): string {
  return pyRepr(compile(parseExpression(text), new Set())(env(vars)));
}

function failure(fn: () => unknown): RunFailure {
  try {
    fn();
  } catch (e) {
    if (e instanceof RunFailure) return e;
    throw e;
  }
  assert.fail('expected a failure');
}

describe('runtime expressions', () => {
  it('evaluate the documented subset with Python results', () => {
    const cases: [string, string, Record<string, unknown>?][] = [
      ['1 + 2 * 3', '7'],
      ['(1 + 2) * 3', '9'],
      ['7 / 2', '3.5'],
      ['-7 % 3', '2'],
      ['2 ** 3 ** 2', '512'],
      ['-2 ** 2', '-4'],
      ['"T-" + str(i)', "'T-3'", { i: 3 }],
      ["'a' 'b'", "'ab'"],
      ['"tab\\there"', "'tab\\there'"],
      ['int("42") + float("0.5")', '42.5'],
      ['int(3.9)', '3'],
      ['int(" -7 ")', '-7'],
      ['float("1e3")', '1000.0'],
      ['len([1, 2, 3])', '3'],
      ['len("ñandú")', '5'],
      ['str(None) + str(True) + str(1.0)', "'NoneTrue1.0'"],
      ['[1, "a", None, True, False]', "[1, 'a', None, True, False]"],
      ['{"k": [1, 2], 3: "x"}', "{'k': [1, 2], 3: 'x'}"],
      ['(1, 2)', '(1, 2)'],
      ['items[0] + items[-1]', '40', { items: [10, 20, 30] }],
      ['items[1:]', '[20, 30]', { items: [10, 20, 30] }],
      ['"hello"[1:3]', "'el'"],
      ['d["k"]', "'v'", { d: { k: 'v' } }],
      ['1 < x < 10', 'True', { x: 5 }],
      ['1 < x < 3', 'False', { x: 5 }],
      ['x == 5.0', 'True', { x: 5 }],
      ['"b" in "abc"', 'True'],
      ['4 not in [1, 2]', 'True'],
      ['x is None', 'True', { x: null }],
      ['x is not None', 'False', { x: null }],
      ['a and b', "''", { a: 'x', b: '' }],
      ['a or b', "'x'", { a: 'x', b: '' }],
      ['not a', 'False', { a: 1 }],
      ['"big" if n > 3 else "small"', "'big'", { n: 5 }],
      ['0x1F + 0o10 + 0b11', '42'],
      ['1_000 + .5', '1000.5'],
      ['`user_${id}`', "'<user_${id}>'"],
      ['$price * 2', '20', { price: 10 }],
      ['"%s-%d" % ("a", 7)', "'a-7'"],
    ];
    for (const [text, expected, vars] of cases) assert.equal(ev(text, vars), expected, text);
  });

  it('fail with the Python error the reference would raise', () => {
    const cases: [string, string][] = [
      ['missing + 1', 'NameError'],
      ['"a" + 1', 'TypeError'],
      ['10 / 0', 'ZeroDivisionError'],
      ['[1][3]', 'IndexError'],
      ['{"a": 1}["b"]', 'KeyError'],
      ['d.name', 'AttributeError'],
      ['int("abc")', 'ValueError'],
      ['max(1, 2)', 'NameError'],
      ['len(5)', 'TypeError'],
    ];
    for (const [text, type] of cases) {
      const e = failure(() => ev(text, { d: { name: 'x' } }));
      assert.equal(e.pyType, type, text);
    }
  });

  it('reject what Python rejects as a SyntaxError (the reference then keeps the text)', () => {
    for (const text of ['007', '1 +', 'a b', 'x = 1', '(1, 2', '"open', '#x', 'true ==', 'if x']) {
      const e = failure(() => parseExpression(text));
      assert.equal(e.pyType, 'SyntaxError', text);
    }
  });

  it('refuse Python this runtime does not evaluate, rather than turning it into text', () => {
    for (const text of [
      '[x for x in items]',
      'lambda x: x',
      'f"{a}"',
      'b"bytes"',
      'a | b',
      'a // b',
      'int(x, base=2)',
      '{1, 2}',
      'items[::2]',
      '"""doc"""',
      '1j',
    ]) {
      const e = failure(() => parseExpression(text));
      assert.equal(e.code, 'not-supported', text);
      assert.equal(e.pyType, undefined, text);
    }
  });

  it('in an assignment, a failing expression stores its text (the reference does that)', async () => {
    const r = await run(['a = 10 / 0', 'b = missing + 1', 'c = missing', 'd = true']);
    assert.deepEqual(r.variables, { a: '10 / 0', b: 'missing + 1', c: 'missing', d: 'true' });
  });

  it('in an assignment, an expression the runtime does not evaluate is an error, not text', async () => {
    const r = await run(['a = [x for x in items]', 'addResult(a)']);
    assert.equal(r.error?.code, 'not-supported');
    assert.equal(r.error?.line, 1);
  });

  it('calling a function of the program inside an expression is refused', async () => {
    const r = await run(['function f(a) {', '  return a', '}', 'x = f(1) + 1']);
    assert.equal(r.error?.code, 'not-supported');
    assert.match(r.error?.message ?? '', /calling the function 'f' inside an expression/);
  });

  it('nest deeply without overflowing the stack', () => {
    const deep = `${'('.repeat(150)}1${')'.repeat(150)}`;
    assert.equal(failure(() => parseExpression(deep)).code, 'not-supported');
    assert.equal(ev(`${'('.repeat(50)}1${')'.repeat(50)}`), '1');
  });
});
