import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import {
  LineAnalysis,
  PARSER_VERSION,
  renderTrace,
  Rule,
  TRACE_CATEGORIES,
  validateAvap,
  type ValidationResult,
} from '../../../src/parser';
// internal-import: the catalogue fingerprint the version is checked against
import { CATALOGUE_FINGERPRINT } from '../../../src/parser/version';
import { catalogue } from '../../../src/parser';
import { newScanState, parseCall, scanLine } from '../../../src/parser/lexical';
// internal-import: the literal table addVar's warning reads, asked about a prototype member's name directly
import { literalKind, wordLiteralKind } from '../../../src/parser/analysis/literals';
// internal-import: the wording of a fix's value, asked about a prototype member's name directly
import { valueLiteral } from '../../../src/parser/wording';
import { assertFollowsItsRule } from './ruleChecks';

function assertWellFormed(result: ValidationResult, source: string): void {
  assert.equal(typeof result.valid, 'boolean');
  assert.equal(result.parserVersion, PARSER_VERSION);
  assert.equal(result.valid, !result.trace.some((e) => e.severity === 'error'));
  const lineCount = source.split(/\r\n|\r|\n/).length;
  for (const e of result.trace) {
    assert.ok(TRACE_CATEGORIES.includes(e.category), e.category);
    assert.ok(e.severity === 'error' || e.severity === 'warning');
    assert.ok(Number.isInteger(e.line) && e.line >= 1 && e.line <= Math.max(1, lineCount), `line ${e.line}`);
    assert.ok(e.column >= 1 && e.endColumn > e.column, `columns ${e.column}-${e.endColumn}`);
    assert.notEqual(e.code, 'internal-error', e.message);
    assertFollowsItsRule(e);
  }
}

const CORPUS = path.join(__dirname, '..', '..', 'corpus', 'valid');
const SEEDS = ['conditionals.avap', 'functions.avap', 'errors.avap', 'http.avap'].map((f) =>
  readFileSync(path.join(CORPUS, f), 'utf8'),
);
const FRAGMENTS = [
  '(',
  ')',
  '{',
  '}',
  '"',
  "'",
  '`',
  ',',
  '\n',
  '//',
  '/*',
  '*/',
  '#',
  ';',
  'end()',
  'if(',
  'else()',
  'startLoop(i,0,1)',
  'endLoop()',
  'try()',
  'exception(e)',
  'function f() {',
  '$g',
  '=>',
  'let ',
  '\\',
  '\u0000',
  '😀',
  '\uD800',
  ' '.repeat(40),
];

