/**
 * The words and operators of an expression, and a shortcut past the expression checker's recursive descent
 * (expressions.ts) for the expressions it finds nothing in — nearly all of them. The descent makes about ten calls
 * per operand (a level of the grammar each, most of them counting depth); the shortcut reads the tokens in one
 * loop, with a stack of the brackets it is in. It accepts only what the descent accepts without a finding,
 * and says which calls the descent would make to its host (the templates it checks, the calls of bare names it
 * notes), in the descent's order; anything else — a finding, a shape it does not read — is left to the descent.
 * test/unit/parser/expressionShortcut.test.ts holds it to the descent.
 */
import { TokenKind, type Token } from './scanner';
import { MAX_EXPRESSION_DEPTH } from './types';

/** The words reserved in expressions (isReserved tells them apart without a set). */
export const RESERVED_WORDS: readonly string[] = ['and', 'or', 'not', 'in', 'is', 'if', 'else'];

/**
 * A word of RESERVED_WORDS, told by comparing the name with the words of its length: a set would hash the token's
 * fresh string, which for an operand nothing else does.
 */
export function isReserved(text: string): boolean {
  switch (text.length) {
    case 2:
      return text === 'or' || text === 'in' || text === 'is' || text === 'if';
    case 3:
      return text === 'and' || text === 'not';
    case 4:
      return text === 'else';
    default:
      return false;
  }
}

/** The binary operators between two operands: comparisons (`==`, `!=`, `<`, `>`, `<=`, `>=`) and arithmetic. */
export function isBinaryOperator(op: string): boolean {
  if (op.length === 1) {
    switch (op) {
      case '<':
      case '>':
      case '+':
      case '-':
      case '*':
      case '/':
      case '%':
        return true;
      default:
        return false;
    }
  }
  return op === '==' || op === '!=' || op === '<=' || op === '>=' || op === '**';
}

/**
 * Brackets nested deeper than this are left to the descent. With them, the descent's depth stays within
 * MAX_EXPRESSION_DEPTH when 3 + 4 × brackets + nesting words ≤ it (see readExpression).
 */
const MAX_BRACKETS = 16;

/**
 * Where the reader is in the grammar of one bracket level (the descent's levels, flattened):
 * expression := or-chain ('if' or-chain 'else' expression)?; or-chain := 'not'* comparison (('and' | 'or') …)*;
 * comparison := unary (operator unary)*; unary := ('-' | '+')* operand; operand := primary (call | subscript | .name)*.
 */
const enum At {
  /** Where `not`s may come: the start of an expression, after `and`, `or`, `if` or `else`. */
  Not,
  /** Where signs and then an operand come: after `not`s or an operator. */
  Operand,
  /** After an operand: its calls, subscripts and attributes. */
  Postfix,
  /** After a whole operand: an operator, a word joining or-chains or conditions, or the end of the expression. */
  Operator,
  /** At the closer of the innermost bracket, its elements counted. */
  Close,
}

/** What an open bracket is, and where in it the reader is. */
const enum Bracket {
  /** `f(…)`: a call's arguments. */
  Call,
  /** `(…)` or `[…]` as an operand: a group, a tuple, a list. */
  Sequence,
  DictKey,
  DictValue,
  /** `a[…]` before its `:`, if any. */
  Index,
  /** `a[…:…]` after the `:`. */
  Slice,
}

/** The open brackets, innermost last: what each is, its closer, its element count, and what it saved. */
const kinds = new Int32Array(MAX_BRACKETS + 1);
const closers: string[] = new Array<string>(MAX_BRACKETS + 1).fill(')');
const counts = new Int32Array(MAX_BRACKETS + 1);
/** A call: the index of the bare name it calls (-1: none to note). A subscript: the operand's, to go on with. */
const notes = new Int32Array(MAX_BRACKETS + 1);
/** The level around the bracket was reading the condition of `a if condition else b`. */
const conditions = new Uint8Array(MAX_BRACKETS + 1);

const NO_CALLS: readonly number[] = [];

