/**
 * if(…) and else(): the three-argument comparison, the quoted expression of if(None, None, "…"), the
 * older four-argument form, and the expression written where the arguments belong (`if(x > 5)`).
 */
import type { Block } from '../blocks';
import { isCloseBracket, isOpenBracket, matchBracket, parseCall, type CallArg, type ParsedCall } from '../calls';
import { COMPARATORS, COMPARATOR_FIXES, findForeignOperator, findForeignWord } from '../catalogue';
import { Rule } from '../catalogue/rules';
import { firstOf, lastOf, tokenAt } from '../cursor';
import { checkExpression, reportForeignTokens } from '../expressions';
import { ElseIfRewrite } from '../fixes/branches';
import type { FixHint } from '../fixes/candidates';
import { TokenKind, isPunct, isWord, newScanState, scanLine, type Token } from '../scanner';
import { abbreviate } from '../wording';
import { foreignElse, trailing } from './braces';
import { bracketProblems, checkArgumentContents } from './commands';
import type { AnalysisContext } from './context';
import { lexical } from './lexicalFindings';
import { bareWord, unrecognized } from './statements';

/** Operands if(a, b, comparator) compares as they are: a name (its value), a global, a number or a string. */
const PLAIN_OPERANDS: ReadonlySet<TokenKind> = new Set([
  TokenKind.Ident,
  TokenKind.Global,
  TokenKind.Number,
  TokenKind.String,
]);

export function ifStatement(ctx: AnalysisContext, t: Token[]): void {
  const t0 = firstOf(t);
  if (!isPunct(t[1], '(')) {
    // e.g. `if#(…)` or `if x:`; still open the block so its end() matches.
    ctx.reportTokens({
      rule: Rule.MissingParentheses,
      from: t0,
      to: lastOf(t),
      message: "expected '(' after 'if' — if(variable, value, comparator)",
    });
    ctx.blocks.push({
      kind: 'if',
      line: ctx.lineNo,
      column: ctx.col(t0.start),
      endColumn: ctx.col(t0.end),
      token: 'if',
    });
    return;
  }
  const call = parseCall(ctx.src, t, 1, ctx.lineEnd);
  bracketProblems(ctx, t, call);
  const block: Block = {
    kind: 'if',
    line: ctx.lineNo,
    column: ctx.col(t0.start),
    endColumn: ctx.col(t0.end),
    token: 'if',
  };
  ctx.blocks.push(block);
  checkIfArguments(ctx, t, call);
  checkArgumentContents(ctx, t, call);
  trailing(ctx, t, call, block);
}

function checkIfArguments(ctx: AnalysisContext, t: Token[], call: ParsedCall): void {
  const args = call.args;
  const t0 = firstOf(t);
  const isNone = (a: CallArg | undefined) => a !== undefined && (a.text === '' || a.text === 'None');
  const [only, , cond] = args;
  if (args.length === 3 && cond) {
    const condToken = t[cond.first];
    if (isNone(args[0]) && isNone(args[1]) && cond.last - cond.first === 1 && condToken?.kind === TokenKind.String) {
      checkConditionString(ctx, condToken);
      return;
    }
    checkComparator(ctx, t, cond);
    return;
  }
  if (args.length === 4 && cond) {
    ctx.report({
      rule: Rule.LegacyIf,
      start: t0.start,
      end: t0.end,
      message:
        'four-argument if(variable, value, comparator, expression) is an older documented form — prefer if(a, b, comparator) or if(None, None, "expression")',
      token: 'if',
    });
    checkComparator(ctx, t, cond);
    return;
  }
  const closeToken = call.closeIndex >= 0 ? tokenAt(t, call.closeIndex) : lastOf(t);
  if (args.length === 1 && only) {
    const arg = only;
    reportForeignTokens(t, arg.first, arg.last, ctx);
    const fix = ifExpressionFix(t, arg);
    if (fix !== undefined) {
      ctx.report({
        rule: Rule.IfExpression,
        start: arg.start,
        end: arg.end,
        message: `'if' takes (left, right, comparator), not an expression — write if(${fix})`,
        token: arg.text,
        suggestion: fix,
      });
      return;
    }
  }
  ctx.reportTokens({
    rule: Rule.Arity,
    from: t0,
    to: closeToken,
    message: `'if' expects 3 arguments (variable, variableValue, comparator), got ${args.length}`,
  });
}

/** The arguments of if() for a foreign condition written as tokens [first, end) (`if x > 5:`). */
export function conditionArguments(
  ctx: AnalysisContext,
  t: readonly Token[],
  first: number,
  end: number,
): string | undefined {
  const a = tokenAt(t, first);
  const b = tokenAt(t, end - 1);
  return ifExpressionFix(t, {
    first,
    last: end,
    start: a.start,
    end: b.end,
    text: ctx.src.slice(a.start, b.end),
  });
}

