/**
 * The symbol index (src/language/symbols.ts) and what reads it: definitions,
 * references, highlights, hover. A one-word argument, bare or quoted, is the
 * variable where one of that name is assigned on an earlier line, and text
 * where none is (the runtime's rulings).
 */
import assert from 'node:assert/strict';
import { AvapDocument, definition, highlights, hover, references, type Occurrence } from '../../../src/language';

/** The position of the `nth` (0-based) occurrence of `word` in `text`, `offset` characters into it. */
function at(text: string, word: string, nth = 0, offset = 1): { line: number; character: number } {
  let index = -1;
  for (let i = 0; i <= nth; i++) index = text.indexOf(word, index + 1);
  assert.ok(index >= 0, `${word} #${nth} not in the text`);
  const before = text.slice(0, index + offset);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - before.lastIndexOf('\n') - 1 };
}

const role = (doc: AvapDocument, o: Pick<Occurrence, 'line' | 'name'>) =>
  doc.symbols.occurrences
    .filter((x) => x.line === o.line && x.name === o.name)
    .map((x) => `${x.symbol}:${x.role}:${x.how}${x.quoted ? ':quoted' : ''}`);

const PROGRAM = [
  '// orders',
  'function total(items, rate) {',
  '  sum = len(items) * rate',
  '  addVar(label, `total ${sum}`)',
  '  return(sum)',
  '}',
  'addParam("page", page)',
  'addParam(rate, r)',
  'addVar(rate, 2)',
  'AddvariableToJSON("page", rate, out)',
  'AddvariableToJSON(status, "ok", out)',
  'startLoop(i, 1, 3)',
  '  addVar(v, later)',
  '  later = i',
  'endLoop()',
  'n = total(page, rate)',
  'registerEndpoint("/orders", "GET", "", "Orders", total, out)',
  'addResult(n)',
  '',
].join('\n');

describe('language: symbols, definitions and references', () => {
  const doc = new AvapDocument(PROGRAM);

  it('classifies every one-word argument as the runtime reads it', () => {
    assert.deepEqual(role(doc, { line: 6, name: 'page' }), [
      'variable:text:word:quoted', // "page" before any page is set: the request parameter's name
      'variable:definition:target',
    ]);
    assert.deepEqual(role(doc, { line: 7, name: 'rate' }), ['variable:text:word'], 'rate is set only on line 9');
    assert.deepEqual(
      role(doc, { line: 9, name: 'page' }),
      ['variable:reference:word:quoted'],
      'quotes are stripped: "page" is the variable now',
    );
    assert.deepEqual(role(doc, { line: 10, name: 'status' }), ['variable:text:word'], 'no variable status: text');
    assert.deepEqual(
      role(doc, { line: 12, name: 'later' }),
      ['variable:either:word'],
      'the loop assigns it after: text on the first pass only',
    );
  });

  it('reads expressions, templates, parameters and function calls', () => {
    assert.deepEqual(role(doc, { line: 2, name: 'items' }), ['variable:reference:expression']);
    assert.deepEqual(role(doc, { line: 3, name: 'sum' }), ['variable:reference:template']);
    assert.deepEqual(role(doc, { line: 15, name: 'total' }), ['function:reference:call']);
    assert.deepEqual(role(doc, { line: 16, name: 'total' }), ['function:reference:word'], 'a handler is the function');
    assert.deepEqual(role(doc, { line: 1, name: 'total' }), ['function:definition:function']);
    assert.deepEqual(role(doc, { line: 1, name: 'rate' }), ['variable:definition:parameter']);
    assert.deepEqual(
      doc.symbols.endpoints.map((e) => [e.method, e.path, e.handler]),
      [['GET', '/orders', 'total']],
    );
  });

  it('goes to a function’s definition from a call and from registerEndpoint', () => {
    const def = [{ start: { line: 1, character: 9 }, end: { line: 1, character: 14 } }];
    assert.deepEqual(definition(doc, at(PROGRAM, 'total(page')), def);
    assert.deepEqual(definition(doc, at(PROGRAM, 'total, out')), def);
  });

  it('a variable’s definitions are all its assignments (one flat namespace)', () => {
    const lines = definition(doc, at(PROGRAM, 'rate)', 1)).map((r) => r.start.line);
    assert.deepEqual(lines, [1, 8], 'the parameter of total and addVar(rate, 2)');
    assert.deepEqual(definition(doc, at(PROGRAM, 'status')), [], 'text belongs to no variable');
  });

  it('finds references with or without the declarations, and highlights reads and writes', () => {
    const refs = references(doc, at(PROGRAM, 'page)', 0), true).map((r) => r.start.line);
    assert.deepEqual(refs, [6, 9, 15]);
    const usesOnly = references(doc, at(PROGRAM, 'page)', 0), false).map((r) => r.start.line);
    assert.deepEqual(usesOnly, [9, 15]);
    const marks = highlights(doc, at(PROGRAM, 'sum', 0)).map((h) => `${h.range.start.line}:${h.kind}`);
    assert.deepEqual(marks, ['2:write', '3:read', '4:read']);
  });

  it('hovers a variable word with what it is there, and a command with its documentation', () => {
    assert.match(hover(doc, at(PROGRAM, 'page", rate'))?.markdown ?? '', /variable's value \(quotes are stripped/);
    assert.match(hover(doc, at(PROGRAM, 'status'))?.markdown ?? '', /text here: no variable 'status'/);
    assert.match(hover(doc, at(PROGRAM, 'AddvariableToJSON'))?.markdown ?? '', /AddvariableToJSON\(Key, Value/);
    assert.match(hover(doc, at(PROGRAM, 'total(page'))?.markdown ?? '', /function total\(items, rate\)/);
  });
});
