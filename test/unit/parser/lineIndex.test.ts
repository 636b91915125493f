/**
 * The fixes' line index (src/parser/fixes/text.ts) finds line starts only as far as it is asked: whatever the order
 * of the questions, its answers are those of the whole text split at LF, CRLF or a lone CR, as the analyzer splits it.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
// internal-import: the line index itself, below the fix proofs that use it
import { LineIndex } from '../../../src/parser/fixes/text';

/** Offset where each line starts, from a split of the whole text. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    if (c === 10 || c === 13) starts.push(i + 1);
  }
  return starts;
}

type Question = { kind: 'position'; offset: number } | { kind: 'offset' | 'contentEnd'; line: number; column: number };

function answer(index: LineIndex, q: Question): unknown {
  if (q.kind === 'position') return index.position(q.offset);
  if (q.kind === 'offset') return index.offset(q.line, q.column);
  return index.contentEnd(q.line);
}

/** The same questions asked of an index that found every line first. */
function reference(text: string, q: Question): unknown {
  const starts = lineStarts(text);
  const contentEnd = (line: number) => {
    const next = starts[line];
    if (next === undefined) return text.length;
    return next - (text.charCodeAt(next - 1) === 10 && text.charCodeAt(next - 2) === 13 ? 2 : 1);
  };
  if (q.kind === 'position') {
    const at = Math.max(0, Math.min(q.offset, text.length));
    let line = 0;
    while (line + 1 < starts.length && (starts[line + 1] as number) <= at) line++;
    return { line: line + 1, column: at - (starts[line] as number) + 1 };
  }
  if (q.kind === 'contentEnd') return contentEnd(q.line);
  if (q.line < 1 || q.column < 1) return undefined;
  const start = starts[q.line - 1];
  if (start === undefined) return undefined;
  const at = start + q.column - 1;
  return at <= contentEnd(q.line) ? at : undefined;
}

const text = fc
  .array(fc.constantFrom('a', 'bc', ' ', '\n', '\r', '\r\n', '\n\r', 'é'), { maxLength: 40 })
  .map((xs) => xs.join(''));
const question: fc.Arbitrary<Question> = fc.oneof(
  fc.record({ kind: fc.constant('position' as const), offset: fc.integer({ min: -2, max: 50 }) }),
  fc.record({
    kind: fc.constantFrom('offset' as const, 'contentEnd' as const),
    line: fc.integer({ min: 0, max: 25 }),
    column: fc.integer({ min: 0, max: 8 }),
  }),
);

describe('parser: the fixes’ line index', () => {
  it('answers as the whole text split into lines, whatever it is asked first', () => {
    fc.assert(
      fc.property(text, fc.array(question, { minLength: 1, maxLength: 12 }), (source, questions) => {
        const index = new LineIndex(source);
        for (const q of questions) assert.deepEqual(answer(index, q), reference(source, q), JSON.stringify(q));
        assert.equal(index.lineCount, lineStarts(source).length);
      }),
      { numRuns: 3000, seed: 30 },
    );
  });
});
