/**
 * Pins the knowledge base's fixes for code that parses but does the wrong thing
 * at run time (issue 17). These are plain line checks over every program the
 * knowledge base teaches (document blocks, pool examples, golden reference
 * code), on top of the parser's semantic warnings (which every such program
 * must not draw either: docs, pool and golden tests require silence). The
 * knowledge base's own convention is stricter than the parser's "names an
 * earlier variable" — literal keys are always quoted, so a bare key never
 * appears at all.
 */
import assert from 'node:assert/strict';
import { avapCodeBlocks, loadDocs, loadExamplePool, loadGoldenSet } from '../../../src/knowledge';
import { repoKnowledgeDir, unwrap } from './helpers';

interface Program { where: string; code: string }

function knowledgePrograms(): Program[] {
  const dir = repoKnowledgeDir();
  const programs: Program[] = [];
  for (const doc of unwrap(loadDocs(dir))) {
    for (const block of avapCodeBlocks(doc.body)) programs.push({ where: `${doc.sourceDoc}:${block.line}`, code: block.code });
  }
  for (const e of unwrap(loadExamplePool(dir)).examples) programs.push({ where: `pool ${e.id}`, code: e.code });
  for (const e of unwrap(loadGoldenSet(dir)).entries) {
    if (e.referenceCode) programs.push({ where: `golden ${e.id}`, code: e.referenceCode });
  }
  return programs;
}

/** Lines of every program that match `pattern`, as "where: line". */
function offending(programs: readonly Program[], pattern: RegExp): string[] {
  return programs.flatMap((p) => p.code.split('\n').filter((line) => pattern.test(line)).map((line) => `${p.where}: ${line.trim()}`));
}

const BARE = String.raw`[A-Za-z_]\w*`;
const RULES: [string, RegExp][] = [
  // Spec addVar rule 4: anything that is not a variable or a number is stored as text.
  ['addVar with [], {}, None or a boolean (stored as text; use x = [] …)', /^\s*addVar\(\s*[A-Za-z_]\w*\s*,\s*(\[\s*\]|\{\s*\}|None|True|False|true|false)\s*\)/],
  // Reference kind `variable`: a bare key that names a variable is replaced by its value.
  ['AddvariableToJSON with a bare key (quote it, or use a template)', new RegExp(String.raw`^\s*AddvariableToJSON\(\s*${BARE}\s*,`)],
  // Reference kind `value`: a bare lookup key is resolved as a variable at run time.
  ['variableFromJSON with a bare key (quote it)', new RegExp(String.raw`^\s*(${BARE}\s*=\s*)?variableFromJSON\([^,]*,\s*${BARE}\s*,`)],
  ['typographic quotes (not AVAP quotes)', /[\u201C\u201D\u2018\u2019]/],
];

describe('knowledge: no program teaches a known run-time trap', () => {
  const programs = knowledgePrograms();

  it('reads every program of the knowledge base', () => {
    assert.ok(programs.length >= 390, `only ${programs.length} programs`);
  });

  for (const [name, pattern] of RULES) {
    it(`has no ${name}`, () => {
      assert.deepEqual(offending(programs, pattern), []);
    });
  }

  it('the checks are not vacuous: each rule catches the trap it names', () => {
    const traps: Program[] = [
      { where: 'a', code: 'addVar(rows, [])\n' },
      { where: 'b', code: '  addVar(done, True)\n' },
      { where: 'c', code: 'AddvariableToJSON(count, count, reply)\n' },
      { where: 'd', code: '  variableFromJSON(row, email, email)\n' },
      { where: 'e', code: 'addParam(\u201Cpassword\u201D, pwd)\n' },
    ];
    const fine: Program[] = [
      { where: 'f', code: 'rows = []\naddVar(total, 0)\naddVar(label, "None")\nAddvariableToJSON("count", count, reply)\n' },
      { where: 'g', code: 'AddvariableToJSON(`${s}`, n, counts)\nvariableFromJSON(row, "email", email)\n' },
    ];
    for (const [name, pattern] of RULES) {
      assert.ok(offending(traps, pattern).length >= 1, `${name}: catches nothing`);
      assert.deepEqual(offending(fine, pattern), [], `${name}: flags correct code`);
    }
  });
});