/** For `if(x > 5)` returns `x, 5, >`; for `if(a > 1 and b)` the expression form. */
function ifExpressionFix(t: readonly Token[], arg: CallArg): string | undefined {
  const comparisons: number[] = [];
  let logical = false;
  let foreign = false;
  let depth = 0;
  for (let i = arg.first; i < arg.last; i++) {
    const x = t[i];
    if (x === undefined) break;
    if (isOpenBracket(x)) depth++;
    else if (isCloseBracket(x)) depth--;
    else if (depth === 0 && x.kind === TokenKind.Op) {
      if (COMPARATORS.has(x.text) || COMPARATOR_FIXES.has(x.text)) comparisons.push(i);
      if (findForeignOperator(x.text) || x.text === '!') foreign = true;
    } else if (depth === 0 && (isWord(x, 'and') || isWord(x, 'or') || isWord(x, 'not') || isWord(x, 'in'))) {
      logical = true;
    }
  }
  if (comparisons.length === 0 && !logical) return undefined;
  // if(a, b, >) compares a name's value or a literal: an expression there would be compared as its text,
  // so `a + 1 > b` becomes the expression form.
  const at = comparisons[0];
  const plain = (x: Token | undefined) => x !== undefined && PLAIN_OPERANDS.has(x.kind) && !x.unterminated;
  if (at !== undefined && comparisons.length === 1 && !logical) {
    if (at === arg.first || at === arg.last - 1) return undefined;
    if (at - arg.first === 1 && arg.last - at === 2 && plain(t[arg.first]) && plain(t[at + 1])) {
      const comparator = COMPARATOR_FIXES.get(tokenAt(t, at).text) ?? tokenAt(t, at).text;
      // `x == null` compares with None: `null` as an operand would be the text "null".
      const operand = (x: Token) => findForeignWord(x.text)?.suggestion ?? x.text;
      return `${operand(tokenAt(t, arg.first))}, ${operand(tokenAt(t, at + 1))}, ${comparator}`;
    }
  }
  if (foreign) return undefined;
  const quote = arg.text.includes('"') ? "'" : '"';
  if (arg.text.includes(quote)) return undefined;
  return `None, None, ${quote}${arg.text}${quote}`;
}

function checkComparator(ctx: AnalysisContext, t: readonly Token[], arg: CallArg): void {
  if (arg.text === '') {
    ctx.report({
      rule: Rule.InvalidComparator,
      start: arg.start,
      end: arg.end,
      message: 'missing comparator (argument 3 of if) — one of = == != < > <= >= in',
      token: '',
    });
    return;
  }
  const single = arg.last - arg.first === 1 ? t[arg.first] : undefined;
  const value =
    single && single.kind === TokenKind.String && !single.unterminated ? single.text.slice(1, -1).trim() : arg.text;
  if (COMPARATORS.has(value)) return;
  const fix = COMPARATOR_FIXES.get(value);
  ctx.report({
    rule: Rule.InvalidComparator,
    start: arg.start,
    end: arg.end,
    message: `invalid comparator '${abbreviate(value, 20)}' — expected one of = == != < > <= >= in`,
    token: arg.text,
    suggestion: fix,
  });
}

/** The quoted condition of if(None, None, "…") is an expression. */
function checkConditionString(ctx: AnalysisContext, token: Token): void {
  if (token.unterminated) return;
  const start = token.start + 1;
  const end = token.end - 1;
  if (ctx.src.slice(start, end).trim() === '') {
    ctx.report({
      rule: Rule.EmptyCondition,
      start: token.start,
      end: token.end,
      message: 'empty condition in if(None, None, "…")',
      token: token.text,
    });
    return;
  }
  const inner = scanLine(ctx.src, { start, end }, newScanState(), (problem, s, e) => lexical(ctx, problem, s, e));
  if (inner.length === 0) return;
  checkExpression(inner, 0, inner.length, ctx);
}

export function elseStatement(ctx: AnalysisContext, t: Token[]): void {
  const t0 = firstOf(t);
  const t1 = t[1];
  const lastToken = lastOf(t);
  if (isPunct(t1, '(')) {
    const call = parseCall(ctx.src, t, 1, ctx.lineEnd);
    bracketProblems(ctx, t, call);
    if (call.args.length > 0) {
      const close = call.closeIndex >= 0 ? tokenAt(t, call.closeIndex) : lastToken;
      ctx.reportTokens({
        rule: Rule.Arity,
        from: t0,
        to: close,
        message: `'else' takes no arguments, got ${call.args.length}`,
        suggestion: 'else()',
      });
    }
    ctx.blocks.else(ctx.site(t0));
    trailing(ctx, t, call, ctx.blocks.top);
    return;
  }
  if (isWord(t1, 'if')) {
    ctx.reportTokens({
      rule: Rule.ElseIf,
      from: t0,
      to: lastToken,
      message: `unexpected construct '${abbreviate(ctx.src.slice(t0.start, lastToken.end), 40)}' — AVAP has no else-if: nest if() … end() inside else()`,
      hint: elseIfFix(ctx, t),
    });
    return;
  }
  if (isPunct(t1, '{') || isPunct(t1, ':')) {
    foreignElse(ctx, t);
    ctx.blocks.else(ctx.site(t0));
    return;
  }
  if (t.length === 1) return bareWord(ctx, t0);
  unrecognized(ctx, t);
}

/** `else if(a, b, >)` (or `else if (x > 5)`) of an open if() without else(): nested into else(). */
function elseIfFix(ctx: AnalysisContext, t: Token[]): FixHint | undefined {
  const top = ctx.blocks.top;
  if (top?.kind !== 'if' || top.hasElse || top.braceBody || top.lineStart === undefined || !isPunct(t[2], '('))
    return undefined;
  if (matchBracket(t, 2) !== t.length - 1) return undefined;
  const call = parseCall(ctx.src, t, 2, ctx.lineEnd);
  const only = call.args[0];
  const args =
    call.args.length === 3
      ? ctx.src.slice(tokenAt(t, 2).end, lastOf(t).start).trim()
      : call.args.length === 1 && only
        ? ifExpressionFix(t, only)
        : undefined;
  if (args === undefined) return undefined;
  const rewrite = new ElseIfRewrite(t, args, top.lineStart);
  (top.elseIfs ??= []).push(rewrite);
  return rewrite.hint();
}
