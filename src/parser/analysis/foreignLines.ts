/**
 * Lines whose first word belongs to another language (`for x in …`, `if x > 5:`, `try:`, `let`, `def`,
 * `import`, …): reported as such, with the mechanical rewrite into AVAP where there is one.
 */
import { findForeignStatement, type ForeignStatement } from '../catalogue';
import { Rule } from '../catalogue/rules';
import { last, lastOf, tokenAt } from '../cursor';
import type { BraceConversion } from '../fixes/braces';
import { foreignIfFix, foreignTryFix } from '../fixes/branches';
import { goFuncFix, pythonDefFix } from '../fixes/functionHeaders';
import { braceLoopConversion, pythonLoopFix } from '../fixes/loopHeaders';
import { declarationFix, removeLineFix } from '../fixes/statements';
import type { FixHint } from '../fixes/candidates';
import { TokenKind, isOp, isPunct, isWord, type Token } from '../scanner';
import { abbreviate } from '../wording';
import { pushBraceIfOpened } from './braces';
import { conditionArguments } from './conditions';
import type { AnalysisContext } from './context';
import { analyzeSegments } from './lines';

/** Lines whose first word belongs to another language. Returns true when handled. */
export function foreignLine(ctx: AnalysisContext, t: Token[]): boolean {
  const t0 = t[0];
  const t1 = t[1];
  if (t0?.kind !== TokenKind.Ident || isOp(t1, '=')) return false;
  const lineText = () => ctx.src.slice(t0.start, lastOf(t).end);

  if (t0.text === 'for' && t1?.kind === TokenKind.Ident && isWord(t[2], 'in')) {
    const construct = `for ${t1.text} in ${renderIterable(ctx, t, 3)}`;
    ctx.reportTokens({
      rule: Rule.ForeignLoop,
      from: t0,
      to: lastOf(t),
      message: `unexpected construct '${construct}' — AVAP loop syntax required: startLoop(i, from, to) … endLoop()`,
      hint: pythonLoopFix(t, ctx.lineStart),
    });
    pushBraceIfOpened(ctx, t);
    return true;
  }
  if (t0.text === 'if' && t1 && !isPunct(t1, '(')) {
    const fix = foreignIfFix(t, ctx.lineStart, (tokens, first, end) => conditionArguments(ctx, tokens, first, end));
    ctx.reportTokens({
      rule: Rule.ForeignIf,
      from: t0,
      to: lastOf(t),
      message: `unexpected construct '${abbreviate(lineText(), 40)}' — AVAP conditions are if(a, b, comparator) … else() … end()`,
      hint: fix.hint,
    });
    if (isPunct(last(t), '{')) {
      ctx.blocks.push({
        kind: 'if',
        line: ctx.lineNo,
        column: ctx.col(t0.start),
        endColumn: ctx.col(t0.end),
        token: 'if',
        braceBody: true,
        conversion: fix.conversion,
      });
    }
    return true;
  }
  if ((t0.text === 'try' || t0.text === 'finally') && (isPunct(t1, ':') || isPunct(t1, '{'))) {
    const fix = foreignTryFix(t, ctx.lineStart);
    ctx.reportTokens({
      rule: Rule.ForeignTry,
      from: t0,
      to: lastOf(t),
      message: `unexpected construct '${abbreviate(lineText(), 40)}' — AVAP error handling is try() … exception(err) … end()`,
      hint: fix.hint,
    });
    pushBraceIfOpened(ctx, t, undefined, fix.conversion);
    return true;
  }
  const foreign = findForeignStatement(t0.text);
  if (!foreign || !shapeMatches(foreign, t)) return false;
  const fix = foreignStatementFix(ctx, foreign, t);
  ctx.report({
    rule: Rule.ForeignKeyword,
    start: t0.start,
    end: t0.end,
    message: `foreign keyword '${t0.text}' (${foreign.language}) — ${foreign.hint}`,
    token: t0.text,
    hint: fix.hint,
  });
  pushBraceIfOpened(ctx, t, undefined, fix.conversion);
  if (foreign.shape === 'declaration' && t.length > 1) analyzeSegments(ctx, t.slice(1));
  return true;
}

/** The mechanical repair of a line opened by a foreign keyword, where there is one. */
function foreignStatementFix(
  ctx: AnalysisContext,
  foreign: ForeignStatement,
  t: readonly Token[],
): { hint?: FixHint; conversion?: BraceConversion } {
  switch (foreign.keyword) {
    case 'let':
    case 'var':
    case 'const':
      return { hint: declarationFix(t) };
    case 'package':
    case 'import':
    case 'from':
      return { hint: removeLineFix(ctx.src, t) };
    case 'def':
      return { hint: pythonDefFix(t, ctx.lineStart) };
    case 'func':
      return goFuncFix(ctx.src, t);
    case 'for': {
      const conversion = braceLoopConversion(t, ctx.lineStart);
      return conversion ? { conversion, hint: conversion.hint() } : {};
    }
    default:
      return {};
  }
}

function shapeMatches(foreign: ForeignStatement, t: readonly Token[]): boolean {
  const t1 = t[1];
  switch (foreign.shape) {
    case 'any':
      return true;
    case 'word':
      return t.length === 2 && t1?.kind === TokenKind.Ident;
    case 'declaration':
      return t1 !== undefined && (t1.kind === TokenKind.Ident || isPunct(t1, '{') || isPunct(t1, '['));
    case 'from-import':
      return t.some((x) => isWord(x, 'import'));
    case 'python-except':
      return !isPunct(t1, '(');
    case 'js-catch':
      return isPunct(last(t), '{');
  }
}

/** `range(1, 6):` → `range(...)`, `items:` → `items`. */
function renderIterable(ctx: AnalysisContext, t: readonly Token[], from: number): string {
  const first = t[from];
  if (!first) return '…';
  if (first.kind === TokenKind.Ident && isPunct(t[from + 1], '(')) return `${first.text}(...)`;
  let end = t.length;
  if (isPunct(t[end - 1], ':') || isPunct(t[end - 1], '{')) end--;
  if (end <= from) return first.text;
  return abbreviate(ctx.src.slice(first.start, tokenAt(t, end - 1).end), 30);
}
