import assert from 'node:assert/strict';
import fc from 'fast-check';
// internal-import: the runtime's failure type, which the value tests expect thrown
import { RunFailure } from '../../../src/runtime/failure';
// internal-import: the operators' semantics, tested value by value below execute
import {
  add,
  compare,
  contains,
  divide,
  equals,
  index,
  length,
  modulo,
  multiply,
  negate,
  power,
  slice,
  subtract,
} from '../../../src/runtime/operators';
// internal-import: the Python-compatible text forms, tested value by value
import { floatRepr, pyJsonDumps, pyRepr, pyStr, stringRepr } from '../../../src/runtime/pytext';
// internal-import: the runtime's values, tested below execute
import {
  deepCopy,
  float,
  fromPlain,
  int,
  PyFloat,
  toPlain,
  truthy,
  TUPLES,
  typeName,
  type Value,
} from '../../../src/runtime/values';

function throwsPy(fn: () => unknown, type: string, message?: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof RunFailure, String(e));
    assert.equal(e.pyType, type);
    if (message) assert.match(e.message, message);
    return true;
  });
}

describe('runtime values: text as Python writes it', () => {
  it('writes floats as repr() does', () => {
    const cases: [number, string][] = [
      [1, '1.0'],
      [1.5, '1.5'],
      [0.1, '0.1'],
      [-2.25, '-2.25'],
      [1e16, '1e+16'],
      [1e15, '1000000000000000.0'],
      [123456789.125, '123456789.125'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [1.5e-7, '1.5e-07'],
      [1e100, '1e+100'],
      [2.5e22, '2.5e+22'],
      [0, '0.0'],
      [-0, '-0.0'],
      [Infinity, 'inf'],
      [-Infinity, '-inf'],
      [NaN, 'nan'],
    ];
    for (const [n, text] of cases) assert.equal(floatRepr(n), text, String(n));
  });

  it('reads back every float it writes', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const text = floatRepr(x);
        assert.equal(Number(text), x);
      }),
    );
  });

  it('writes str() and repr() of every kind', () => {
    assert.equal(pyStr(null), 'None');
    assert.equal(pyStr(true), 'True');
    assert.equal(pyStr(false), 'False');
    assert.equal(pyStr(42), '42');
    assert.equal(pyStr(float(5)), '5.0');
    assert.equal(pyStr('text'), 'text');
    assert.equal(pyStr([1, 'a', null, float(2)]), "[1, 'a', None, 2.0]");
    assert.equal(
      pyStr(
        new Map<string, Value>([
          ['k', 'v'],
          ['n', [true]],
        ]),
      ),
      "{'k': 'v', 'n': [True]}",
    );
    const tuple: Value[] = [1, 2];
    TUPLES.add(tuple);
    assert.equal(pyRepr(tuple), '(1, 2)');
    const single: Value[] = ['x'];
    TUPLES.add(single);
    assert.equal(pyRepr(single), "('x',)");
    assert.equal(stringRepr("it's"), '"it\'s"');
    assert.equal(stringRepr('a\nb\\'), "'a\\nb\\\\'");
    assert.equal(stringRepr('ñ'), "'ñ'");
  });

  it('writes JSON as json.dumps() does (spaced separators, non-ASCII escaped)', () => {
    const v = fromPlain({ name: 'Zoë', n: 1, f: 1.5, ok: true, none: null, list: [1, 'two'] });
    assert.equal(
      pyJsonDumps(v),
      '{"name": "Zo\\u00eb", "n": 1, "f": 1.5, "ok": true, "none": null, "list": [1, "two"]}',
    );
    assert.equal(pyJsonDumps(float(2)), '2.0');
    assert.equal(pyJsonDumps('"\n'), '"\\"\\n"');
  });
});

describe('runtime values: kinds and conversions', () => {
  it('tells ints from floats and converts plain data both ways', () => {
    assert.equal(typeName(fromPlain(3)), 'int');
    assert.equal(typeName(fromPlain(3.5)), 'float');
    assert.equal(typeName(fromPlain({ a: 1 })), 'dict');
    assert.deepEqual(toPlain(fromPlain({ a: [1, 2.5, { b: null }] })), { a: [1, 2.5, { b: null }] });
    assert.equal(fromPlain(new Date(0)), '1970-01-01T00:00:00.000Z');
    assert.equal(fromPlain(12n), 12);
    assert.deepEqual(toPlain(new Map([[1, 'one']]) as never), { 1: 'one' });
  });

  it('refuses integers a JS number cannot hold exactly', () => {
    assert.throws(() => int(2 ** 60), /not supported by the runtime/);
    assert.equal(int(2 ** 53 - 1), 2 ** 53 - 1);
  });

  it('has Python truth values', () => {
    for (const v of [null, false, 0, float(0), '', [], new Map()] as Value[]) assert.equal(truthy(v), false, pyRepr(v));
    for (const v of [true, 1, float(0.1), 'x', [0], new Map([['a', 1]])] as Value[]) assert.equal(truthy(v), true);
  });

  it('copies deeply', () => {
    const inner: Value[] = [1];
    const original: Value = new Map<string, Value>([['list', inner]]);
    const copy = deepCopy(original) as Map<string, Value>;
    inner.push(2);
    assert.deepEqual(copy.get('list'), [1]);
  });
});

