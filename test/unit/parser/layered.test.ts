/**
 * The tables a proof's forks share (layered.ts): a chain too deep is cut to one layer over its bottom, which must
 * read as the flat copy it replaced — same entries in the same order, same size, same look-ups.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
// internal-import: the layered tables of forked analyses, compared with plain ones
import { AppendList, layerOver } from '../../../src/parser/layered';

/** Key sets per layer; a layer may set a key of the layers below it again. */
const layers = fc.array(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), fc.nat(9))), {
  minLength: 1,
  maxLength: 8,
});

describe('parser: layered tables', () => {
  it('a map layered over a deep chain reads as a plain map set in the same order', () => {
    fc.assert(
      fc.property(layers, fc.integer({ min: 1, max: 4 }), (sets, maxDepth) => {
        const plain = new Map<string, number>();
        let map = new Map<string, number>();
        sets.forEach((set, i) => {
          if (i > 0) map = layerOver(map, maxDepth);
          for (const [key, value] of set) {
            // As an analysis enters a name: once, with its first value.
            if (map.has(key)) continue;
            map.set(key, value);
            plain.set(key, value);
          }
        });
        assert.deepEqual([...map.entries()], [...plain.entries()]);
        assert.equal(map.size, plain.size);
        for (const key of 'abcdefgh') assert.equal(map.get(key), plain.get(key));
      }),
      { numRuns: 2000 },
    );
  });

  it('a list layered over a deep chain holds the same items in the same order', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.nat(99)), { minLength: 1, maxLength: 9 }), fc.nat(4), (parts, maxDepth) => {
        let list = new AppendList<number>();
        parts.forEach((part, i) => {
          if (i > 0) list = list.layer(maxDepth);
          for (const item of part) list.push(item);
        });
        const flat = parts.flat();
        assert.deepEqual([...list], flat);
        assert.equal(list.length, flat.length);
        flat.forEach((item, i) => assert.equal(list.at(i), item));
      }),
      { numRuns: 2000 },
    );
  });
});
