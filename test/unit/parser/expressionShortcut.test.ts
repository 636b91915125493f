/**
 * The expression checker's shortcut (src/parser/expressionShortcut.ts) takes an expression as well formed without
 * its recursive descent: it may only do so where the descent finds nothing, and it must name the calls the descent
 * makes to its host (templates checked, calls of bare names noted), in the descent's order.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
// internal-import: the shortcut, held to the descent it stands in for
import { isReserved, readExpression, RESERVED_WORDS } from '../../../src/parser/expressionShortcut';
// internal-import: the recursive descent alone, the judge of the shortcut
import { descend } from '../../../src/parser/expressions';
// internal-import: the scanner, to read the generated expressions as the analysis does
import { newScanState, scanLine, type Token } from '../../../src/parser/scanner';

/** What the descent did with tokens[0, n): its answer, and every call it made to the host, in order. */
function descent(tokens: readonly Token[]): { wellFormed: boolean; calls: string[] } {
  const calls: string[] = [];
  const host = {
    report: (f: { rule: { code: string }; start: number }) => calls.push(`report ${f.rule.code} at ${f.start}`),
    noteCall: (t: Token, argCount: number) => calls.push(`noteCall ${t.text}/${argCount}`),
    checkTemplate: (t: Token) => calls.push(`template at ${t.start}`),
  };
  const wellFormed = descend(tokens, 0, tokens.length, { host, alreadyReported: new Set() });
  return { wellFormed, calls };
}

function scan(text: string): Token[] {
  return scanLine(text, { start: 0, end: text.length }, newScanState(), () => undefined);
}

/** The shortcut's answer on tokens[from, to), as the descent's calls read. */
function shortcut(tokens: readonly Token[], from = 0, to = tokens.length): string[] | undefined {
  const calls = readExpression(tokens, from, to);
  if (calls === undefined) return undefined;
  const named: string[] = [];
  for (let k = 0; k < calls.length; k += 2) {
    const t = tokens[calls[k] as number] as Token;
    const argCount = calls[k + 1] as number;
    named.push(argCount < 0 ? `template at ${t.start}` : `noteCall ${t.text}/${argCount}`);
  }
  return named;
}

/**
 * Holds the shortcut to the descent on `text`; true when the shortcut took it. The shortcut must also take every
 * short expression the descent finds nothing in (short: far from the depth limits), or it would save nothing there.
 */
function holds(text: string): boolean {
  const tokens = scan(text);
  const calls = shortcut(tokens);
  if (calls === undefined) {
    const { wellFormed, calls: made } = descent(tokens);
    if (tokens.length <= 40) assert.ok(!wellFormed || made.some((c) => c.startsWith('report')), `left: ${text}`);
    return false;
  }
  assert.deepEqual(descent(tokens), { wellFormed: true, calls }, text);
  return true;
}

const WORDS = [
  'a',
  'total',
  '1',
  '2.5',
  '"s"',
  "'t'",
  '`x ${a}`',
  '`${ 1 }`',
  '$g',
  '+',
  '-',
  '*',
  '/',
  '%',
  '**',
  '==',
  '!=',
  '<',
  '>=',
  'and',
  'or',
  'not',
  'in',
  'is',
  'if',
  'else',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '.',
  ',',
  ':',
  '=',
];

describe('parser: the expression shortcut', () => {
  it('tells the reserved words as their list has them (the plain reader reads the list)', () => {
    for (const word of RESERVED_WORDS) assert.ok(isReserved(word), word);
    for (const word of ['iff', 'andy', 'Not', 'els', 'is_', 'IN', 'ifx', 'x', 'elsewhere', 'or2'])
      assert.ok(!isReserved(word), word);
  });

  it('takes the usual expressions, and the descent finds them well formed with the same calls', () => {
    for (const text of [
      'a',
      '"ORD-" + code',
      '-1',
      'total * 2 - 1',
      'not a and b or not not c',
      'a not in b',
      'a is not None',
      '`invoice ${a} of ${b}` + "x"',
      'a if n > 3 else b',
      'a if b else c if d else e',
      '$g + - + 1',
      'int(a) + len(str(b))',
      'f()',
      'f(a, `${b}`, )',
      'f[0](x)(y)',
      'a.b(c)',
      '(a)(b)',
      '[1, 2][0]',
      '{"k": v, 1: [x]}["k"]',
      'a[1:]',
      'a[:2]',
      'a[:]',
      'a.not',
      '"ORD-" + str(orderNumber) if f(`${x}`) else g()',
    ]) {
      assert.equal(holds(text), true, text);
    }
  });

  it('leaves to the descent what is not well formed or too deep', () => {
    for (const text of [
      '',
      'a[]',
      'f(,)',
      'f(a',
      'a.',
      'a.1',
      '{a}',
      '{a: }',
      '(a))',
      `${'('.repeat(20)}1${')'.repeat(20)}`,
      'a +',
      'a b',
      'a if b',
      'a else b',
      'a if b if c else d',
      'not in a',
      'a == not b',
      'a not b',
      '- not a',
      'if',
      'a = b',
      `${'- '.repeat(98)}1`,
    ]) {
      assert.equal(holds(text), false, text);
    }
  });

  it('never takes an expression the descent finds anything in (random token sequences)', () => {
    let taken = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }), (words) => {
        if (holds(words.join(' '))) taken++;
      }),
      { numRuns: 20_000 },
    );
    assert.ok(taken > 100, `the shortcut was taken ${taken} times`);
  });

  it('never takes an expression the descent finds anything in (operands between random joints)', () => {
    const operand = fc.constantFrom(
      'a',
      '1',
      '"s"',
      '`${a}`',
      '`${1}`',
      '$g',
      'if',
      'not',
      '-',
      '(a)',
      'f(a)',
      'f(',
      ')',
      '[',
      ']',
      'g[0](b, `${c}`)',
      '{1: x}',
      '.b',
      ',',
      ':',
    );
    const joint = fc.constantFrom('+', '**', '==', 'and', 'or', 'in', 'not in', 'is', 'is not', 'if', 'else', 'not');
    let taken = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(joint, fc.constantFrom('', 'not', '-', '+ -'), operand), { maxLength: 8 }),
        (parts) => {
          if (holds(['a', ...parts.flat()].join(' '))) taken++;
        },
      ),
      { numRuns: 20_000 },
    );
    assert.ok(taken > 1000, `the shortcut was taken ${taken} times`);
  });

  it('stops at the end of its range, and refuses a range past the tokens', () => {
    const tokens = scan('a + b c');
    assert.deepEqual(shortcut(tokens, 0, 3), []);
    assert.equal(shortcut(tokens, 0, 2), undefined);
    assert.equal(shortcut(tokens, 0, 4), undefined);
    assert.equal(shortcut(tokens, 0, 5), undefined);
    assert.deepEqual(shortcut(tokens, 3, 4), []);
  });

  it('leaves nesting near the descent depth limit to the descent', () => {
    for (let n = 1; n < 40; n++) {
      assert.equal(holds(`${'f('.repeat(n)}1${')'.repeat(n)}`), n <= 16, `${n} calls`);
      assert.equal(holds(`${'not '.repeat(n * 3)}a`), 3 + n * 3 <= 100, `${n * 3} nots`);
    }
    for (let n = 90; n < 105; n++) assert.equal(holds(`${'- '.repeat(n)}1`), 3 + n <= 100, `${n} signs`);
  });
});