/**
 * tokens[from, to) as the descent reads it, when the descent finds nothing in it: the calls it would make to its
 * host — pairs of a token's index and -1 for a template it checks, or the argument count of the call of that bare
 * name it notes — or undefined: the descent decides. Only for an expression in which no foreign token was reported
 * (the descent then reads `await`, `new` and `typeof` differently).
 */
export function readExpression(tokens: readonly Token[], from: number, to: number): readonly number[] | undefined {
  if (to > tokens.length || from >= to) return undefined;
  let calls: number[] | undefined;
  let at = At.Not;
  let i = from;
  /** Brackets open, and the most at once. */
  let depth = 0;
  let deepest = 0;
  /** `not`s, signs and `else`s: the descent nests a level for each. */
  let nesting = 0;
  /** This level is reading the condition of `a if condition else b` (it must go on with `else`). */
  let condition = false;
  /** The index of the operand's bare name while its first call would be noted (-1: none). */
  let note = -1;
  for (;;) {
    const t = i < to ? tokens[i] : undefined;
    switch (at) {
      case At.Not:
        if (t !== undefined && t.kind === TokenKind.Ident && t.text === 'not') {
          i++;
          nesting++;
          continue;
        }
        at = At.Operand;
        continue;
      case At.Operand:
        if (t === undefined) return undefined;
        if (t.kind === TokenKind.Op && (t.text === '-' || t.text === '+')) {
          i++;
          nesting++;
          continue;
        }
        switch (t.kind) {
          case TokenKind.Template:
            (calls ??= []).push(i, -1);
            note = -1;
            break;
          case TokenKind.Number:
          case TokenKind.String:
          case TokenKind.Global:
            note = -1;
            break;
          case TokenKind.Ident:
            if (isReserved(t.text)) return undefined;
            note = i;
            break;
          case TokenKind.Punct:
            if (t.text !== '(' && t.text !== '[' && t.text !== '{') return undefined;
            if (depth === MAX_BRACKETS) return undefined;
            kinds[depth] = t.text === '{' ? Bracket.DictKey : Bracket.Sequence;
            closers[depth] = t.text === '(' ? ')' : t.text === '[' ? ']' : '}';
            counts[depth] = 0;
            conditions[depth] = condition ? 1 : 0;
            if (++depth > deepest) deepest = depth;
            condition = false;
            i++;
            at = isPunctAt(tokens, i, to, closers[depth - 1] as string) ? At.Close : At.Not;
            continue;
          default:
            return undefined;
        }
        i++;
        at = At.Postfix;
        continue;
      case At.Postfix:
        if (t === undefined || t.kind !== TokenKind.Punct) {
          at = At.Operator;
          continue;
        }
        if (t.text === '.') {
          const name = i + 1 < to ? tokens[i + 1] : undefined;
          if (name === undefined || name.kind !== TokenKind.Ident) return undefined;
          i += 2;
          note = -1;
          continue;
        }
        if (t.text === '(' || t.text === '[') {
          if (depth === MAX_BRACKETS) return undefined;
          kinds[depth] = t.text === '(' ? Bracket.Call : Bracket.Index;
          closers[depth] = t.text === '(' ? ')' : ']';
          counts[depth] = 0;
          notes[depth] = note;
          conditions[depth] = condition ? 1 : 0;
          if (++depth > deepest) deepest = depth;
          condition = false;
          i++;
          if (t.text === '[' && isPunctAt(tokens, i, to, ':')) {
            kinds[depth - 1] = Bracket.Slice;
            i++;
          }
          at = isPunctAt(tokens, i, to, closers[depth - 1] as string) ? At.Close : At.Not;
          // An empty call or slice closes at once; an empty subscript `a[]` is not well formed.
          if (at === At.Close && kinds[depth - 1] === Bracket.Index) return undefined;
          continue;
        }
        at = At.Operator;
        continue;
      case At.Operator:
        if (t !== undefined && t.kind === TokenKind.Op) {
          if (isBinaryOperator(t.text)) {
            i++;
            at = At.Operand;
            continue;
          }
        } else if (t !== undefined && t.kind === TokenKind.Ident) {
          const word = t.text;
          if (word === 'in' || word === 'is') {
            i += word === 'is' && isWordAt(tokens, i + 1, to, 'not') ? 2 : 1;
            at = At.Operand;
            continue;
          }
          if (word === 'not' && isWordAt(tokens, i + 1, to, 'in')) {
            i += 2;
            at = At.Operand;
            continue;
          }
          if (word === 'and' || word === 'or') {
            i++;
            at = At.Not;
            continue;
          }
          if (word === 'if' && !condition) {
            condition = true;
            i++;
            at = At.Not;
            continue;
          }
          if (word === 'else' && condition) {
            condition = false;
            nesting++;
            i++;
            at = At.Not;
            continue;
          }
        }
        // The expression of this level ends here.
        if (condition) return undefined;
        if (depth === 0) {
          if (i !== to || 3 + 4 * deepest + nesting > MAX_EXPRESSION_DEPTH) return undefined;
          return calls ?? NO_CALLS;
        }
        if (t === undefined || t.kind !== TokenKind.Punct) return undefined;
        switch (afterElement(depth - 1, t.text)) {
          case Next.Closer:
            at = At.Close;
            continue;
          case Next.Separator:
            i++;
            // Another element, or the closer after a trailing `,` or a slice's `:` (not after a dictionary's `:`).
            at =
              isPunctAt(tokens, i, to, closers[depth - 1] as string) && kinds[depth - 1] !== Bracket.DictValue
                ? At.Close
                : At.Not;
            continue;
          default:
            return undefined;
        }
      case At.Close: {
        // tokens[i] is the closer of the innermost bracket.
        const level = --depth;
        condition = conditions[level] === 1;
        i++;
        const kind = kinds[level] as Bracket;
        if (kind === Bracket.Call) {
          const noted = notes[level] as number;
          if (noted >= 0) (calls ??= []).push(noted, counts[level] as number);
          note = -1;
        } else {
          note = kind === Bracket.Index || kind === Bracket.Slice ? (notes[level] as number) : -1;
        }
        at = At.Postfix;
        continue;
      }
    }
  }
}

