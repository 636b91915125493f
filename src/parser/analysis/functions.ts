/**
 * Function definitions: `function name(a, b) {`, their parameters, and where their body may start.
 */
import type { Block } from '../blocks';
import { matchBracket } from '../calls';
import { findCommand } from '../catalogue';
import { Rule } from '../catalogue/rules';
import { firstOf, lastOf, tokenAt } from '../cursor';
import { functionColonFix, inlineBodyFix } from '../fixes/functionHeaders';
import { TokenKind, isPunct, type Token } from '../scanner';
import { abbreviate } from '../wording';
import { pushBraceIfOpened } from './braces';
import type { AnalysisContext } from './context';
import type { Reporter } from '../reporter';

export function functionDefinition(ctx: AnalysisContext, t: Token[]): void {
  const t0 = firstOf(t);
  const nameToken = t[1];
  const lastToken = lastOf(t);
  if (!nameToken || nameToken.kind !== TokenKind.Ident) {
    if (isPunct(nameToken, '(')) {
      ctx.reportTokens({
        rule: Rule.AnonymousFunction,
        from: t0,
        to: lastToken,
        message: 'anonymous functions are not AVAP — name it: function name(a, b) { … }',
      });
    } else {
      ctx.reportTokens({
        rule: Rule.FunctionHeader,
        from: t0,
        to: lastToken,
        message: "expected a function name after 'function'",
      });
    }
    pushBraceIfOpened(ctx, t);
    return;
  }
  const name = nameToken.text;
  if (!isPunct(t[2], '(')) {
    ctx.reportTokens({
      rule: Rule.FunctionHeader,
      from: t0,
      to: lastToken,
      message: `expected '(' after the function name '${name}'`,
    });
    pushBraceIfOpened(ctx, t);
    return;
  }
  const close = matchBracket(t, 2);
  const block: Block = {
    kind: 'function',
    name,
    line: ctx.lineNo,
    column: ctx.col(t0.start),
    endColumn: ctx.col(nameToken.end),
    token: name,
  };
  if (close === -1) {
    ctx.reportTokens({
      rule: Rule.FunctionHeader,
      from: tokenAt(t, 2),
      to: lastToken,
      message: `missing ')' in the parameter list of '${name}'`,
    });
    if (isPunct(lastToken, '{')) ctx.blocks.push(block);
    return;
  }
  const arity = checkParameters(ctx, t, 3, close);
  if (findCommand(name)) {
    ctx.report({
      rule: Rule.CommandRedefined,
      start: nameToken.start,
      end: nameToken.end,
      message: `'${name}' is a built-in command and cannot be redefined`,
      token: name,
    });
  } else if (ctx.functions.has(name)) {
    ctx.report({
      rule: Rule.DuplicateFunction,
      start: nameToken.start,
      end: nameToken.end,
      message: `function '${name}' is already defined on line ${ctx.functions.get(name)?.line ?? 0}`,
      token: name,
    });
  } else {
    ctx.functions.set(name, { arity, line: ctx.lineNo });
  }
  if (ctx.blocks.insideAvapBlock) {
    ctx.reportTokens({
      rule: Rule.NestedFunction,
      from: t0,
      to: nameToken,
      message: `function '${name}' must be defined at the top level, not inside another block`,
    });
  }
  // What follows the parameter list: t[close + 1] … (indices, not a copy: every function header comes here).
  const restLength = t.length - close - 1;
  if (restLength === 0) {
    block.awaitingBrace = true;
    ctx.blocks.push(block);
    return;
  }
  const r0 = tokenAt(t, close + 1);
  if (isPunct(r0, '{')) {
    if (restLength === 1) {
      ctx.blocks.push(block);
    } else if (!(restLength === 2 && isPunct(t[close + 2], '}'))) {
      reportInlineBody(ctx, {
        start: tokenAt(t, close + 2).start,
        end: lastToken.end,
        openEnd: r0.end,
        closes: isPunct(lastToken, '}'),
      });
      if (!isPunct(lastToken, '}')) ctx.blocks.push(block);
    }
    return;
  }
  if (isPunct(r0, ':')) {
    ctx.report({
      rule: Rule.PythonColon,
      start: r0.start,
      end: r0.end,
      message: "Python-style ':' — AVAP function bodies are enclosed in { … }",
      token: ':',
      suggestion: '{',
      hint: restLength === 1 ? functionColonFix(tokenAt(t, close), r0, ctx.lineStart) : undefined,
    });
    return;
  }
  ctx.reportTokens({
    rule: Rule.TrailingText,
    from: r0,
    to: lastToken,
    message: `unexpected '${abbreviate(r0.text, 20)}' after the parameter list of '${name}'`,
  });
}

/**
 * A function's body written after its `{` on the header's line: [start, end) of the line, the `{` ending at
 * `openEnd`, `closes` when the line ends with `}` (also read by the plain reader, analysis/plainLines.ts).
 */
export function reportInlineBody(
  ctx: AnalysisContext,
  body: { start: number; end: number; openEnd: number; closes: boolean },
): void {
  ctx.report({
    rule: Rule.FunctionBodyInline,
    start: body.start,
    end: body.end,
    message: "put the function body on the lines after '{'",
    token: ctx.src.slice(body.start, body.end),
    hint: inlineBodyFix(ctx.src, body, ctx.lineStart),
  });
}

/** Checks `a, b, c` between the parentheses; returns the number of parameters. */
function checkParameters(ctx: AnalysisContext, t: readonly Token[], from: number, to: number): number {
  if (from === to) return 0;
  let count = 0;
  let segment = from;
  for (let i = from; i <= to; i++) {
    if (i < to && !isPunct(t[i], ',')) continue;
    count++;
    const first = t[segment];
    if (i === segment || !first) {
      const at = tokenAt(t, i);
      ctx.report({
        rule: Rule.FunctionParameter,
        start: at.start,
        end: at.end,
        message: 'empty function parameter',
        token: at.text,
      });
    } else if (i - segment !== 1 || first.kind !== TokenKind.Ident) {
      const lastToken = tokenAt(t, i - 1);
      ctx.reportTokens({
        rule: Rule.FunctionParameter,
        from: first,
        to: lastToken,
        message: `function parameters are plain names, got '${abbreviate(ctx.src.slice(first.start, lastToken.end), 30)}'`,
      });
    }
    segment = i + 1;
  }
  return count;
}

/** A function whose body never opened with `{`: reported at its header. */
export function functionMissingBrace(rep: Reporter, fn: Block): void {
  rep.at({
    rule: Rule.FunctionMissingBrace,
    line: fn.line,
    column: fn.column,
    endColumn: fn.endColumn,
    message: `function '${fn.name ?? ''}' needs '{' to open its body`,
    token: fn.token,
  });
}
