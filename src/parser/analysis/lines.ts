/**
 * One line of a program: a function body's awaited `{`, a line opened by another language's keyword, the
 * statements split at `;`, and each statement dispatched by its first tokens to the check of its kind.
 */
import { isCloseBracket, isOpenBracket } from '../calls';
import { Rule } from '../catalogue/rules';
import { compoundAssignmentFix, terminatorFix } from '../fixes/statements';
import { TokenKind, isOp, isPunct, type Token } from '../scanner';
import { abbreviate } from '../wording';
import { closingBrace, openingBrace } from './braces';
import { elseStatement, ifStatement } from './conditions';
import type { AnalysisContext } from './context';
import { foreignLine } from './foreignLines';
import { reportForeignOperator } from '../expressions';
import { functionDefinition, functionMissingBrace } from './functions';
import {
  assignment,
  bareWord,
  callStatement,
  dottedStatement,
  returnStatement,
  topLevelAssign,
  unrecognized,
} from './statements';
import { tokenAt } from '../cursor';

const ASSIGN_FOREIGN_OPS = new Set(['+=', '-=', '*=', '/=', '++', '--']);

/** Some token of the line is `;` (at any depth). An indexed loop: this runs for every token of every line. */
function hasSemicolon(tokens: readonly Token[]): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t !== undefined && t.kind === TokenKind.Punct && t.text === ';') return true;
  }
  return false;
}

/**
 * One line of tokens. `semicolon` is false when the scanner saw no `;` on the line (ScanState.semicolon), so the
 * line is one statement without a look at its tokens; true when it may have one.
 */
export function analyzeLine(ctx: AnalysisContext, tokens: Token[], semicolon: boolean): void {
  const top = ctx.blocks.top;
  if (top?.awaitingBrace) {
    top.awaitingBrace = false;
    if (isPunct(tokens[0], '{')) {
      if (tokens.length > 1) analyzeSegments(ctx, tokens.slice(1), semicolon);
      return;
    }
    functionMissingBrace(ctx.rep, top);
  }
  if (foreignLine(ctx, tokens)) return;
  analyzeSegments(ctx, tokens, semicolon);
}

/**
 * Splits a line at top-level `;` (reported) and analyses each statement. `semicolon`: the tokens may hold a `;`
 * (when the caller does not know, they are searched); the split below reads the same either way.
 */
export function analyzeSegments(ctx: AnalysisContext, tokens: Token[], semicolon = hasSemicolon(tokens)): void {
  if (!semicolon) {
    analyzeStatement(ctx, tokens);
    return;
  }
  let depth = 0;
  let from = 0;
  let split = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === undefined) break;
    if (t.kind !== TokenKind.Punct) continue;
    if (isOpenBracket(t)) depth++;
    else if (isCloseBracket(t)) depth = Math.max(0, depth - 1);
    else if (t.text === ';' && depth === 0) {
      ctx.report({
        rule: Rule.StatementTerminator,
        start: t.start,
        end: t.end,
        message: "statement terminator ';' is not AVAP — one statement per line, no terminator",
        token: ';',
        hint: terminatorFix(ctx.src, tokens, i, ctx.lineStart),
      });
      if (i > from) analyzeStatement(ctx, tokens.slice(from, i));
      from = i + 1;
      split = true;
    }
  }
  if (!split) analyzeStatement(ctx, tokens);
  else if (from < tokens.length) analyzeStatement(ctx, tokens.slice(from));
}

function analyzeStatement(ctx: AnalysisContext, t: Token[]): void {
  const t0 = t[0];
  if (!t0) return;
  const t1 = t[1];
  if (t0.kind === TokenKind.Punct && t0.text === '}') return closingBrace(ctx, t);
  if (t0.kind === TokenKind.Punct && t0.text === '{') return openingBrace(ctx, t);
  if (t0.kind === TokenKind.Ident) {
    if (isOp(t1, '=')) return assignment(ctx, t);
    if (t1?.kind === TokenKind.Op && t1.text === ':=') {
      reportForeignOperator(ctx, t1);
      return assignment(ctx, t);
    }
    if (t1?.kind === TokenKind.Op && ASSIGN_FOREIGN_OPS.has(t1.text)) {
      reportForeignOperator(ctx, t1, compoundAssignmentFix(ctx.src, t));
      return;
    }
    switch (t0.text) {
      case 'if':
        return ifStatement(ctx, t);
      case 'else':
        return elseStatement(ctx, t);
      case 'function':
        return functionDefinition(ctx, t);
      case 'return':
        return returnStatement(ctx, t);
      default:
        break;
    }
    if (isPunct(t1, '(')) return callStatement(ctx, t);
    if (isPunct(t1, '.')) return dottedStatement(ctx, t);
    if (t1?.kind === TokenKind.Ident && isOp(t[2], '=')) {
      ctx.reportTokens({
        rule: Rule.TypedDeclaration,
        from: t0,
        to: t1,
        message: `typed declaration '${t0.text} ${t1.text}' is not AVAP — set variables with addVar(name, value) or name = value`,
        suggestion: `${t1.text}`,
      });
      return assignment(ctx, t.slice(1));
    }
    if (t.length === 1) return bareWord(ctx, t0);
  }
  if (t0.kind === TokenKind.Global && isOp(t1, '=')) {
    ctx.reportTokens({
      rule: Rule.InvalidAssignmentTarget,
      from: t0,
      to: t0,
      message: `cannot assign to the global reference '${t0.text}' — assign to a plain name`,
      suggestion: t0.text.slice(1),
    });
    return;
  }
  const assignAt = topLevelAssign(t);
  if (assignAt > 0) {
    ctx.reportTokens({
      rule: Rule.InvalidAssignmentTarget,
      from: t0,
      to: tokenAt(t, assignAt - 1),
      message: `assignment target '${abbreviate(ctx.src.slice(t0.start, tokenAt(t, assignAt - 1).end), 40)}' must be a plain variable name`,
    });
    return;
  }
  unrecognized(ctx, t);
}
