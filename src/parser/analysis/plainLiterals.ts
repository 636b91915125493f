/**
 * addVar's list and dictionary literals as the plain reader reads them (plainLines.ts), from its typed-array tokens:
 * the literals literals.ts literalKind accepts, read the same way (literalEnd), named the same way, and written as an
 * assignment writes them (wording.ts valueLiteral). `addVar(rows, [])` is then a plain line that reports what the
 * statement checks report for it.
 */
import { collectionKind, isLiteralWord } from './literals';
import { avapWord } from '../wording';
import { reportStoredLiteral } from './commands';
import type { AnalysisContext } from './context';
import { T, type LineTokens } from './plainTokens';

/** A scalar literal: a number, a string (a plain line's are closed), None or a boolean (literals.ts isScalar). */
function isScalar(r: LineTokens, k: number): boolean {
  const kind = r.kinds[k];
  return kind === T.Number || kind === T.String || (kind === T.Ident && isLiteralWord(r.text(k)));
}

/** Index after the literal (scalar, or list / dict literal of literals) starting at token `k`, or -1 (literalEnd). */
function plainLiteralEnd(r: LineTokens, k: number, end: number, depth = 0): number {
  if (isScalar(r, k)) return k + 1;
  const list = r.kinds[k] === T.OpenBracket;
  if ((!list && r.kinds[k] !== T.OpenBrace) || depth > 8) return -1;
  const close = list ? T.CloseBracket : T.CloseBrace;
  let j = k + 1;
  if (r.kinds[j] === close) return j + 1;
  while (j < end) {
    if (!list) {
      if (!isScalar(r, j) || r.kinds[j + 1] !== T.Colon) return -1;
      j += 2;
    }
    j = plainLiteralEnd(r, j, end, depth + 1);
    if (j === -1) return -1;
    if (r.kinds[j] === close) return j + 1;
    if (r.kinds[j] !== T.Comma) return -1;
    j++;
  }
  return -1;
}

/**
 * The line is `name(target, <list or dict literal>)`: one token, a comma, then a literal that ends where the call's
 * `)` ends the line (the reader then takes `addVar(rows, [])` as tokens 2 and 4).
 */
export function isLiteralCall(r: LineTokens): boolean {
  const n = r.count;
  const target = r.kinds[2] as T;
  const open = r.kinds[4];
  if (target < T.Ident || target > T.Template || r.kinds[3] !== T.Comma || r.kinds[n - 1] !== T.Close) return false;
  return (open === T.OpenBracket || open === T.OpenBrace) && plainLiteralEnd(r, 4, n - 1) === n - 1;
}

/** addVar's literal value, tokens [value, last): the finding addVarLiteral reports for it (commands.ts). */
export function reportStoredCollection(
  ctx: AnalysisContext,
  r: LineTokens,
  at: { value: number; last: number; name: string | undefined; statement: { start: number; end: number } },
): void {
  const { value, last, name, statement } = at;
  const start = r.starts[value] as number;
  const end = r.ends[last - 1] as number;
  const words = ctx.rep.wordless ? undefined : { name, literal: plainLiteralText(r, value, last), statement };
  reportStoredLiteral(ctx, { start, end, text: r.src.slice(start, end) }, plainLiteralKind(r, value, last), words);
}

/** What the list or dictionary literal of tokens [first, last) is (literalKind's words). */
function plainLiteralKind(r: LineTokens, first: number, last: number): string {
  return collectionKind(r.kinds[first] === T.OpenBracket, last - first === 2);
}

/** The tokens [first, last) as an assignment's value writes them (wording.ts valueLiteral). */
function plainLiteralText(r: LineTokens, first: number, last: number): string {
  let out = '';
  for (let k = first; k < last; k++) {
    if (k > first && (r.starts[k] as number) > (r.ends[k - 1] as number)) out += ' ';
    out += r.kinds[k] === T.Ident ? avapWord(r.text(k)) : r.text(k);
  }
  return out;
}
