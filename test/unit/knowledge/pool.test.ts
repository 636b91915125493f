import assert from 'node:assert/strict';
import { catalogue } from '../../../src/parser';
import { detectCommands, detectConstructs, loadExamplePool } from '../../../src/knowledge';
import { assertCleanAvap, repoKnowledgeDir, unwrap } from './helpers';

describe('knowledge: the validated example pool', () => {
  const pool = unwrap(loadExamplePool(repoKnowledgeDir()));

  it('holds at least 190 examples with unique ids and one-line descriptions', () => {
    assert.ok(pool.examples.length >= 190, `only ${pool.examples.length} examples`);
    const ids = new Set(pool.examples.map((e) => e.id));
    assert.equal(ids.size, pool.examples.length, 'duplicate ids');
    for (const e of pool.examples) {
      assert.ok(e.description.trim().length >= 10, `${e.id}: description too short`);
      assert.ok(!e.description.includes('\n'), `${e.id}: description must be one line`);
      assert.ok(e.id.startsWith(`${e.category}-`), `${e.id}: id must start with its category '${e.category}-'`);
    }
  });

  it('uses a check that rejects broken code and any warning, semantic ones included (so the checks below are not vacuous)', () => {
    assert.throws(() => assertCleanAvap('getSHA256(password, h)\naddResult(h)\n', 'invented name'), /not VALID/);
    assert.throws(
      () => assertCleanAvap('startLoop(i, 1, 3)\n  addVar(x, i)\nend()\n', 'end() closing a loop'),
      /warnings/,
    );
    // Silence includes the semantic warnings: valid code that does the wrong thing at run time.
    assert.throws(
      () => assertCleanAvap('addVar(rows, [])\naddResult(rows)\n', 'addVar storing [] as text'),
      /warnings/,
    );
    assert.throws(
      () =>
        assertCleanAvap(
          'addParam(city, city)\nAddvariableToJSON(city, city, r)\naddResult(r)\n',
          'a key naming a variable',
        ),
      /warnings/,
    );
    assert.throws(
      () =>
        assertCleanAvap(
          'startLoop(i, 0, 1)\n  variableFromJSON(row, email, email)\nendLoop()\naddResult(email)\n',
          'a key its loop overwrites',
        ),
      /warnings/,
    );
    assert.throws(
      () => assertCleanAvap('addParam(\u201Cpassword\u201D, pwd)\naddResult(pwd)\n', 'typographic quotes'),
      /not VALID/,
    );
  });

  it('every example is VALID under the current parser, without warnings', () => {
    for (const e of pool.examples) assertCleanAvap(e.code, `example ${e.id}`);
  });

  it('records exactly the commands and constructs each example uses', () => {
    for (const e of pool.examples) {
      assert.deepEqual(e.commands, detectCommands(e.code), `${e.id}: commands[] out of date`);
      assert.deepEqual(e.constructs, detectConstructs(e.code), `${e.id}: constructs[] out of date`);
    }
  });

  it('covers every catalogue command', () => {
    const used = new Set(pool.examples.flatMap((e) => e.commands));
    const missing = catalogue.COMMANDS.map((c) => c.name).filter((name) => !used.has(name));
    assert.deepEqual(missing, [], `commands without an example: ${missing.join(', ')}`);
  });

  it('covers every construct (functions, async, expression if, templates, globals, status, comments…)', () => {
    const used = new Set(pool.examples.flatMap((e) => e.constructs));
    for (const construct of [
      'if',
      'if-expression',
      'else',
      'loop',
      'try',
      'async',
      'function',
      'return',
      'assignment',
      'template',
      'global-ref',
      'status',
      'comment',
      'connector-method',
      'empty-argument',
    ] as const) {
      assert.ok(used.has(construct), `no example uses ${construct}`);
    }
  });

  it('gives each command at least two examples so few-shot selection has a choice', () => {
    const counts = new Map<string, number>();
    for (const e of pool.examples) for (const c of e.commands) counts.set(c, (counts.get(c) ?? 0) + 1);
    const thin = catalogue.COMMANDS.map((c) => c.name).filter((n) => (counts.get(n) ?? 0) < 2);
    assert.deepEqual(thin, []);
  });

  it('uses no hallucinated command names and no foreign comments', () => {
    const invented = new Set(catalogue.HALLUCINATIONS.map((h) => h.name));
    for (const e of pool.examples) {
      const calls = [...e.code.matchAll(/([A-Za-z_]\w*)\s*\(/g)].map((m) => m[1] as string);
      const bad = calls.filter((c) => invented.has(c));
      assert.deepEqual(bad, [], `${e.id} calls invented names`);
      assert.ok(!/^\s*#/m.test(e.code), `${e.id} has a '#' comment`);
    }
  });
});
