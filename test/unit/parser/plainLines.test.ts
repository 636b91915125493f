/**
 * Plain lines (src/parser/analysis/plainLines.ts) are read without the scanner's tokens and the statement checks:
 * the parser's output must be exactly what the scanner's path gives. Every program here is validated both ways —
 * as shipped, without fix proofs, with a small trace cap, and streamed line by line — and the results compared
 * whole: the repository's programs, generated endpoints, the fix-its' mutants, and random lines built from the
 * characters, words and operators where the two paths could part (foreign operators, control characters, open
 * strings, comments, non-ASCII text, block commands out of order).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { guardInput, LineAnalysis, Rule, validateAvap } from '../../../src/parser';
// internal-import: the switch between the two paths, and the plain reader itself, compared here
import { plainLine, setPlainLines } from '../../../src/parser/analysis/plainLines';
// internal-import: the switch between the plain reader's two tokenizers (WebAssembly as shipped, JavaScript)
import { setTokenizer } from '../../../src/parser/analysis/plainTokens';
// internal-import: a real analysis for the plain reader to act on, line by line
import { Analyzer } from '../../../src/parser/analyzer';
// internal-import: the template check and its in-place reading, compared here
import { checkTemplate, plainTemplate } from '../../../src/parser/analysis/lexicalFindings';
// internal-import: the kind of a template token
import { TokenKind } from '../../../src/parser/scanner';
// internal-import: the reporter an analysis writes to
import { Reporter } from '../../../src/parser/reporter';
import { generatedEndpoints } from '../../../bench/parser/generated';
import { mutations } from '../../support/corpus/mutations';
import { MUTATION_SEED, mutationSeeds } from '../../support/corpus/repairSets';

const REPO = path.join(__dirname, '..', '..', '..');

/** Everything the parser says about `text`, read one way. */
function outputs(text: string): unknown[] {
  const stream = new LineAnalysis();
  const streamed = text.split(/\r\n|\r|\n/).map((line) => stream.line(line));
  return [
    validateAvap(text),
    validateAvap(text, { maxFixProofs: 0 }),
    validateAvap(text, { maxTraceEntries: 2 }),
    streamed,
  ];
}

/**
 * The output of `text` with plain lines and without is the same: every line offered to the plain reader, and as
 * shipped (the analyzer backs off after lines the reader did not take) — with the WebAssembly tokenizer (as shipped)
 * and with the JavaScript one.
 */
function same(text: string): void {
  const was = setPlainLines('off');
  const tokenizer = setTokenizer('wasm');
  try {
    const scanned = outputs(text);
    for (const choice of ['wasm', 'js'] as const) {
      setTokenizer(choice);
      for (const mode of ['always', 'on'] as const) {
        setPlainLines(mode);
        assert.deepEqual(outputs(text), scanned, `${choice}, ${mode}: ${JSON.stringify(text)}`);
      }
    }
  } finally {
    setPlainLines(was);
    setTokenizer(tokenizer);
  }
}

/** How many lines of `text` the plain reader takes (each read on its own, after the lines before it). */
function plainShare(texts: readonly string[]): number {
  let lines = 0;
  let plain = 0;
  for (const text of texts) {
    const analyzer = new Analyzer(text, new Reporter(Number.MAX_SAFE_INTEGER));
    let start = 0;
    for (const line of text.split('\n')) {
      lines++;
      if (plainLine(analyzer, start, start + line.length) === true) plain++;
      start += line.length + 1;
    }
  }
  return plain / lines;
}

/** A line read alone by the plain reader: taken or not. */
function takes(line: string): boolean {
  return plainLine(new Analyzer(line, new Reporter(100)), 0, line.length) === true;
}

