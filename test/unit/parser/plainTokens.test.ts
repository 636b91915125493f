/**
 * The plain reader's two tokenizers (src/parser/analysis/plainTokens.ts): the WebAssembly one (wasm/plainTokens.ts,
 * as shipped) gives exactly the JavaScript one's answer — the token count or -1, every token's kind, start, end and
 * word number (plainWords.ts), and where the line ends — on every line of the repository's programs, of generated endpoints and of random text
 * over every ASCII character and the non-ASCII ones where the two could part; a program with a C1 control character
 * is left to the JavaScript tokenizer. And the module's bytes in the repository are what its source compiles to.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
// internal-import: the tokenizers themselves, compared here
import { LineTokens, setTokenizer } from '../../../src/parser/analysis/plainTokens';
// internal-import: the module's bytes as the repository carries them
import { PLAIN_TOKENS_WASM } from '../../../src/parser/analysis/plainTokensWasm';
import { generatedEndpoints } from '../../../bench/parser/generated';
import { catalogue, validateAvap } from '../../../src/parser';

const REPO = path.join(__dirname, '..', '..', '..');

/** Every offset a line may start at: 0 and after each LF, CR or CRLF. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 && text.charCodeAt(i + 1) === 10) continue;
    if (c === 10 || c === 13) starts.push(i + 1);
  }
  return starts;
}

/** What a tokenizer answered for one line: the count, and when it read the line, its tokens and end. */
function answer(t: LineTokens, n: number): unknown {
  if (n < 0) return n;
  const tokens = [];
  for (let k = 0; k <= n; k++) tokens.push([t.kinds[k], k < n ? t.starts[k] : -1, k < n ? t.ends[k] : -1, t.word(k)]);
  return { n, end: t.lineEnd, tokens };
}

const js = new LineTokens();
const loaded = new LineTokens();

/**
 * Every line of `text` (or every `every`-th), to its end and to a few ends inside it, tokenized both ways; the lines
 * WebAssembly read.
 */
function compare(text: string, every = 1): number {
  const ticket = loaded.load(text);
  js.src = text;
  let lines = 0;
  for (const start of lineStarts(text).filter((_, i) => i % every === 0)) {
    for (const end of [text.length, Math.min(text.length, start + 7), start]) {
      const expected = answer(js, js.tokenize(start, end));
      const got = answer(loaded, loaded.tokenizeLoaded(ticket, text, start, end));
      assert.deepEqual(got, expected, `[${start}, ${end}) of ${JSON.stringify(text)}`);
      lines++;
    }
  }
  return ticket === 0 ? 0 : lines;
}

/** A C1 control character: the one kind of program the WebAssembly tokenizer is not given. */
const hasC1 = (text: string) => /[\x80-\x9f]/.test(text);