describe('parser: robustness', function () {
  this.timeout(60_000);

  it('never throws and always returns a well-formed result on random text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        assertWellFormed(validateAvap(text), text);
      }),
      { numRuns: 400, seed: 20261123 },
    );
  });

  it('never throws on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        const result = validateAvap(bytes);
        assert.equal(typeof result.valid, 'boolean');
        for (const e of result.trace) {
          assert.notEqual(e.code, 'internal-error', e.message);
          assertFollowsItsRule(e);
        }
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('never throws on mutated valid programs', () => {
    const mutation = fc.record({
      seed: fc.integer({ min: 0, max: SEEDS.length - 1 }),
      edits: fc.array(fc.record({ at: fc.nat(), remove: fc.nat({ max: 6 }), insert: fc.constantFrom(...FRAGMENTS) }), {
        minLength: 1,
        maxLength: 6,
      }),
    });
    fc.assert(
      fc.property(mutation, ({ seed, edits }) => {
        let text = SEEDS[seed] ?? '';
        for (const edit of edits) {
          const at = edit.at % (text.length + 1);
          text = text.slice(0, at) + edit.insert + text.slice(at + edit.remove);
        }
        assertWellFormed(validateAvap(text), text);
      }),
      { numRuns: 500, seed: 42 },
    );
  });

  it('refuses an oversize source with one clear entry and reads none of it', () => {
    const result = validateAvap('addVar(a, 1)\n'.repeat(200), { maxBytes: 1000 });
    assert.equal(result.valid, false);
    assert.equal(result.trace.length, 1);
    assert.match(result.trace[0]?.message ?? '', /2.5 KiB.*1000 bytes/);
  });

  it('refuses binary content and invalid UTF-8 with a clear entry', () => {
    const binary = validateAvap(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3]));
    assert.equal(binary.valid, false);
    assert.match(binary.trace[0]?.message ?? '', /binary/i);
    const badUtf8 = validateAvap(new Uint8Array([0x61, 0x64, 0x64, 0xc3, 0x28, 0x0a]));
    assert.equal(badUtf8.valid, false);
    assert.match(badUtf8.trace[0]?.message ?? '', /UTF-8/);
  });

  it('refuses as binary exactly the control characters but tab, LF, FF and CR, over every UTF-16 code unit', () => {
    // One character after a letter is half the text: binary exactly when it is such a control character.
    const isControl = (c: number) => (c < 32 && c !== 9 && c !== 10 && c !== 12 && c !== 13) || c === 0x7f;
    const binaryCode = Rule.BinaryContent.code;
    const refused = (text: string) => validateAvap(text).trace[0]?.code === binaryCode;
    for (let c = 0; c < 0x10000; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue; // a lone surrogate is refused as an encoding error first
      assert.equal(refused(`x${String.fromCharCode(c)}`), isControl(c), `U+${c.toString(16).padStart(4, '0')}`);
      // Inside a comment and a string of an otherwise plain line (analysis/plainLines.ts): the binary check is
      // skipped only when every line was plain, so such a character must keep its line from being plain.
      const ch = String.fromCharCode(c);
      assert.equal(refused(`//${ch}`), isControl(c), `comment U+${c.toString(16).padStart(4, '0')}`);
      assert.equal(refused(`a="${ch}"`), isControl(c), `string U+${c.toString(16).padStart(4, '0')}`);
    }
    // Surrogates, in pairs: every high one with a low one, every low one after a high one.
    for (let u = 0xd800; u <= 0xdbff; u++) assert.equal(refused(`x${String.fromCharCode(u, 0xdc00)}`), false);
    for (let u = 0xdc00; u <= 0xdfff; u++) assert.equal(refused(`x${String.fromCharCode(0xd800, u)}`), false);
  });

  it('survives deep nesting of blocks and expressions', () => {
    const deepBlocks = `${'if(a, 1, "=")\n'.repeat(5000)}${'end()\n'.repeat(5000)}`;
    const blocks = validateAvap(`addVar(a, 1)\n${deepBlocks}`);
    assertWellFormed(blocks, deepBlocks);
    const deepExpr = `x = ${'('.repeat(20_000)}1${')'.repeat(20_000)}\n`;
    const expr = validateAvap(deepExpr);
    assertWellFormed(expr, deepExpr);
    assert.equal(expr.valid, false, 'nesting beyond the depth limit is reported, not recursed into');
    assert.match(renderTrace(expr.trace), /deep/i);
  });

  it('caps the trace and says it was truncated, errors first', () => {
    const source = 'getSHA256(a, b)\n'.repeat(500);
    const result = validateAvap(source, { maxTraceEntries: 50 });
    assert.equal(result.trace.length, 50);
    assert.equal(result.truncated, true);
    assert.ok(result.trace.every((e) => e.severity === 'error'));
  });

  it('handles very long lines and CRLF line ends', () => {
    const long = `addVar(a, "${'x'.repeat(200_000)}")\r\naddResult(a)\r\n`;
    const result = validateAvap(long);
    assert.equal(result.valid, true, renderTrace(result.trace));
  });
});

/** Names of Object.prototype's members: a program may name a variable, a function or a key so. */
const PROTOTYPE_NAMES = [
  'toString',
  'constructor',
  'valueOf',
  'hasOwnProperty',
  '__proto__',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
];