const COMMANDS = [
  'addVar',
  'addResult',
  'addParam',
  'AddvariableToJSON',
  'variableFromJSON',
  'getListLen',
  'itemFromList',
  'startLoop',
  'endLoop',
  'if',
  'else',
  'end',
  'try',
  'exception',
  'return',
  'function',
  'RequestGet',
  'ormDirect',
  'encodeSHA256',
  'avapConnector',
  'go_async',
  'getDateTime',
  'print',
  'fmt',
  'undefinedThing',
  'helper',
  'End',
  'EndLoop',
  'addvar',
  'getSHA256',
];
const NAMES = [
  'x',
  'total',
  'item',
  'email',
  'None',
  'True',
  'false',
  'null',
  'this',
  'await',
  'lambda',
  'len',
  'str',
  'int',
];
const WORDS = ['not', 'and', 'or', 'in', 'is', 'if', 'else', 'new', 'typeof'];
const LITERALS = [
  '0',
  '12',
  '3.5',
  '1.',
  '"a"',
  "'b'",
  '"a\\"b"',
  '"x',
  '"\u0001"',
  '"é"',
  '"5"',
  '"=="',
  '">"',
  '"email"',
];
const TEMPLATES = ['`t`', '`${x}`', '`${x.y}`', '`${a b}`', '`${`', '`a ${x} b ${y}`'];
const OPERATORS = [
  '=',
  '==',
  '===',
  '!=',
  '!==',
  '+',
  '-',
  '--',
  '+=',
  '*',
  '**',
  '/',
  '%',
  '<',
  '<=',
  '>',
  '>=',
  '<>',
  '=>',
];
const MORE_OPERATORS = [':=', '::', '&&', '||', '!', '?', '&', '|', '->'];
const PUNCTUATION = ['(', ')', '[', ']', '{', '}', ',', ':', '.', ';'];
const ODD = ['#', '$x', '@', '\t', '\u00a0', 'é', '“q”', '\f', '// c', '/* c */', '/*', '\u0007', '\\'];

const fragment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 3, arbitrary: fc.constantFrom(...LITERALS) },
  { weight: 1, arbitrary: fc.constantFrom(...TEMPLATES) },
  { weight: 3, arbitrary: fc.constantFrom(...OPERATORS) },
  { weight: 1, arbitrary: fc.constantFrom(...MORE_OPERATORS, ...WORDS, ...COMMANDS) },
  { weight: 3, arbitrary: fc.constantFrom(...PUNCTUATION) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD) },
);

const space = fc.constantFrom('', ' ', '  ', '\t');

/** An expression-like run of fragments. */
const run = (max: number) =>
  fc.array(fc.tuple(fragment, space), { maxLength: max }).map((xs) => xs.map(([f, s]) => f + s).join(''));

/** A plain-looking argument (most calls have them), or any run. */
const argument = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NAMES, ...LITERALS, ...TEMPLATES) },
  { weight: 1, arbitrary: run(3) },
  { weight: 1, arbitrary: fc.constant('') },
);

const line = fc.oneof(
  // A command call.
  fc
    .tuple(
      space,
      fc.constantFrom(...COMMANDS),
      space,
      fc.array(argument, { maxLength: 4 }),
      fc.constantFrom('', ' ', ' // c', ' x', ' {', ':'),
    )
    .map(([indent, name, gap, args, tail]) => `${indent}${name}${gap}(${args.join(', ')})${tail}`),
  // An assignment of an expression or a call.
  fc
    .tuple(space, fc.constantFrom(...NAMES, ...COMMANDS), fc.constantFrom('=', ' = ', '==', ' := '), run(8))
    .map(([indent, name, eq, value]) => `${indent}${name}${eq}${value}`),
  fc
    .tuple(fc.constantFrom(...NAMES), fc.constantFrom(...COMMANDS), fc.array(argument, { maxLength: 3 }))
    .map(([name, command, args]) => `${name} = ${command}(${args.join(', ')})`),
  // if() with a comparator, quoted or not.
  fc
    .tuple(argument, argument, fc.constantFrom('"=="', '">"', '>=', '=', 'in', '"x > 1"', '" >= "', '"+"', '5', ''))
    .map(([a, b, c]) => `if(${a}, ${b}, ${c})`),
  // A function on one line: its header, a body, its closing brace or not.
  fc
    .tuple(
      fc.constantFrom('f', 'helper', 'addVar', 'if'),
      fc.constantFrom('', 'a', 'a, b', 'a,', '1', 'a b'),
      run(6),
      fc.constantFrom(' }', '}', '', ' } x', ' {'),
    )
    .map(([name, params, body, close]) => `function ${name}(${params}) { ${body}${close}`),
  // Anything.
  run(10),
  fc.constantFrom('', '   ', '// a comment', 'end()', 'else()', 'endLoop()', '}', 'try()', 'exception(e)'),
);

const program = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 12 }), fc.constantFrom('\n', '\r\n', '\r'))
  .map(([lines, eol]) => lines.join(eol));

