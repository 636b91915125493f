/**
 * JavaScript's `!` as AVAP's `not`. `!` binds to the operand
 * right after it; `not` binds more loosely than a comparison or arithmetic, so
 * `x = !a == b` written `x = not a == b` means `not (a == b)`. The plain word
 * swap is the repair only when nothing of higher precedence follows the
 * operand; otherwise the repair keeps the operand apart: `(not a) == b`.
 */
import { isOp, isPunct, isWord, TokenKind, type Token } from '../scanner';
import type { Candidate } from './candidates';
import { tokenAt } from '../cursor';

/** Tokens an operand may span before the question is given up on (a scan per `!` stays bounded). */
const MAX_OPERAND_TOKENS = 256;

/** Index after the bracket group opening at `open`, or -1 (unbalanced, or longer than the bound). */
function groupEnd(t: readonly Token[], open: number, to: number): number {
  let depth = 0;
  for (let j = open; j < to && j - open < MAX_OPERAND_TOKENS; j++) {
    const x = tokenAt(t, j);
    if (x.kind !== TokenKind.Punct) continue;
    if (x.text === '(' || x.text === '[' || x.text === '{') depth++;
    else if (x.text === ')' || x.text === ']' || x.text === '}') {
      depth--;
      if (depth === 0) return j + 1;
      if (depth < 0) return -1;
    }
  }
  return -1;
}

/**
 * Index after the operand `!` at `bang` applies to — prefix operators, then
 * a name, literal or bracketed group, then attribute, call and index
 * suffixes — or -1 when it cannot be told.
 */
function operandEnd(t: readonly Token[], bang: number, to: number): number {
  let j = bang + 1;
  while (j < to && (isOp(t[j], '!') || isOp(t[j], '-') || isOp(t[j], '+') || isWord(t[j], 'not'))) j++;
  const head = t[j];
  if (!head || j >= to) return -1;
  if (isPunct(head, '(') || isPunct(head, '[') || isPunct(head, '{')) j = groupEnd(t, j, to);
  else if (
    head.kind === TokenKind.Ident ||
    head.kind === TokenKind.Number ||
    head.kind === TokenKind.String ||
    head.kind === TokenKind.Template ||
    head.kind === TokenKind.Global
  )
    j++;
  else return -1;
  while (j !== -1 && j < to && j - bang < MAX_OPERAND_TOKENS) {
    if (isPunct(t[j], '.') && t[j + 1]?.kind === TokenKind.Ident) j += 2;
    else if (isPunct(t[j], '(') || isPunct(t[j], '[')) j = groupEnd(t, j, to);
    else break;
  }
  return j;
}

/** What may follow a `not` operand without joining it: the end, a closer, a separator, and/or, a conditional. */
function endsOperand(x: Token | undefined): boolean {
  if (!x) return true;
  if (x.kind === TokenKind.Punct) return [')', ']', '}', ',', ':', ';'].includes(x.text);
  if (x.kind === TokenKind.Op) return x.text === '&&' || x.text === '||';
  return isWord(x, 'and') || isWord(x, 'or') || isWord(x, 'if') || isWord(x, 'else');
}

export interface NegationRepair {
  /** `not ` in place of `!`, when that keeps the meaning. */
  suggestion?: string;
  /** Otherwise, `(not …)` around the operand, when the operand can be told. */
  hint?: Candidate;
  /** The operand, for the message, when it needs its parentheses. */
  operand?: string;
}

/** The repair of the `!` at `bang` in tokens[…, to). */
export function negationRepair(t: readonly Token[], bang: number, to: number): NegationRepair {
  const end = operandEnd(t, bang, to);
  if (end === -1) return {};
  if (end >= to || endsOperand(t[end])) return { suggestion: 'not ' };
  const first = tokenAt(t, bang);
  const last = tokenAt(t, end - 1);
  // The operand as written: tokens joined with the spaces they had between them.
  let operand = '';
  for (let k = bang + 1; k < end; k++) {
    const x = tokenAt(t, k);
    operand += k > bang + 1 && x.start > tokenAt(t, k - 1).end ? ` ${x.text}` : x.text;
  }
  return {
    operand,
    hint: {
      title: `Negate the operand alone: '(not ${operand})'`,
      edits: [
        { start: first.start, end: first.end, newText: '(not ' },
        { start: last.end, end: last.end, newText: ')' },
      ],
    },
  };
}