/** Programs with `W` where a variable, an addVar value, a function, a key or a bare word goes. */
const NAME_SHAPES = [
  'W = 1\naddResult(W)',
  'y = 1\naddVar(x, W)\naddResult(x)',
  'W = 1\naddVar(x, W)\naddResult(x)',
  'addVar(x, [W, 1])\naddResult(x)',
  'addVar(x, {"a": W})\naddResult(x)',
  'addVar(x, {W: 1})\naddResult(x)',
  'addVar(W, 1)\naddResult(W)',
  'addParam("id", W)\naddResult(W)',
  'function W(a) {\n  return(a)\n}\nx = W(1)\naddResult(x)',
  'function f(W) {\n  return(W)\n}\nx = f(1)\naddResult(x)',
  'x = {"W": 1}\naddResult(x)',
  'x = {W: 1}\naddResult(x)',
  'x = {"a": 1}\nvariableFromJSON(x, W, y)\naddResult(y)',
  'W',
  'try()\n  W\nexception(e)\nend()',
  'startLoop(W, 1, 3)\nendLoop()',
  'W = 2\nif(W, 1, "==")\nend()',
  'W = 2\nx = "${W}"\naddResult(x)',
  'x = W + 1\naddResult(x)',
  'W x',
  'W:',
];

/** Everything the parser says about `text`: as shipped, rendered, unproven, streamed line by line, as a prefix. */
function everything(text: string): string {
  const full = validateAvap(text);
  const stream = new LineAnalysis();
  return JSON.stringify([
    full,
    renderTrace(full.trace, { truncated: full.truncated }),
    validateAvap(text, { maxFixProofs: 0 }),
    text.split('\n').map((line) => stream.line(line)),
    validateAvap(text, { partial: true }),
  ]);
}

describe('parser: names of Object.prototype members are names like any', () => {
  it('reports for them exactly what it reports for an ordinary name of the same length', () => {
    for (const shape of NAME_SHAPES)
      for (const name of PROTOTYPE_NAMES) {
        const ordinary = 'q'.repeat(name.length);
        const text = shape.replaceAll('W', name);
        assert.equal(
          everything(text).replaceAll(name, ordinary),
          everything(shape.replaceAll('W', ordinary)),
          JSON.stringify(text),
        );
      }
  });

  it('never writes a member of Object.prototype into a message, a fix title or a fix text', () => {
    for (const shape of [...NAME_SHAPES, 'W()', 'x = W(1)\naddResult(x)', 'x = y.W()\naddResult(x)'])
      for (const name of PROTOTYPE_NAMES) {
        const text = shape.replaceAll('W', name);
        assert.doesNotMatch(everything(text), /\[native code\]|\[object Object\]/, JSON.stringify(text));
      }
  });

  it('the literal tables know only their own words: a member name is no literal and is written as it is', () => {
    for (const name of PROTOTYPE_NAMES) {
      assert.equal(wordLiteralKind(name), undefined, name);
      const line = `addVar(x, ${name})`;
      const tokens = scanLine(line, { start: 0, end: line.length }, newScanState(), () => undefined);
      const value = parseCall(line, tokens, 1, line.length).args[1];
      assert.ok(value);
      assert.equal(literalKind(tokens, value), undefined, name);
      assert.equal(valueLiteral(tokens, value), name);
    }
  });

  it('takes addVar(x, toString) as a variable, not as a literal stored as text; a bare `valueOf` line is not a closer', () => {
    for (const name of PROTOTYPE_NAMES) {
      const stored = validateAvap(`${name} = 1\naddVar(x, ${name})\naddResult(x)`);
      assert.deepEqual(stored.trace, [], renderTrace(stored.trace));
      const bare = validateAvap(name);
      assert.ok(!bare.trace.some((e) => e.code === Rule.MissingParentheses.code), renderTrace(bare.trace));
    }
  });
});

describe('parser: versioned catalogue', () => {
  it('the catalogue file matches the fingerprint its version was released with', () => {
    const file = path.join(__dirname, '..', '..', '..', 'src', 'parser', 'catalogue', 'avap-catalogue.json');
    const digest = createHash('sha256')
      .update(JSON.stringify(JSON.parse(readFileSync(file, 'utf8'))))
      .digest('hex');
    assert.equal(
      digest,
      CATALOGUE_FINGERPRINT,
      'the catalogue changed: bump catalogueVersion (and RULES_VERSION if rules changed) and update CATALOGUE_FINGERPRINT',
    );
  });

  it('parser_version names the rules and catalogue versions', () => {
    assert.match(PARSER_VERSION, /^avap-parser\/\d+\.\d+\.\d+\+catalogue\.[\w.]+$/);
    assert.ok(PARSER_VERSION.endsWith(catalogue.CATALOGUE_VERSION));
  });
});
