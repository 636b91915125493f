/**
 * A program analysed line by line as it streams (src/parser/stream.ts) gives,
 * for each line, exactly the findings the whole program's analysis reports
 * while reading that line — at the cost of that line only.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LineAnalysis, type TraceEntry } from '../../../src/parser';
import { Analyzer } from '../../../src/parser/analyzer';
import { Reporter } from '../../../src/parser/reporter';
import { adversarialShapes } from '../../../bench/parser/shapes';

const strip = ({ line, column, endColumn, code, message, token, suggestion }: TraceEntry) => ({
  line,
  column,
  endColumn,
  code,
  message,
  token,
  suggestion,
});

function checkLines(source: string): void {
  const reporter = new Reporter(Number.MAX_SAFE_INTEGER);
  const whole = new Analyzer(source, reporter);
  const marks: number[] = [];
  whole.marks = marks;
  whole.run();
  const lines = source.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const stream = new LineAnalysis();
  lines.forEach((text, i) => {
    const got = stream.line(text).findings.map(strip);
    const want = reporter.entries.slice(marks[i + 1], marks[i + 2] ?? marks[i + 1]).map(strip);
    assert.deepEqual(got, want, `line ${i + 1} of\n${source}`);
  });
}

const LINES = [
  'addVar(a, 1)',
  'if(a, 1, =)',
  'else()',
  'end()',
  'startLoop(i, 1, 3)',
  'endLoop()',
  'function f(x) {',
  '}',
  'return(x)',
  'r = f(a)',
  '/* open',
  'close */',
  'variableFromJSON(row, k, k)',
  'k = 1',
  'addVar(a, 1);',
  'let x = 1',
  '# note',
  'for i in range(1, 4):',
  'if (a > 1) {',
  '} else {',
  'print(a)',
  'else if(a, 2, =)',
  'x = !a == b',
  'def g(x):',
  'try {',
  '} catch (e) {',
  'getSHA256(a, h)',
  '  addVar(b, 2)',
];

describe('parser: a streamed program, line by line', () => {
  it('each line gives the findings the whole analysis reports while reading it', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LINES), { minLength: 1, maxLength: 25 }), (lines) => {
        checkLines(`${lines.join('\n')}\n`);
      }),
      { numRuns: 300, seed: 24 },
    );
    for (const shape of adversarialShapes()) checkLines(shape.build(20));
  });
});
