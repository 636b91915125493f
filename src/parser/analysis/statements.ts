/**
 * Statements that are neither blocks nor foreign lines: a command call on its own, an assignment, a
 * dotted connector call, `return`, a bare word, and what is no statement at all.
 */
import { isCloseBracket, isOpenBracket, matchBracket, parseCall } from '../calls';
import { EXPRESSION_BUILTINS, findCommand, findCommandIgnoringCase } from '../catalogue';
import { Rule } from '../catalogue/rules';
import { firstOf, lastOf, tokenAt } from '../cursor';
import { checkExpression, reportForeignTokens } from '../expressions';
import { topLevelReturnFix } from '../fixes/statements';
import { TokenKind, isOp, isPunct, type Token } from '../scanner';
import { abbreviate } from '../wording';
import { pushBraceIfOpened, trailing } from './braces';
import { applyRole, bracketProblems, checkCommand } from './commands';
import type { AnalysisContext } from './context';

/** Index of a top-level `=` operator, or -1. */
export function topLevelAssign(t: readonly Token[]): number {
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const x = t[i];
    if (x === undefined) break;
    if (isOpenBracket(x)) depth++;
    else if (isCloseBracket(x)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && isOp(x, '=')) return i;
  }
  return -1;
}

export function unrecognized(ctx: AnalysisContext, t: Token[]): void {
  const reported = reportForeignTokens(t, 0, t.length, ctx);
  if (reported.size > 0) {
    pushBraceIfOpened(ctx, t);
    return;
  }
  const t0 = firstOf(t);
  const lastToken = lastOf(t);
  if (t0.kind === TokenKind.Other) {
    ctx.reportTokens({ rule: Rule.StrayCharacter, from: t0, to: lastToken, message: `stray character '${t0.text}'` });
  } else {
    const value = t0.kind === TokenKind.String || t0.kind === TokenKind.Number || t0.kind === TokenKind.Template;
    ctx.reportTokens({
      rule: Rule.NotAStatement,
      from: t0,
      to: lastToken,
      message: value
        ? 'a value on its own is not a statement — expected a command call or an assignment'
        : 'expected a command call or an assignment',
    });
  }
  pushBraceIfOpened(ctx, t);
}

/** Block words written without their parentheses, as they should be (a Map: a bare `toString` line finds nothing). */
const BARE_CLOSERS: ReadonlyMap<string, string> = new Map([
  ['else', 'else()'],
  ['end', 'end()'],
  ['endLoop', 'endLoop()'],
  ['try', 'try()'],
]);

export function bareWord(ctx: AnalysisContext, t0: Token): void {
  const exact = BARE_CLOSERS.get(t0.text);
  if (exact) {
    ctx.report({
      rule: Rule.MissingParentheses,
      start: t0.start,
      end: t0.end,
      message: `'${t0.text}' needs parentheses: ${exact}`,
      token: t0.text,
      suggestion: exact,
    });
    applyRole(ctx, findCommand(t0.text)?.block, t0);
    return;
  }
  const spec = findCommandIgnoringCase(t0.text);
  if (spec && spec.params.length === 0) {
    ctx.report({
      rule: Rule.UnknownCommand,
      start: t0.start,
      end: t0.end,
      message: `'${t0.text}' not defined — did you mean '${spec.name}()'? (AVAP is case-sensitive)`,
      token: t0.text,
      suggestion: `${spec.name}()`,
    });
    applyRole(ctx, spec.block, t0);
    return;
  }
  const message = `expected a command call or an assignment, found '${abbreviate(t0.text, 40)}'`;
  if (findCommand(t0.text)) {
    ctx.report({
      rule: Rule.MissingParentheses,
      start: t0.start,
      end: t0.end,
      message: `${message} — '${t0.text}' is a command: call it with parentheses`,
      token: t0.text,
    });
  } else {
    ctx.report({ rule: Rule.NotAStatement, start: t0.start, end: t0.end, message, token: t0.text });
  }
}

