/**
 * The block stack answers its per-line questions by scanning while it is
 * shallow and from indexes once it is deep (so deep nesting stays linear): both must give the
 * scan's answers. Random pushes and pops, across the depth where the indexes
 * are built and dropped, against a plain scan of the same stack.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BlockStack, type Block, type BlockKind } from '../../../src/parser/blocks';
import { Reporter } from '../../../src/parser/reporter';

const KINDS: BlockKind[] = ['if', 'loop', 'try', 'async', 'function', 'brace'];

function scanFind(blocks: readonly Block[], kind: BlockKind): number {
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i] as Block;
    if (b.kind === kind) return i;
    if (b.kind === 'function') return -1;
  }
  return -1;
}

function scanOutermostLoop(blocks: readonly Block[]): Block | undefined {
  let found: Block | undefined;
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i] as Block;
    if (b.kind === 'function') break;
    if (b.kind === 'loop') found = b;
  }
  return found;
}

describe('parser: the block stack, shallow and deep', () => {
  it('answers find, the enclosing function, the outermost loop and "is open" as a scan does', () => {
    const op = fc.oneof(
      { arbitrary: fc.constantFrom(...KINDS).map((kind) => ({ push: kind })), weight: 3 },
      { arbitrary: fc.constant({ pop: true }), weight: 2 },
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 400 }), (ops) => {
        const stack = new BlockStack(new Reporter(1000));
        const model: Block[] = [];
        const seen: Block[] = [];
        let line = 0;
        for (const o of ops) {
          if ('push' in o) {
            const block: Block = { kind: o.push, line: ++line, column: 1, endColumn: 2, token: o.push };
            stack.push(block);
            model.push(block);
            seen.push(block);
          } else {
            assert.equal(stack.pop(), model.pop());
          }
          assert.equal(stack.depth, model.length);
          for (const kind of KINDS) assert.equal(stack.find(kind), scanFind(model, kind), `find ${kind}`);
          assert.equal(stack.outermostLoop, scanOutermostLoop(model));
          assert.equal(
            stack.insideFunction,
            model.some((b) => b.kind === 'function'),
          );
          assert.equal(stack.currentFunction, model[scanFind(model, 'function')] ?? undefined);
          assert.equal(
            stack.insideAvapBlock,
            model.some((b) => b.kind !== 'brace'),
          );
          for (const b of seen.slice(-30)) assert.equal(stack.includes(b), model.includes(b));
        }
      }),
      { numRuns: 200, seed: 24 },
    );
  });
});