/** A loop around keys and assignments, a function body, blocks: the semantic tables and the block stack at work. */
const blocked = fc
  .tuple(fc.array(line, { maxLength: 6 }), fc.constantFrom('email', 'x', 'item'))
  .map(
    ([lines, key]) =>
      `function f(a) {\n  startLoop(i, 0, 3)\n    variableFromJSON(row, ${key}, v)\n${lines.join('\n')}\n    ${key} = 1\n  endLoop()\n  return(v)\n}\n` +
      `addParam(${key}, p)\n${key} = f(1)\nAddvariableToJSON(${key}, 2, out)\n`,
  );

describe('parser: plain lines', () => {
  it('takes the usual lines, and leaves to the analysis what it does not read', () => {
    for (const text of [
      '',
      '   // a comment',
      'addVar(total, 0)',
      'addResult(total)  // answer',
      'variableFromJSON(row, "email", email)',
      'startLoop(i, 0, n)',
      'endLoop()',
      'else()',
      'end()',
      'if(count, 10, ">=")',
      'if(count, 10, >=)',
      'x = a + b * 2 - -1',
      'label = "ORD-" + str(code) + "/" + str(len(items) * 2)',
      'flag = a if n > 3 else b',
      'ok = not a and (b or c)',
      'row = {"id": id, "tags": [a, b]}',
      'msg = `hello ${name}`',
      'rows = ormDirect("SELECT 1", rows)',
      'n = getListLen(items)',
      'RequestGet(url, , , reply)',
      'function total(a, b) {',
      'function none() {',
      'helper(a, "b", 1)',
      'x = helper(a, , `t`)',
      'x = invented()',
      // A word addVar stores as text: the reader reports it as the analysis does.
      'addVar(x, None)',
      'addVar("x", True)',
      // A list or dict literal addVar stores as text, reported the same way.
      'addVar(x, [])',
      'addVar(x, {"a": 1, "b": [True, None]})',
    ])
      assert.ok(takes(text), text);
    for (const text of [
      'x = a.b',
      'x = a[0]',
      'x = str(round(a))',
      'x = a && b',
      'x = null',
      'addVar(x, [a])',
      'addVar(x, [1,])',
      'x = addVar(y, [])',
      'addVar(x, a + 1)',
      'if(None, None, "x > 1")',
      'return(x)',
      '}',
      'function f(a, 1) {',
      'function addVar(a) {',
      'function f(a)',
      'RequestGet(, , , reply)',
      'print(x)',
      'x = 1;',
      'x = "open',
      'x = 1 # note',
      'addVar(x, $g)',
      'año = 1',
      'x = 1 /* c */',
      'End()',
      'x = EndLoop()',
      'x = helper(a + 1)',
    ])
      assert.ok(!takes(text), text);
  });

  it('takes a function: its header, body, return and closing brace', () => {
    const program = [
      'function total(a, b) {',
      '  s = a + b',
      '  return(s)',
      '}',
      'x = total(1, 2)',
      'addResult(x)',
    ].join('\n');
    assert.equal(plainShare([program]), 1);
    same(program);
  });

  it('takes a function written on one line and reports its body as the analysis does, with the proven fix', () => {
    const lines = ['function helper(a) { return(a) }', 'function none() { }', 'function two(a, b) { x = a + b }'];
    for (const line of lines) assert.ok(takes(line), line);
    for (const line of ['function open(a) { return(a)', 'function addVar(a) { return(a) }', 'function f(1) { }']) {
      assert.ok(!takes(line), line);
    }
    const program = `${lines.join('\n')}\nr = helper(1)\nr2 = two(1, 2)\naddResult(r)\n`;
    same(program);
    const result = validateAvap(program);
    assert.deepEqual(
      result.trace.map((e) => [e.line, e.code, e.fix !== undefined]),
      [
        [1, 'function-body-inline', true],
        [3, 'function-body-inline', true],
      ],
    );
    const bodies = [
      'return(a)',
      'return(a) ',
      'x = 1',
      '',
      '{}',
      'return({"a": 1})',
      'print(a)',
      'if(a, 1, ==)',
      '`${a}`',
    ];
    for (const body of bodies) {
      for (const prefix of ['', 'function g(a) {\n}\n', 'startLoop(i, 0, 2)\n']) {
        same(`${prefix}function f(a, b) { ${body} }\nf(1, 2)\nfunction f(a) { ${body} }\n`);
      }
    }
  });

  it("reports addVar's words and literals stored as text as the analysis does, with their words and proven fixes", () => {
    const targets = ['x', '"x"', "'x'", '"a b"', '1', '`t`', '', 'None'];
    const values = ['None', 'True', 'False', 'true', 'false', 'null', 'nil', 'toString', 'x', '"True"', ''];
    values.push('[]', '{}', '[ ]', '[1, "a", None]', '["x"  ,False]', '[[1], {}]', '{"a": 1, "b": [true, {}]}');
    values.push('{"k":"v"}', '{1: 2}', '{a: 1}', '{"a" 1}', '[1,]', '[a]', '[`t`]', '[null]', '[toString]', '[-1]');
    values.push('[1.5, 2]', '[1] + [2]', '[1], 2', '{', '[[[[[[[[[[]]]]]]]]]]', '[[[[[[[[[]]]]]]]]]', '["a  b"]');
    for (const target of targets) {
      for (const value of values) {
        for (const tail of ['', '  // c', ' x']) {
          const call = `addVar(${target}, ${value})${tail}`;
          same(`${call}\naddResult(x)`);
          same(`addParam("q", q)\nif(q, None, !=)\n  ${call}\nelse()\n  ${call}\nend()\naddResult(x)\n`);
          same(`function f(a) {\n  ${call}\n  return(x)\n}\ny = f(1)\n${call}\n`);
        }
      }
    }
  });

  it('refuses binary content as the guard does, wherever the control characters are', () => {
    // Plain lines have none, so the check counts them in the other lines only (guard.ts binaryCheckIn).
    const plain = 'addVar(total, 0)\nx = total + 1 // note\n'.repeat(40);
    const verdicts = new Set<boolean>();
    for (const count of [0, 1, 100, 180, 200, 220, 300, 2000]) {
      for (const where of ['comment', 'string', 'code', 'block comment']) {
        const noise = '\u0001'.repeat(count);
        const line =
          where === 'comment'
            ? `// ${noise}`
            : where === 'string'
              ? `x = "${noise}"`
              : where === 'code'
                ? `x = 1 ${noise}`
                : `/* ${noise} */`;
        for (const text of [`${plain}${line}\n`, `${line}\n${plain}`, `${plain}${line}\n${plain}`]) {
          const refused = validateAvap(text).trace[0]?.code === Rule.BinaryContent.code;
          assert.equal(refused, !guardInput(text, 1 << 20).ok, `${where}, ${count} control characters`);
          verdicts.add(refused);
        }
      }
    }
    assert.deepEqual([...verdicts].sort(), [false, true], 'texts on both sides of the line');
  });

  it("gives the scanner's output on every program of the repository", function () {
    this.timeout(120_000);
    const files = execFileSync('git', ['ls-files', '*.avap'], { cwd: REPO, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f !== '');
    assert.ok(files.length > 100, `${files.length} programs`);
    for (const file of files) same(readFileSync(path.join(REPO, file), 'utf8'));
  });

  it("gives the scanner's output on generated endpoints, and takes most of their lines", function () {
    this.timeout(120_000);
    const programs = [...generatedEndpoints(30, 30), ...generatedEndpoints(33, 30)];
    for (const text of programs) same(text);
    const share = plainShare(programs);
    assert.ok(share > 0.8, `plain lines: ${(share * 100).toFixed(1)} %`);
  });

  it("gives the scanner's output on the fix-its' mutants", function () {
    this.timeout(120_000);
    for (const m of mutations(mutationSeeds(), { seed: MUTATION_SEED, perKind: 20 })) same(m.source);
  });

  it('reads in place only templates the template check finds nothing in, and the usual ones', () => {
    const piece = fc.constantFrom('${', '}', ' ', '\t', 'a', 'Z', '_', '1', '.', '\u00a0', 'é', '$', '{', '`', '\n');
    const findings = (template: string) => {
      const analyzer = new Analyzer(template, new Reporter(100));
      checkTemplate(analyzer, { kind: TokenKind.Template, start: 0, end: template.length, text: template });
      return analyzer.rep.entries.length;
    };
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        const template = `\`${pieces.join('')}\``;
        if (plainTemplate(template, 0, template.length)) assert.equal(findings(template), 0, template);
      }),
      { numRuns: 20_000, seed: 35 },
    );
    for (const usual of ['`t`', '`${x}`', '`${ order.total }`', '`a ${x} b ${y_2}`', '`${\tx\t}`']) {
      assert.ok(plainTemplate(usual, 0, usual.length), usual);
    }
  });

  it("gives the scanner's output on random lines", function () {
    this.timeout(120_000);
    fc.assert(
      fc.property(program, (text) => same(text)),
      { numRuns: 6000, seed: 30 },
    );
    fc.assert(
      fc.property(blocked, (text) => same(text)),
      { numRuns: 500, seed: 31 },
    );
  });
});