describe('runtime operators: Python semantics', () => {
  it('adds numbers, concatenates texts and lists, and refuses mixtures', () => {
    assert.equal(add(2, 3), 5);
    assert.ok(add(2, float(0.5)) instanceof PyFloat);
    assert.equal((add(float(0.1), float(0.2)) as PyFloat).v, 0.1 + 0.2);
    assert.equal(add('T-', '3'), 'T-3');
    assert.deepEqual(add([1], [2]), [1, 2]);
    assert.equal(add(true, 1), 2);
    throwsPy(() => add('T-', 3), 'TypeError', /can only concatenate str \(not "int"\) to str/);
    throwsPy(() => add(1, 'x'), 'TypeError', /unsupported operand type\(s\) for \+: 'int' and 'str'/);
    throwsPy(() => subtract('a', 'b'), 'TypeError');
  });

  it('divides into floats, takes the modulo with the sign of the divisor, raises powers', () => {
    assert.equal((divide(7, 2) as PyFloat).v, 3.5);
    assert.ok(divide(10, 2) instanceof PyFloat);
    throwsPy(() => divide(1, 0), 'ZeroDivisionError', /division by zero/);
    assert.equal(modulo(-7, 3), 2);
    assert.equal(modulo(7, -3), -2);
    assert.equal((modulo(float(7.5), 2) as PyFloat).v, 1.5);
    throwsPy(() => modulo(1, 0), 'ZeroDivisionError');
    assert.equal(power(2, 10), 1024);
    assert.equal((power(2, -1) as PyFloat).v, 0.5);
    assert.equal(multiply('ab', 3), 'ababab');
    assert.deepEqual(multiply([0], 2), [0, 0]);
    throwsPy(() => multiply('a', 'b'), 'TypeError', /can't multiply sequence/);
    assert.equal(negate(5), -5);
  });

  it('formats text with % as Python does', () => {
    const args: Value[] = ['ana', 7];
    TUPLES.add(args);
    assert.equal(modulo("UPDATE t SET name = '%s' WHERE id = %d", args), "UPDATE t SET name = 'ana' WHERE id = 7");
    assert.equal(modulo('%.2f%%', float(12.345)), '12.35%');
    throwsPy(() => modulo('%s %s', 'one'), 'TypeError', /not enough arguments/);
  });

  it('compares as Python: equal numbers of either kind, ordered texts, a TypeError across kinds', () => {
    assert.equal(equals(1, float(1)), true);
    assert.equal(equals(1, '1'), false);
    assert.equal(equals([1, 'a'], [1, 'a']), true);
    assert.equal(equals(new Map([['a', 1]]), new Map([['a', float(1)]])), true);
    assert.equal(compare('<', 'apple', 'banana'), true);
    assert.equal(compare('>=', [1, 2], [1]), true);
    throwsPy(() => compare('>', 'x', 10), 'TypeError', /'>' not supported between instances of 'str' and 'int'/);
  });

  it('tests membership, indexes, slices and measures', () => {
    assert.equal(contains('abc', 'b'), true);
    assert.equal(contains([1, 2], float(2)), true);
    assert.equal(contains(new Map([['k', 1]]), 'k'), true);
    throwsPy(() => contains('abc', 1), 'TypeError');
    assert.equal(index([10, 20, 30], -1), 30);
    assert.equal(index('héllo', 1), 'é');
    throwsPy(() => index([1], 5), 'IndexError', /list index out of range/);
    throwsPy(() => index(new Map(), 'k'), 'KeyError', /'k'/);
    throwsPy(() => index(5, 0), 'TypeError', /not subscriptable/);
    assert.deepEqual(slice([1, 2, 3, 4], 1, -1), [2, 3]);
    assert.equal(slice('abcdef', null, 3), 'abc');
    assert.equal(length('😀a'), 2);
    throwsPy(() => length(5), 'TypeError', /has no len\(\)/);
  });
});
