/**
 * Fix proofs that re-analyse only the edited region (src/parser/fixes/resync.ts)
 * must see exactly the findings a full parse of the fixed program reports,
 * compared as a proof compares them: by rule code and line mapped onto the
 * original. Checked on random programs full of model-style slips, for every
 * candidate fix of every finding.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Analyzer } from '../../../src/parser/analyzer';
import { FixContext, materialize } from '../../../src/parser/fixes/candidates';
import { ResyncProver, resyncWork, type Finding } from '../../../src/parser/fixes/resync';
import { canonicalNew, canonicalOld, spansOf, type EditSpan } from '../../../src/parser/fixes/spans';
import { applyOrdered, LineIndex, orderedEdits, type OffsetEdit } from '../../../src/parser/fixes/text';
import { Reporter } from '../../../src/parser/reporter';
import { validateAvap } from '../../../src/parser';
import { adversarialShapes } from '../../../bench/parser/shapes';

const LIMIT = 1000;

/** Findings of the fixed program as a proof compares them: (line mapped onto the original, code), sorted. */
function keys(findings: readonly Finding[], spans: readonly EditSpan[]): string[] {
  return findings.map((f) => `${canonicalNew(f.line, spans)}|${f.code}`).sort();
}

/** The same for the whole fixed program as resync sees it: the original's findings with the region's replaced. */
function resyncKeys(
  all: readonly Finding[],
  region: { before: readonly Finding[]; after: readonly Finding[] },
  spans: readonly EditSpan[],
): string[] {
  const out = all.map((f) => `${canonicalOld(f.line, spans)}|${f.code}`);
  for (const f of region.before) {
    const at = out.indexOf(`${canonicalOld(f.line, spans)}|${f.code}`);
    assert.ok(at !== -1);
    out.splice(at, 1);
  }
  return [...out, ...region.after.map((f) => `${canonicalNew(f.line, spans)}|${f.code}`)].sort();
}

/** Every candidate of every finding of `source`: resync's findings against a full parse of the fixed text. */
function checkProgram(source: string): number {
  const reporter = new Reporter(LIMIT);
  const analyzer = new Analyzer(source, reporter);
  analyzer.run();
  if (reporter.saturated) return 0;
  const index = new LineIndex(source);
  const ctx = new FixContext(source);
  const candidates: OffsetEdit[][] = [];
  for (const entry of reporter.entries) {
    const hint = reporter.hints.get(entry);
    const candidate = hint && materialize(hint, ctx);
    const edits = candidate && orderedEdits(candidate.edits, source.length);
    if (edits && edits.length > 0) candidates.push(edits);
    if (entry.suggestion !== undefined) {
      const start = index.offset(entry.line, entry.column);
      const end = index.offset(entry.line, entry.endColumn);
      if (start !== undefined && end !== undefined) candidates.push([{ start, end, newText: entry.suggestion }]);
    }
  }
  const prover = new ResyncProver(source, reporter.entries, LIMIT, analyzer.state.functions);
  // The line after the edits for every other candidate only: both ways of meeting the original are checked.
  prover.prepare(
    candidates.flatMap((edits, i) => [
      index.position((edits[0] as OffsetEdit).start).line,
      ...(i % 2 === 0 ? [index.position((edits[edits.length - 1] as OffsetEdit).end).line + 1] : []),
    ]),
  );
  for (const edits of candidates) {
    const fixed = applyOrdered(source, edits);
    const spans = spansOf(index, edits);
    const fast = prover.findings(edits, index, spans);
    assert.notEqual(fast, 'unprepared');
    const full = new Reporter(LIMIT);
    new Analyzer(fixed, full).run();
    const where = `\n--- original\n${source}--- fixed\n${fixed}`;
    if (full.saturated) {
      assert.equal(fast, undefined, where);
      continue;
    }
    assert.ok(fast && fast !== 'unprepared', where);
    assert.deepEqual(resyncKeys(reporter.entries, fast, spans), keys(full.entries, spans), where);
  }
  return candidates.length;
}

const indent = fc.constantFrom('', '  ', '    ', '\t');
const LINES = [
  // AVAP
  'addParam("q", q)',
  'addVar(a, 1)',
  'addResult(a)',
  'b = a + 1',
  'encodeSHA256(a, h)',
  'RequestGet(url, , , r)',
  'if(a, 1, =)',
  'else()',
  'end()',
  'startLoop(i, 1, 3)',
  'endLoop()',
  'try()',
  'exception(e)',
  'function f(x) {',
  'function g(x, y) {',
  '}',
  'return(x)',
  'r = f(a)',
  'r = g(a)',
  'r = f2(a)',
  'variableFromJSON(row, k, k)',
  'AddvariableToJSON(a, 1, out)',
  'addVar(rows, [])',
  'c = avapConnector("x")',
  'c.call(a)',
  'go_async(t)',
  '/* open',
  'close */',
  '// note',
  '',
  // slips
  'getSHA256(a, h)',
  'h = getSHA256(a)',
  'readParam("q")',
  'addVar(a, 1);',
  'let x = 1',
  '# note',
  'import "fmt"',
  'x += 1',
  'if (a > 1) {',
  '} else {',
  'for i in range(1, 4):',
  'for item in items:',
  'function h(x) { return x }',
  'def d(x):',
  'try {',
  '} catch (e) {',
  'print(a)',
  'else if(a, 2, =)',
  'addResult(a, b)',
  'return a',
  'addVar(x, encodeSHA256(a, h))',
  'startLoop(i, 0, n - 1)',
  'r = RequestGet(url)',
  'IF(a, 1, =)',
  'END()',
  'for (const x of items) {',
  'if a > 1:',
  'else:',
  'except Exception as e:',
  'items.push(a)',
  'fnc(a)',
];
const program = fc
  .array(
    fc.tuple(indent, fc.constantFrom(...LINES)).map(([i, t]) => `${i}${t}`),
    { minLength: 1, maxLength: 18 },
  )
  .chain((lines) => fc.constantFrom('\n', '\r\n').map((eol) => `${lines.join(eol)}${eol}`));

describe('parser: fix proofs re-analyse only the edited region', () => {
  it('sees exactly what a full parse of each fixed program reports, on random programs', () => {
    let checked = 0;
    fc.assert(
      fc.property(program, (source) => {
        checked += checkProgram(source);
      }),
      { numRuns: Number(process.env.RUNS ?? 400), seed: Number(process.env.SEED ?? 2424) },
    );
    assert.ok(checked > 800, `only ${checked} candidates checked`);
  });

  it('on the adversarial shapes too', () => {
    for (const shape of adversarialShapes()) checkProgram(shape.build(30));
  });

  it('meets the original analysis right after a local edit: the rest of the file is not read again', () => {
    const shape = adversarialShapes().find((s) => s.name.startsWith('F5'));
    assert.ok(shape);
    const source = shape.build(400);
    const before = { ...resyncWork };
    const result = validateAvap(source);
    assert.equal(result.trace.filter((e) => e.fix).length, 32, 'the usual 32 proofs');
    assert.equal(resyncWork.resynced - before.resynced, 32);
    assert.equal(resyncWork.readToEnd - before.readToEnd, 0);
    // 32 one-line regions and a few lines of window each, and one pass up to the last of them.
    assert.ok(resyncWork.forkLines - before.forkLines < 32 * 12, `${resyncWork.forkLines - before.forkLines} lines`);
    assert.ok(resyncWork.driverLines - before.driverLines <= 40);
  });
});
