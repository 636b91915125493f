/**
 * Unknown names get their words (message, suggestion, proven fix) only when the trace shows them
 * (Reporter.wordsWhenShown): a capped trace must show each of its entries as an uncapped one does. Proven fixes
 * are left out of the comparison: the proof budget goes to a trace's first entries, so a shorter trace proves
 * entries a longer one had no budget left for.
 */
import assert from 'node:assert/strict';
import { validateAvap, type TraceEntry } from '../../../src/parser';
import { adversarialShapes } from '../../../bench/parser/shapes';

const at = (e: TraceEntry) => `${e.line}:${e.column}:${e.code}`;
const words = ({ fix: _fix, ...rest }: TraceEntry) => rest;

/** Each entry of the capped trace is the uncapped trace's entry at the same place, word for word. */
function assertSameWords(source: string, cap: number): boolean {
  const full = new Map(validateAvap(source, { maxTraceEntries: 100_000 }).trace.map((e) => [at(e), e]));
  const capped = validateAvap(source, { maxTraceEntries: cap });
  for (const entry of capped.trace) {
    const other = full.get(at(entry));
    assert.ok(other, at(entry));
    assert.deepEqual(words(entry), words(other), at(entry));
  }
  return capped.truncated;
}

describe('parser: words of findings left out of a capped trace', () => {
  it('a capped trace shows unknown names with the messages and suggestions of an uncapped one', () => {
    const source = [
      'function handler_one(a) {',
      '  return(a)',
      '}',
      ...Array.from({ length: 30 }, (_, i) => `r${i} = ${i % 3 === 0 ? 'handlr_one' : `made_up_${i}`}(x)`),
      'x = gethSHA256("a")',
      'addVar(a, 1)',
      'Addvar(b, 2)',
    ].join('\n');
    for (const cap of [1, 5, 12, 31]) assert.ok(assertSameWords(source, cap));
  });

  it('holds on every adversarial shape, with the trace cut inside its unknown names', () => {
    for (const shape of adversarialShapes()) {
      const source = shape.build(40);
      for (const cap of [45, 60, 90]) assertSameWords(source, cap);
    }
  });
});
