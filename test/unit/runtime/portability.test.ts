import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PORTABILITY_RULES } from '../../../src/runtime';
import { ports, RecordedHttp, run, ScriptedDb } from './fakes';

const SEMANTICS = readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'semantics.md'), 'utf8');

async function rules(lines: readonly string[]): Promise<string[]> {
  const http = new RecordedHttp([{ method: 'GET', url: 'https://api.test/x', status: 200, body: '{}' }]);
  const db = new ScriptedDb(() => ({ command: 'SELECT', rows: [], affected: 0 }));
  const r = await run(lines, { ports: ports({ http, db }) });
  return r.portability.map((n) => `${n.rule}@${n.line}`);
}

describe('runtime portability notes', () => {
  it('every rule is a row of the divergence table in docs/semantics.md, and back', () => {
    const table = SEMANTICS.slice(SEMANTICS.indexOf('## Divergences'));
    const documented = [...table.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual([...documented].sort(), PORTABILITY_RULES.map((r) => r.id).sort());
  });

  it("the divergence table names each rule's scripts, and each exists", () => {
    const table = SEMANTICS.slice(SEMANTICS.indexOf('## Divergences'));
    for (const rule of PORTABILITY_RULES) {
      const row = table.split('\n').find((l) => l.startsWith(`| \`${rule.id}\` |`)) ?? '';
      const cells = row.split('|').map((c) => c.trim());
      const scripts = cells[cells.length - 2] ?? '';
      const named = scripts.startsWith('(') ? [] : scripts.split(',').map((x) => x.trim());
      assert.deepEqual(named, [...rule.facts], rule.id);
    }
  });

  it('a note carries its line and both behaviours in words', async () => {
    const r = await run(['addVar(a, 1)', 'addParam(zip, z)'], { request: { query: { zip: '08001' } } });
    assert.equal(r.portability.length, 1);
    const note = r.portability[0];
    assert.equal(note?.line, 2);
    assert.equal(note?.rule, 'addparam-numeric-text');
    assert.match(note?.spec ?? '', /converts numeric text/);
    assert.match(note?.reference ?? '', /"08001"/);
  });

  it('a try() … end() inside another block notes that the reference closes the block there', async () => {
    assert.deepEqual(
      await rules(['addVar(a, 1)', 'if(a, 1, =)', '  try()', '    addVar(b, 1)', '  exception(e)', '  end()', 'end()']),
      ['try-inside-block@2', 'try-inside-block@3', 'try-handler-without-error@5'],
    );
  });

  it('the block around such a try notes it when reached, even when the try is not (the reference closes that block)', async () => {
    const body = ['  try()', '    addVar(b, 1)', '  exception(e)', '  end()', '  addVar(c, 1)'];
    assert.deepEqual(await rules(['addVar(a, 2)', 'if(a, 1, =)', ...body, 'end()']), ['try-inside-block@2']);
    assert.deepEqual(
      await rules(['addVar(a, 2)', 'startLoop(i, 1, 2)', '  if(a, 1, =)', ...body, '  end()', 'endLoop()']),
      ['try-inside-block@2'],
      'the outermost block notes it, once however often it runs',
    );
    assert.deepEqual(await rules(['addVar(a, 2)', 'if(a, 1, =)', '  addVar(c, 1)', 'end()', 'try()', 'end()']), []);
  });

  it('a note comes once per rule and line, even in a loop', async () => {
    assert.deepEqual(await rules(['startLoop(i, 1, 3)', '  addVar(k, `n${i}`)', 'endLoop()']), ['template@2']);
  });

  it('notes depend on what runs: a divergent line that is not reached reports nothing', async () => {
    assert.deepEqual(await rules(['addVar(a, 1)', 'if(a, 2, =)', '  addVar(k, `x${a}`)', 'end()']), []);
  });

  it('the second operand of if() notes only when the outcome would differ', async () => {
    assert.deepEqual(await rules(['addVar(x, 5)', 'addVar(y, "y")', 'if(x, y, !=)', 'end()']), []);
    assert.deepEqual(await rules(['addVar(x, 5)', 'addVar(y, 5)', 'if(x, y, =)', 'end()']), ['if-second-operand@3']);
  });

  it('an argument the reference would evaluate notes only when the value would differ', async () => {
    assert.deepEqual(await rules(['addVar(u, https://api.test/x)', 'addVar(d, 2026-01-01)', 'addVar(n, "-3")']), []);
    assert.deepEqual(await rules(['addVar(a, 2)', 'addVar(b, a * 3)']), ['argument-expression@2']);
  });

  it('programs written to the specification and to AVAP Lite alike carry no note', async () => {
    const programs: string[][] = [
      ['addParam(name, n)', 'if(n, None, =)', '  addVar(n, "anonymous")', 'end()', 'addResult(n)'],
      ['addVar(total, 0)', 'startLoop(i, 1, 10)', '  total = total + i', 'endLoop()', 'addResult(total)'],
      ['RequestGet("https://api.test/x", "", "", reply)', 'addResult(reply)'],
      ['try()', '  noSuch()', 'exception(e)', '  addVar(failed, "yes")', 'end()', 'addResult(failed)'],
      ['function sq(v) {', '  r = v * v', '  return r', '}', 'x = sq(4)', 'addResult(x)'],
      ['items = [1, 2, 3]', 'n = len(items) - 1', 'last = items[n]', 'addResult(last)'],
      ['// a comment', 'addVar(a, 1) // another', 'addResult(a)'],
    ];
    for (const p of programs) assert.deepEqual(await rules(p), [], p.join(' | '));
  });

  it('commands AVAP Lite lacks are noted once per line', async () => {
    assert.deepEqual(await rules(['variableToList(1, l)', 'getListLen(l, n)']), [
      'command-not-in-reference@1',
      'command-not-in-reference@2',
    ]);
  });
});