/** What follows an element of a bracket. */
const enum Next {
  Closer,
  /** `,`, a dictionary's `:` or a slice's `:`, before the next element. */
  Separator,
  /** Anything else: not well formed. */
  Neither,
}

/** An element of the bracket at `level` has ended before the punctuation mark `text`: counts it, and says what comes. */
function afterElement(level: number, text: string): Next {
  const closer = closers[level] as string;
  switch (kinds[level] as Bracket) {
    case Bracket.Call:
    case Bracket.Sequence:
      counts[level] = (counts[level] as number) + 1;
      if (text === closer) return Next.Closer;
      return text === ',' ? Next.Separator : Next.Neither;
    case Bracket.DictKey:
      if (text !== ':') return Next.Neither;
      kinds[level] = Bracket.DictValue;
      return Next.Separator;
    case Bracket.DictValue:
      if (text === closer) return Next.Closer;
      if (text !== ',') return Next.Neither;
      kinds[level] = Bracket.DictKey;
      return Next.Separator;
    case Bracket.Index:
      if (text === closer) return Next.Closer;
      if (text !== ':') return Next.Neither;
      kinds[level] = Bracket.Slice;
      return Next.Separator;
    case Bracket.Slice:
      return text === closer ? Next.Closer : Next.Neither;
  }
}

function isPunctAt(tokens: readonly Token[], i: number, to: number, text: string): boolean {
  const t = i < to ? tokens[i] : undefined;
  return t !== undefined && t.kind === TokenKind.Punct && t.text === text;
}

function isWordAt(tokens: readonly Token[], i: number, to: number, word: string): boolean {
  const t = i < to ? tokens[i] : undefined;
  return t !== undefined && t.kind === TokenKind.Ident && t.text === word;
}
