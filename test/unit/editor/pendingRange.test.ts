import assert from 'node:assert/strict';
import fc from 'fast-check';
// internal-import: how a pending change's range follows edits, tested without VS Code
import { PendingRange } from '../../../src/editor/generate/pendingRange';

describe('editor: a pending generated change follows the edits of its document', () => {
  it('moves with edits before it, stays for edits after it, resizes for edits inside it', () => {
    const range = new PendingRange(10, 20);
    assert.ok(range.follow({ offset: 0, length: 0, newLength: 5 }));
    assert.deepEqual([range.start, range.end], [15, 25]);
    assert.ok(range.follow({ offset: 30, length: 3, newLength: 0 }));
    assert.deepEqual([range.start, range.end], [15, 25]);
    assert.ok(
      range.follow({ offset: 15, length: 10, newLength: 4 }),
      'the whole range replaced (a regenerate of its lines)',
    );
    assert.deepEqual([range.start, range.end], [15, 19]);
    assert.ok(range.follow({ offset: 15, length: 0, newLength: 2 }), 'typing at its start goes before it');
    assert.deepEqual([range.start, range.end], [17, 21]);
    assert.ok(range.follow({ offset: 21, length: 0, newLength: 2 }), 'typing at its end goes after it');
    assert.deepEqual([range.start, range.end], [17, 21]);
  });

  it('ends when an edit crosses its boundary', () => {
    assert.equal(new PendingRange(10, 20).follow({ offset: 5, length: 10, newLength: 0 }), false);
    assert.equal(new PendingRange(10, 20).follow({ offset: 15, length: 10, newLength: 1 }), false);
  });

  it('keeps covering the same text under random edits that do not cross it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(60), fc.nat(5), fc.string({ maxLength: 6 })), { maxLength: 20 }),
        (edits) => {
          let text = `${'a'.repeat(20)}PENDING${'b'.repeat(20)}`;
          const range = new PendingRange(20, 27);
          for (const [at, len, insert] of edits) {
            const offset = Math.min(at, text.length);
            const length = Math.min(len, text.length - offset);
            const crosses =
              (offset < range.start && offset + length > range.start) ||
              (offset < range.end && offset + length > range.end);
            if (crosses) continue;
            const inside =
              offset >= range.start &&
              offset + length <= range.end &&
              !(length === 0 && (offset === range.start || offset === range.end));
            if (inside) continue;
            text = text.slice(0, offset) + insert.replace(/[A-Z]/g, 'x') + text.slice(offset + length);
            assert.ok(range.follow({ offset, length, newLength: insert.length }));
            assert.equal(text.slice(range.start, range.end), 'PENDING');
          }
        },
      ),
      { numRuns: 300, seed: 13 },
    );
  });
});
