/**
 * Braces in a language whose blocks have none: `{` after a call or alone, `}` closing a block or a
 * function body, and the text after a call's closing parenthesis.
 */
import { closerOf, type Block } from '../blocks';
import type { ParsedCall } from '../calls';
import { Rule } from '../catalogue/rules';
import { firstOf, last, lastOf, tokenAt } from '../cursor';
import type { BraceConversion } from '../fixes/braces';
import { allmanBraceConversion, braceBodyConversion, branchWords, isBraceBranchLine } from '../fixes/braces';
import { foreignElseFix } from '../fixes/branches';
import { isPunct, isWord, type Token } from '../scanner';
import { abbreviate } from '../wording';
import type { AnalysisContext } from './context';

/** A reported line that ends with `{` opens a foreign brace block whose `}` must match. */
export function pushBraceIfOpened(
  ctx: AnalysisContext,
  t: readonly Token[],
  block?: Block,
  conversion?: BraceConversion,
): void {
  if (!isPunct(last(t), '{')) return;
  if (block) {
    block.braceBody = true;
    return;
  }
  const t0 = firstOf(t);
  ctx.blocks.push({
    kind: 'brace',
    line: ctx.lineNo,
    column: ctx.col(t0.start),
    endColumn: ctx.col(t0.end),
    token: t0.text,
    conversion,
  });
}

/** A line that is another language's else (`} else {`, `else {`, `else:`): reported over the whole line, with its fix. */
export function foreignElse(ctx: AnalysisContext, t: Token[]): void {
  const t0 = firstOf(t);
  const lastToken = lastOf(t);
  ctx.reportTokens({
    rule: Rule.ForeignElse,
    from: t0,
    to: lastToken,
    message: `unexpected construct '${abbreviate(ctx.src.slice(t0.start, lastToken.end), 40)}' — AVAP writes else() … end()`,
    hint: foreignElseFix(t),
  });
}

export function closingBrace(ctx: AnalysisContext, t: Token[]): void {
  const t0 = firstOf(t);
  const r0 = t[1];
  const lastToken = lastOf(t);
  const top = ctx.blocks.top;
  if (isWord(r0, 'else') || isWord(r0, 'catch') || isWord(r0, 'except') || isWord(r0, 'finally')) {
    // A block being converted takes `} else {` / `} catch (e) {` along; any other shape stops its conversion.
    top?.conversion?.branchLine(t0.start, lastToken.end, isBraceBranchLine(t) ? branchWords(t) : []);
    if (isWord(r0, 'else')) {
      foreignElse(ctx, t);
      if (top && (top.kind === 'if' || top.kind === 'brace')) top.hasElse = true;
      return;
    }
    const word = tokenAt(t, 1);
    ctx.report({
      rule: Rule.ForeignKeyword,
      start: word.start,
      end: word.end,
      message: `foreign keyword '${word.text}' — AVAP error handling is try() … exception(err) … end()`,
      token: word.text,
    });
    return;
  }
  const closed = ctx.blocks.closeBrace(ctx.site(t0));
  const trailingJunk = t.length > 1 && !t.slice(1).every((x) => isPunct(x, ')') || isPunct(x, ';') || isPunct(x, ']'));
  if (closed?.conversion && !trailingJunk) closed.conversion.closedByBrace(ctx.src, t0.start, lastToken.end);
  if (closed?.kind === 'function') {
    if (trailingJunk)
      ctx.reportTokens({
        rule: Rule.TrailingText,
        from: tokenAt(t, 1),
        to: lastToken,
        message: "unexpected text after '}'",
      });
    return;
  }
  if (closed) {
    const closer = closed.kind === 'brace' ? undefined : closerOf(closed.kind);
    const message = closer
      ? `unexpected construct '}' — close ${closed.kind === 'loop' ? 'startLoop()' : `'${closed.token}'`} with ${closer}; braces only enclose function bodies`
      : "unexpected construct '}' — AVAP closes blocks with end() or endLoop(); braces only enclose function bodies";
    ctx.reportTokens({
      rule: Rule.BraceClosesBlock,
      from: t0,
      to: t.length > 1 ? lastToken : t0,
      message,
      suggestion: t.length === 1 ? closer : undefined,
    });
    return;
  }
  ctx.reportTokens({
    rule: Rule.UnmatchedBrace,
    from: t0,
    to: lastToken,
    message: "'}' without an opening function body — AVAP closes blocks with end() or endLoop()",
  });
}

export function openingBrace(ctx: AnalysisContext, t: Token[]): void {
  const t0 = firstOf(t);
  const under = ctx.blocks.top;
  const conversion =
    under && under.line === ctx.lineNo - 1 && t.length === 1 ? allmanBraceConversion(ctx.src, under, t0) : undefined;
  ctx.report({
    rule: Rule.BraceBody,
    start: t0.start,
    end: t0.end,
    message: 'curly-brace body — AVAP blocks have no braces; close them with end() or endLoop()',
    token: '{',
    hint: conversion?.hint(),
  });
  ctx.blocks.push({
    kind: 'brace',
    line: ctx.lineNo,
    column: ctx.col(t0.start),
    endColumn: ctx.col(t0.end),
    token: '{',
    conversion,
  });
}

/** Text after the closing `)` of a call: a brace body, a Python colon, or junk. */
export function trailing(ctx: AnalysisContext, t: readonly Token[], call: ParsedCall, block: Block | undefined): void {
  if (call.closeIndex === -1 || call.closeIndex === t.length - 1) return;
  const r0 = tokenAt(t, call.closeIndex + 1);
  const lastToken = lastOf(t);
  const name = tokenAt(t, call.nameIndex).text;
  if (isPunct(r0, '{')) {
    const conversion = block && !block.conversion ? braceBodyConversion(block, t, r0) : undefined;
    ctx.report({
      rule: Rule.BraceBody,
      start: r0.start,
      end: r0.end,
      message: `curly-brace body after '${name}(…)' — AVAP blocks have no braces; close them with ${block ? closerOf(block.kind) : 'end()'}`,
      token: '{',
      hint: conversion?.hint(),
    });
    if (block) {
      block.braceBody = true;
      block.conversion ??= conversion;
    } else pushBraceIfOpened(ctx, t);
    return;
  }
  if (isPunct(r0, ':')) {
    const close = tokenAt(t, call.closeIndex);
    const hint =
      block && r0 === lastToken
        ? { title: "Delete ':'", edits: [{ start: close.end, end: r0.end, newText: '' }] }
        : undefined;
    ctx.report({
      rule: Rule.PythonColon,
      start: r0.start,
      end: r0.end,
      message: `Python-style ':' after '${name}(…)' — AVAP blocks are closed with ${block ? closerOf(block.kind) : 'end()'}, not indented`,
      token: ':',
      hint,
    });
    return;
  }
  ctx.reportTokens({
    rule: Rule.TrailingText,
    from: r0,
    to: lastToken,
    message: `unexpected '${abbreviate(ctx.src.slice(r0.start, lastToken.end), 30)}' after '${name}(…)'`,
  });
}