describe('parser: the plain tokenizer in WebAssembly', () => {
  before(() => setTokenizer('wasm'));

  it("reads every line of the repository's programs as the JavaScript tokenizer does", function () {
    this.timeout(60_000);
    const files = execFileSync('git', ['ls-files', '*.avap'], { cwd: REPO, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f !== '');
    let read = 0;
    let nonAscii = 0;
    for (const file of files) {
      const text = readFileSync(path.join(REPO, file), 'utf8');
      const lines = compare(text);
      if (/[\u0080-\uffff]/.test(text)) nonAscii++;
      if (hasC1(text)) assert.equal(lines, 0, `${file} has a C1 control character: JavaScript reads it`);
      else assert.ok(lines > 0 || text === '', `${file}: WebAssembly reads it`);
      read += lines;
    }
    assert.ok(nonAscii >= 5 && read > 5_000, `${nonAscii} programs with non-ASCII text, ${read} lines`);
  });

  it('tells every command of the catalogue and every keyword by the same number as the JavaScript tokenizer', () => {
    const words = [
      ...catalogue.COMMANDS.map((c) => c.name),
      'if',
      'else',
      'not',
      'and',
      'or',
      'return',
      'function',
      'None',
    ];
    for (const word of words) {
      const text = `${word}(x)`;
      const ticket = loaded.load(text);
      assert.ok(ticket > 0);
      assert.ok(loaded.tokenizeLoaded(ticket, text, 0, text.length) > 0);
      js.src = text;
      assert.ok(js.tokenize(0, text.length) > 0);
      assert.notEqual(loaded.word(0), 0, word);
      assert.equal(loaded.word(0), js.word(0), word);
    }
  });

  it('reads generated endpoints as the JavaScript tokenizer does', function () {
    this.timeout(60_000);
    for (const text of generatedEndpoints(34, 20)) assert.ok(compare(text) > 0);
  });

  it('reads random text over every ASCII character, and non-ASCII ones, as the JavaScript tokenizer does', function () {
    this.timeout(60_000);
    const ascii = fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c));
    // Non-ASCII units where the tokenizers could part: Latin-1 letters and spaces, C1 controls, quotes, line and
    // paragraph separators, surrogate halves and pairs, a unit whose low byte is a line feed (U+010A).
    const other = fc.constantFrom(
      'é',
      '\u00a0',
      '\u0085',
      '\u009f',
      '\u00ff',
      '“',
      '”',
      '\u2028',
      '\u2029',
      '\ud800',
      '\udc00',
      '😀',
      '\u010a',
      '\u0122',
      'ñ',
    );
    const piece = fc.oneof(
      { weight: 6, arbitrary: ascii },
      { weight: 1, arbitrary: other },
      { weight: 2, arbitrary: fc.constantFrom('addVar(', 'x', '"a b"', "'c'", '`t ${x}`', '12.5', ' ', ', ', ')') },
      // Known words, and words one letter off them (the table's look-up on both sides).
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          'if',
          'iff',
          'None',
          'Non',
          'not',
          'and',
          'or',
          'print',
          'len',
          'function',
          'addvar',
          'endLoop',
          'in',
          'return',
        ),
      },
      { weight: 2, arbitrary: fc.constantFrom('==', '===', '!=', '<>', '=>', ':=', '::', '//', '/*', '\\"', '\n') },
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        compare(pieces.join(''));
      }),
      { numRuns: 20_000, seed: 34 },
    );
  });

  it('reads non-ASCII text in strings and comments, and leaves a program with a C1 control character to JavaScript', () => {
    for (const text of ['addVar(x, "é")', 'a = 1 // información\nb = "\u201cq\u201d"', 'x = 1\n\ud800', 'y = "😀"']) {
      assert.ok(loaded.load(text) > 0, JSON.stringify(text));
      assert.ok(compare(text) > 0);
    }
    // Long texts, the non-ASCII units before, among and after runs of ASCII the module moves eight bytes at a time.
    const lines = ['addVar(total, 1)', 'x = "a“b”"', '// ñandú 😀', 'y = total + 1'];
    for (let shift = 0; shift < 9; shift++) {
      const text = `${'a'.repeat(shift)}\n${Array.from({ length: 40 }, (_, i) => lines[(i * 7 + shift) % 4]).join('\n')}é`;
      assert.ok(compare(text) > 0);
    }
    for (const text of ['addVar(x, "\u0085")', '// \u009f\nx = 1']) {
      assert.equal(loaded.load(text), 0, JSON.stringify(text));
      assert.equal(compare(text), 0);
    }
  });

  it('reads a program loaded before another with the JavaScript tokenizer, never with the other bytes', () => {
    const first = 'addVar(a, 1)\nb = a + 2';
    const second = 'q = "zzzzzzzzzzzzzzzzzzzzzz"';
    const ticket = loaded.load(first);
    assert.ok(ticket > 0);
    assert.ok(loaded.load(second) > 0);
    js.src = first;
    for (const start of lineStarts(first)) {
      assert.deepEqual(
        answer(loaded, loaded.tokenizeLoaded(ticket, first, start, first.length)),
        answer(js, js.tokenize(start, first.length)),
      );
    }
  });

  it('grows its memory for a long program', () => {
    const text = 'addVar(total, 1)\n'.repeat(6_000); // 102 KB: more than the first memory holds
    assert.ok(compare(text, 97) > 0);
    assert.ok(compare(`${text}${text}`, 193) > 0);
  });

  it('leaves every program to the JavaScript tokenizer on a host without WebAssembly, with the same output', function () {
    this.timeout(60_000);
    const text = readFileSync(path.join(REPO, 'examples', 'fetch-with-fallback.avap'), 'utf8') + '\nz = invented(1)\n';
    const script = [
      "const { validateAvap } = require('./src/parser');",
      'process.stdout.write(JSON.stringify({ wasm: typeof WebAssembly, result: validateAvap(process.argv[1]) }));',
    ].join('\n');
    // --jitless leaves the host without WebAssembly.
    const out = execFileSync(process.execPath, ['--jitless', '--no-warnings', '-r', 'tsx/cjs', '-e', script, text], {
      cwd: REPO,
      encoding: 'utf8',
    });
    const { wasm, result } = JSON.parse(out) as { wasm: string; result: unknown };
    assert.equal(wasm, 'undefined');
    assert.deepEqual(result, JSON.parse(JSON.stringify(validateAvap(text))));
  });

  it('is built from its source (npm run build:wasm)', async function () {
    this.timeout(60_000);
    const { compile, moduleText, MODULE } = (await import(
      path.join(REPO, 'scripts', 'lib', 'plainTokensWasm.mjs')
    )) as {
      compile: () => Promise<Uint8Array>;
      moduleText: (bytes: Uint8Array) => string;
      MODULE: string;
    };
    const bytes = await compile();
    assert.equal(Buffer.from(PLAIN_TOKENS_WASM, 'base64').equals(Buffer.from(bytes)), true, 'run npm run build:wasm');
    assert.equal(readFileSync(MODULE, 'utf8'), moduleText(bytes));
  });
});
