/**
 * The parser's cost is linear in the input on every shape. No
 * timing here (speed is measured in `npm run bench`): the tests count work
 * units — edit-distance table cells of the near-name search — at N and 4N,
 * and check that the faster search answers exactly what the full scan did.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { validateAvap } from '../../../src/parser';
import { NearNames, nearNameWork } from '../../../src/parser/nearNames';
import { closestName, MAX_COMPARED_LENGTH, suggestName } from '../../../src/parser/suggest';
import { catalogue } from '../../../src/parser';
import { adversarialShapes } from '../../../bench/parser/shapes';

const COMMAND_NAMES = catalogue.COMMANDS.map((c) => c.name);

/** Cells the near-name search computes while validating `source`. */
function cellsFor(source: string): number {
  const before = nearNameWork.cells;
  validateAvap(source);
  return nearNameWork.cells - before;
}

describe('parser: linear on adversarial shapes', () => {
  it('the near-name index answers exactly what a full scan of commands and functions answers', () => {
    // A small alphabet (with a letter whose lower case is longer) makes near names, ties and transpositions common.
    const word = fc
      .array(fc.constantFrom('a', 'b', 'c', 'A', 'B', '_', '1', 'İ', 'x'), { minLength: 1, maxLength: 12 })
      .map((cs) => cs.join(''));
    fc.assert(
      fc.property(fc.uniqueArray(word, { maxLength: 40 }), fc.array(word, { maxLength: 20 }), (functions, queries) => {
        const index = new NearNames(functions, MAX_COMPARED_LENGTH, Number.MAX_SAFE_INTEGER);
        for (const q of [...queries, ...functions.map((f) => `${f}x`), ...functions.map((f) => f.slice(1))]) {
          assert.deepEqual(suggestName(q, index), suggestName(q, functions), `query ${q} among ${functions.join(',')}`);
          assert.equal(
            suggestName(q, index).name,
            closestName(q, [...COMMAND_NAMES, ...functions]) ?? suggestName(q, []).name,
            `query ${q}`,
          );
        }
      }),
      { numRuns: 300, seed: 24 },
    );
  });

  it('the F5 shape (one-line functions, calls to invented names): 4× the input is 4× the search work, not 16×', () => {
    const shape = adversarialShapes().find((s) => s.name.startsWith('F5'));
    assert.ok(shape);
    const small = cellsFor(shape.build(100));
    const large = cellsFor(shape.build(400));
    assert.ok(small > 0, 'the search ran');
    assert.ok(large <= 4.5 * small, `cells: ${small} at N, ${large} at 4N`);
  });

  it('every adversarial shape of the bench: 4× the input is at most ~4× the search work', () => {
    for (const shape of adversarialShapes()) {
      const small = cellsFor(shape.build(100));
      const large = cellsFor(shape.build(400));
      assert.ok(large <= 4.5 * Math.max(small, 1000), `${shape.name}: cells ${small} at N, ${large} at 4N`);
    }
  });

  it('a search the input makes large is cut at a budget proportional to the input, and says nothing rather than guess', () => {
    // Thousands of functions with distinct short prefixes: every walk enters each of them.
    const names = Array.from({ length: 3000 }, (_, i) => `${(i + 1000).toString(36)}_handler`);
    const index = new NearNames(names, MAX_COMPARED_LENGTH, 50_000);
    const before = nearNameWork.cells;
    for (let i = 0; i < 100; i++) index.closest(`zz${i}_handlerx`, 3, () => true);
    assert.ok(nearNameWork.cells - before <= 50_000, 'never past the budget');
    assert.deepEqual(
      index.closest('zz99_handlerq', 3, () => true),
      [],
      'no answer once the budget is spent',
    );
  });
});
