/**
 * The words and operators of an expression, and the shape most expressions have: operands joined by operators,
 * without brackets — `"ORD-" + code`, `total * 2 - 1`, `a if n > 3 else b`. The expression checker
 * (expressions.ts) reads such an expression in one loop instead of its recursive descent (about ten calls per
 * operand), and hands every other expression to the descent.
 */
import { TokenKind, type Token } from './scanner';

/**
 * A word reserved in expressions (and, or, not, in, is, if, else), told by comparing the name with the words of its
 * length: a set would hash the token's fresh string, which for an operand nothing else does.
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
 * At most this many `not`, sign and `else` words in a flat expression: the descent nests one level for each, so
 * below this its depth stays far under MAX_EXPRESSION_DEPTH (100) and a flat expression is never too deep.
 */
const MAX_FLAT_NESTING = 32;

/** The identifier `word`, read directly (this runs for every token of most expressions). */
function isWordAt(tokens: readonly Token[], i: number, word: string): boolean {
  const t = tokens[i];
  return t !== undefined && t.kind === TokenKind.Ident && t.text === word;
}

/**
 * tokens[from, to) is a well-formed expression of the flat shape:
 *
 *     expression := or-chain ('if' or-chain 'else' expression)?
 *     or-chain   := 'not'* comparison (('and' | 'or') 'not'* comparison)*
 *     comparison := operand (operator operand)*     operator: + - * / % ** == != < > <= >=, in, not in, is, is not
 *     operand    := ('-' | '+')* (number | string | template | $global | a name that is not a reserved word)
 *
 * with at most MAX_FLAT_NESTING nesting words. The descent accepts each of these with no finding, and reads its
 * templates in token order; false says only that the expression is not of this shape (the descent decides).
 */
export function isFlatExpression(tokens: readonly Token[], from: number, to: number): boolean {
  if (to > tokens.length || from >= to) return false;
  let i = from;
  let nesting = 0;
  /** Reading the condition of `a if condition else b`: it must be followed by `else`. */
  let condition = false;
  for (;;) {
    // One or-chain: its comparisons, each after its `not`s.
    for (;;) {
      while (isWordAt(tokens, i, 'not')) {
        i++;
        nesting++;
      }
      // One comparison: operands between operators.
      for (;;) {
        let t = tokens[i];
        while (t !== undefined && t.kind === TokenKind.Op && (t.text === '-' || t.text === '+')) {
          nesting++;
          t = tokens[++i];
        }
        if (t === undefined || i >= to) return false;
        const kind = t.kind;
        if (kind === TokenKind.Ident) {
          if (isReserved(t.text)) return false;
        } else if (
          kind !== TokenKind.Number &&
          kind !== TokenKind.String &&
          kind !== TokenKind.Template &&
          kind !== TokenKind.Global
        ) {
          return false;
        }
        i++;
        if (i >= to) return !condition && nesting <= MAX_FLAT_NESTING;
        const next = tokens[i] as Token; // i < to <= tokens.length
        if (next.kind === TokenKind.Op) {
          if (!isBinaryOperator(next.text)) return false;
          i++;
        } else if (next.kind !== TokenKind.Ident) {
          return false;
        } else if (next.text === 'in') {
          i++;
        } else if (next.text === 'not' && isWordAt(tokens, i + 1, 'in')) {
          i += 2;
        } else if (next.text === 'is') {
          i++;
          if (isWordAt(tokens, i, 'not')) i++;
        } else {
          break;
        }
      }
      // tokens[i] is a word after a comparison (i < to): `and`/`or` goes on with the chain.
      if (!isWordAt(tokens, i, 'and') && !isWordAt(tokens, i, 'or')) break;
      i++;
    }
    if (condition) {
      if (!isWordAt(tokens, i, 'else')) return false;
      condition = false;
      nesting++;
    } else if (isWordAt(tokens, i, 'if')) {
      condition = true;
    } else {
      return false;
    }
    i++;
  }
}
