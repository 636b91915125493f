/**
 * Signature help, inlay hints, semantic tokens, the outline and folding
 * (src/language), on programs with a function, blocks, an endpoint, an
 * invented command and an unfinished call.
 */
import assert from 'node:assert/strict';
import {
  AvapDocument,
  completion,
  documentSymbols,
  foldingRanges,
  inlayHints,
  semanticTokenSpecs,
  signatureHelp,
  type OutlineSymbol,
} from '../../../src/language';
import { catalogue } from '../../../src/parser';

const WHOLE = { start: { line: 0, character: 0 }, end: { line: 1000, character: 0 } };

describe('language: signature help', () => {
  it('helps inside an unfinished RequestGet( with its parameters, their kinds and the command’s documentation', () => {
    const doc = new AvapDocument('addVar(url, "https://x.test")\nRequestGet(\n');
    const help = signatureHelp(doc, { line: 1, character: 11 });
    assert.ok(help);
    assert.equal(help.activeParameter, 0);
    const sig = help.signatures[0];
    assert.equal(sig?.label, 'RequestGet(url, querystring, headers, o_result)');
    assert.deepEqual(
      sig?.parameters.map((p) => `${p.name}:${p.kind}`),
      ['url:variable', 'querystring:variable', 'headers:variable', 'o_result:variable'],
    );
    assert.match(sig?.parameters[3]?.documentation ?? '', /writes its result into the variable/);
    assert.match(sig?.documentation ?? '', /HTTP GET/);
    const [start, end] = sig?.parameters[1]?.label ?? [0, 0];
    assert.equal(sig?.label.slice(start, end), 'querystring');
  });

  it('follows the active argument past commas, not past commas inside strings, lists or nested calls', () => {
    const line = 'AddvariableToJSON("a,b", [1, 2], out';
    const doc = new AvapDocument(`${line}\n`);
    assert.equal(signatureHelp(doc, { line: 0, character: line.length })?.activeParameter, 2);
    assert.equal(signatureHelp(doc, { line: 0, character: 22 })?.activeParameter, 0, 'inside "a,b"');
    const nested = new AvapDocument('function f(a, b) {\n  return(a)\n}\nx = f(1, len(y)\n');
    const inner = signatureHelp(nested, { line: 3, character: 15 });
    assert.equal(inner?.name, 'f');
    assert.equal(inner?.activeParameter, 1);
    assert.equal(inner?.signatures[0]?.label, 'f(a, b)');
  });

  it('describes value parameters by the runtime’s rule, and picks the signature that fits the arguments', () => {
    const doc = new AvapDocument('randomString("[a-z]", 8, \n');
    const help = signatureHelp(doc, { line: 0, character: 25 });
    assert.equal(help?.activeParameter, 2);
    const addVar = signatureHelp(new AvapDocument('addVar(x, '), { line: 0, character: 10 });
    assert.match(
      addVar?.signatures[0]?.parameters[1]?.documentation ?? '',
      /\(value\): a variable of this name if one is assigned \(quoted or bare alike/,
    );
  });

  it('has a signature for every command of the catalogue, and none for an invented one', () => {
    for (const spec of catalogue.COMMANDS) {
      const help = signatureHelp(new AvapDocument(`${spec.name}(`), { line: 0, character: spec.name.length + 1 });
      assert.ok(help, spec.name);
      assert.equal(help.signatures[0]?.parameters.length, spec.params.length, spec.name);
    }
    assert.equal(signatureHelp(new AvapDocument('getSHA256('), { line: 0, character: 10 }), undefined);
  });
});

describe('language: inlay hints', () => {
  const text = [
    'addParam("page", page)',
    'AddvariableToJSON("page", 1, out)',
    'addVar(greeting, hello)',
    'addResult(missing)',
    'RequestGet(url, , , reply)',
    '',
  ].join('\n');

  it('shows the trap: a word that is a variable, and a bare word that is text', () => {
    const hints = inlayHints(new AvapDocument(text), WHOLE, { parameterNames: false });
    assert.deepEqual(
      hints.map((h) => `${h.position.line}:${h.position.character}${h.label}`),
      // "page" on line 1 is quoted text before any page is set: it reads as what it is, no hint.
      ['1:24: variable', '2:22: text', '3:17: text', '4:14: text'],
    );
    const trap = hints.find((h) => h.label === ': variable');
    assert.match(trap?.tooltip ?? '', /"page" is the value of the variable 'page' \(assigned on line 1\)/);
    assert.match(trap?.tooltip ?? '', /quotes are stripped/);
  });

  it('adds parameter names behind the setting, except where the argument says it', () => {
    const doc = new AvapDocument('RequestGet(url, , , o_result)\naddResult(sourceVariable)\n');
    assert.deepEqual(
      inlayHints(doc, WHOLE, { parameterNames: true })
        .filter((h) => h.kind === 'parameter')
        .map((h) => h.label),
      [],
      'url, o_result and sourceVariable say their parameter’s name already',
    );
    const named = inlayHints(new AvapDocument('RequestGet(u, q, h, r)\n'), WHOLE, { parameterNames: true });
    assert.deepEqual(
      named.filter((h) => h.kind === 'parameter').map((h) => h.label),
      ['url:', 'querystring:', 'headers:', 'o_result:'],
    );
    assert.deepEqual(
      inlayHints(new AvapDocument('RequestGet(u, q, h, r)\n'), WHOLE, { parameterNames: false }).filter(
        (h) => h.kind === 'parameter',
      ),
      [],
    );
  });
});

describe('language: semantic tokens', () => {
  it('tells commands, functions, variables, parameters, literal keys and template interpolations apart', () => {
    const text = [
      'function hi(name) {',
      '  addVar(msg, `hi ${name}`)',
      '  return(msg)',
      '}',
      'AddvariableToJSON("greeting", 1, out)',
      'r = hi(out)',
      '',
    ].join('\n');
    const doc = new AvapDocument(text);
    const tokens = semanticTokenSpecs(doc).map((t) => {
      const line = text.split('\n')[t.line] ?? '';
      return `${line.slice(t.character, t.character + t.length)}=${t.type}${t.modifiers.length ? `+${t.modifiers.join('+')}` : ''}`;
    });
    assert.deepEqual(tokens, [
      'hi=function+declaration',
      'name=parameter+declaration',
      'addVar=function+defaultLibrary',
      'msg=variable+declaration',
      '${=operator',
      'name=parameter',
      '}=operator',
      'msg=variable',
      'AddvariableToJSON=function+defaultLibrary',
      '"greeting"=property',
      'out=variable+declaration',
      'r=variable+declaration',
      'hi=function',
      'out=variable',
    ]);
  });
});

describe('language: outline and folding', () => {
  const text = [
    '// service',
    'function handler(req) {',
    '  if(req, "x", "=")',
    '    addVar(a, 1)',
    '  else()',
    '    addVar(a, 2)',
    '  end()',
    '  return(a)',
    '}',
    'startLoop(i, 1, 3)',
    '  go_async("t")',
    '    getSHA256(i, h)',
    '  end()',
    'endLoop()',
    'registerEndpoint("/hello", "POST", "", "Hello", handler, out)',
    '',
  ].join('\n');
  const doc = new AvapDocument(text);

  it('lists functions and endpoints, with their blocks as children', () => {
    const show = (s: OutlineSymbol): unknown => [s.kind, s.name, s.detail, s.children.map(show)];
    assert.deepEqual(documentSymbols(doc).map(show), [
      ['function', 'handler', '(req)', [['block', 'if(req, "x", "=")', 'with else()', []]]],
      ['block', 'startLoop(i, 1, 3)', '', [['block', 'go_async("t")', '', []]]],
      ['endpoint', 'POST /hello', '→ handler', []],
    ]);
    const fn = documentSymbols(doc)[0];
    assert.deepEqual(fn?.selectionRange, { start: { line: 1, character: 9 }, end: { line: 1, character: 16 } });
    assert.equal(fn?.range.end.line, 8);
  });

  it('folds each block and branch, keeping the closer visible', () => {
    assert.deepEqual(
      foldingRanges(doc).map((f) => [f.startLine, f.endLine]),
      [
        [1, 7],
        [2, 3],
        [4, 5],
        [9, 12],
        [10, 11],
      ],
    );
  });

  it('completes commands and functions where a statement starts, variables and functions in an argument', () => {
    const labels = completion(doc, { line: 15, character: 0 }).map((c) => c.label);
    assert.ok(labels.includes('handler') && labels.includes('RequestGet'));
    const inArg = new AvapDocument('addVar(total, 1)\naddResult(t');
    const values = completion(inArg, { line: 1, character: 11 });
    assert.deepEqual(
      values.map((c) => `${c.kind}:${c.label}`),
      ['variable:total'],
    );
  });
});
