/**
 * Values in the code (Quokka's idea): a short text at the end of each line that assigned, the whole value for the
 * hover, from a real run's step trace.
 */
import assert from 'node:assert/strict';
import { fullValue, lineValues, shortValue } from '../../../src/runs';
import { AGE_CHECK, get, traced } from './support';

describe('runs: values, shortened and in the code', () => {
  it('writes values as compact JSON with plain keys, cut to the width with …', () => {
    assert.equal(shortValue('adult'), '"adult"');
    assert.equal(shortValue(42), '42');
    assert.equal(shortValue(null), 'null');
    assert.equal(shortValue(true), 'true');
    assert.equal(shortValue({ id: 7, 'full name': 'Ana', tags: ['a'] }), '{id: 7, "full name": "Ana", tags: ["a"]}');
    assert.equal(shortValue([1, 2, 3]), '[1, 2, 3]');
    const long = shortValue('x'.repeat(500), 20);
    assert.equal(long.length, 20);
    assert.ok(long.endsWith('…'));
    assert.ok(shortValue({ a: 'y'.repeat(100), b: 2 }, 30).length <= 30);
  });

  it('does not walk a huge value to shorten it', () => {
    const huge = Array.from({ length: 200_000 }, (_, i) => ({ i, label: `item ${i}` }));
    const text = shortValue(huge, 40);
    assert.ok(text.length <= 40, text);
    assert.ok(text.startsWith('[{i: 0, label: "item 0"}'), text);
  });

  it('shows the whole value indented, cut after a bound that it states', () => {
    assert.equal(fullValue({ a: [1, 2] }), '{\n  "a": [\n    1,\n    2\n  ]\n}');
    const cut = fullValue('z'.repeat(100), 10);
    assert.match(cut, /^"zzzzzzzzz\n… \(92 more characters\)$/);
  });

  it('gives each line that assigned its values, from a real run: the branch taken, not the other', async () => {
    const run = await traced(AGE_CHECK, get({ age: '30' }));
    const values = lineValues(run.steps ?? []);
    assert.deepEqual(
      values.map((v) => [v.line, v.text, v.times]),
      [
        [2, 'years = 30', 1],
        [4, 'verdict = "adult"', 1],
      ],
    );
    assert.match(values[1]?.detail ?? '', /^Line 4 assigned:\n\nverdict = "adult"$/);
  });

  it("a loop's lines show their last pass and how many times they assigned", async () => {
    const run = await traced(
      ['startLoop(i, 1, 10)', '  variableToList(i, numbers)', 'endLoop()', 'getListLen(numbers, total)'].join('\n'),
    );
    const values = lineValues(run.steps ?? []);
    assert.deepEqual(
      values.map((v) => [v.line, v.text]),
      [
        [1, 'i = 10  ×10'],
        [2, 'numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]  ×10'],
        [4, 'total = 10'],
      ],
    );
    assert.match(values[1]?.detail ?? '', /assigned 10 times; the last time:/);
  });

  it('several values on a line share its room; a bounded trace says its values are from the first steps', async () => {
    const run = await traced('try()\n  nope()\nexception(e)\nend()\n');
    const values = lineValues(run.steps ?? [], { maxText: 40 });
    const line = values.find((v) => v.line === 3);
    assert.ok(line);
    assert.deepEqual(Object.keys(line.values), ['__last_error__', 'e']);
    assert.ok(line.text.length <= 40, line.text);
    const bounded = await traced('startLoop(i, 1, 100)\n  addVar(x, i)\nendLoop()\n', get(), 7);
    const partial = lineValues(bounded.steps ?? [], { omitted: bounded.stepsOmitted ?? 0 });
    assert.equal(partial.find((v) => v.line === 2)?.text, 'x = 3  ×3');
    assert.match(partial[0]?.detail ?? '', /first 7 steps of 201/);
  });
});