export function callStatement(ctx: AnalysisContext, t: Token[]): void {
  const call = parseCall(ctx.src, t, 1, ctx.lineEnd);
  bracketProblems(ctx, t, call);
  const block = checkCommand(ctx, t, call, 'statement');
  trailing(ctx, t, call, block);
}

/** `name = …`: the value is read before the name is assigned. */
export function assignment(ctx: AnalysisContext, t: Token[]): void {
  assignmentValue(ctx, t);
  const target = firstOf(t);
  if (target.kind === TokenKind.Ident) ctx.sem.assign(target.text, ctx.lineNo);
}

function assignmentValue(ctx: AnalysisContext, t: Token[]): void {
  const target = firstOf(t);
  const eq = tokenAt(t, 1);
  if (findCommand(target.text)) {
    ctx.report({
      rule: Rule.InvalidAssignmentTarget,
      start: target.start,
      end: target.end,
      message: `'${target.text}' is a command name and cannot be assigned to`,
      token: target.text,
    });
  }
  if (t.length === 2) {
    ctx.report({
      rule: Rule.MissingValue,
      start: eq.start,
      end: eq.end,
      message: `missing value after '=' in the assignment to '${target.text}'`,
      token: '=',
    });
    return;
  }
  const r0 = tokenAt(t, 2);
  if (r0.kind === TokenKind.Ident && isPunct(t[3], '(') && !EXPRESSION_BUILTINS.has(r0.text)) {
    const close = matchBracket(t, 3);
    if (close === t.length - 1 || close === -1) {
      const call = parseCall(ctx.src, t, 3, ctx.lineEnd);
      bracketProblems(ctx, t, call);
      const spec = findCommand(r0.text);
      if (spec?.block && spec.block !== 'exception') {
        ctx.report({
          rule: Rule.BlockCommandAssigned,
          start: r0.start,
          end: r0.end,
          message: `'${r0.text}' opens or closes a block and cannot be assigned`,
          token: r0.text,
        });
        return;
      }
      checkCommand(ctx, t, call, 'assignment');
      if (spec?.name === 'avapConnector') ctx.connectors.add(target.text);
      return;
    }
  }
  checkExpression(t, 2, t.length, ctx);
}

export function dottedStatement(ctx: AnalysisContext, t: Token[]): void {
  const reported = reportForeignTokens(t, 0, t.length, ctx);
  if (reported.size > 0) {
    pushBraceIfOpened(ctx, t);
    return;
  }
  if (topLevelAssign(t) > 0) {
    analyzeStatementFallback(ctx, t);
    return;
  }
  const wellFormed = checkExpression(t, 0, t.length, ctx);
  const t0 = firstOf(t);
  if (wellFormed && !ctx.connectors.has(t0.text)) {
    const method = t[2];
    ctx.reportTokens({
      rule: Rule.UnknownConnector,
      from: t0,
      to: method ?? t0,
      message: `method call on '${t0.text}', which is not a connector created with avapConnector() in this file`,
    });
  }
}

function analyzeStatementFallback(ctx: AnalysisContext, t: Token[]): void {
  const assignAt = topLevelAssign(t);
  const t0 = firstOf(t);
  ctx.reportTokens({
    rule: Rule.InvalidAssignmentTarget,
    from: t0,
    to: tokenAt(t, assignAt - 1),
    message: `assignment target '${abbreviate(ctx.src.slice(t0.start, tokenAt(t, assignAt - 1).end), 40)}' must be a plain variable name`,
  });
}

export function returnStatement(ctx: AnalysisContext, t: Token[]): void {
  const t0 = firstOf(t);
  if (!ctx.blocks.insideFunction) {
    ctx.report({
      rule: Rule.ReturnOutsideFunction,
      start: t0.start,
      end: t0.end,
      message: 'return outside a function — at the top level, put values in the response with addResult(variable)',
      token: 'return',
      hint: topLevelReturnFix(t, ctx.lineStart),
    });
  }
  if (t.length > 1) checkExpression(t, 1, t.length, ctx);
}
