/**
 * The expression checker's shortcut (src/parser/flatExpression.ts) takes an expression as well formed without its
 * recursive descent: it may only do so where the descent finds nothing, and the checker then reads the templates
 * the descent would have read, in the same order.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
// internal-import: the shortcut, held to the descent it stands in for
import { isFlatExpression } from '../../../src/parser/flatExpression';
// internal-import: the recursive descent alone, the judge of the shortcut
import { descend } from '../../../src/parser/expressions';
// internal-import: the scanner, to read the generated expressions as the analysis does
import { newScanState, scanLine, TokenKind, type Token } from '../../../src/parser/scanner';

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

/** Holds the shortcut to the descent on `text`; true when the shortcut took it. */
function holds(text: string): boolean {
  const tokens = scan(text);
  if (!isFlatExpression(tokens, 0, tokens.length)) return false;
  const templates = tokens.filter((t) => t.kind === TokenKind.Template).map((t) => `template at ${t.start}`);
  assert.deepEqual(descent(tokens), { wellFormed: true, calls: templates }, text);
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

describe('parser: flat expressions', () => {
  it('takes the usual flat expressions, and the descent finds them well formed', () => {
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
    ]) {
      assert.equal(holds(text), true, text);
    }
  });

  it('leaves to the descent what is not flat or not well formed', () => {
    for (const text of [
      '',
      'str(a)',
      'a[0]',
      'a.b',
      '{}',
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
      `${'- '.repeat(40)}1`,
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
    const operand = fc.constantFrom('a', '1', '"s"', '`${a}`', '`${1}`', '$g', 'if', 'not', '-', '(a)', 'f(a)');
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
    assert.equal(isFlatExpression(tokens, 0, 3), true);
    assert.equal(isFlatExpression(tokens, 0, 2), false);
    assert.equal(isFlatExpression(tokens, 0, 4), false);
    assert.equal(isFlatExpression(tokens, 0, 5), false);
    assert.equal(isFlatExpression(tokens, 3, 4), true);
  });
});
