/**
 * Function headers of other languages as AVAP's `function f(a, b) {` … `}`: Python `def`, a header
 * ending in `:`, Go `func`, and a body written on the header's line.
 */
import { matchBracket } from '../calls';
import { TokenKind, isPunct, newScanState, scanLine, type Token } from '../scanner';
import { BraceConversion } from './braces';
import { closerAfterBody, deleteLine, indentAt, indentedBody, type FixHint } from './candidates';
import { tokenAt, lastOf } from '../cursor';

/** Parameters between `(` at `open` and its `)` are plain names; returns the `)` index. */
function plainParameters(t: readonly Token[], open: number): number | undefined {
  const close = matchBracket(t, open);
  if (close === -1) return undefined;
  for (let i = open + 1; i < close; i++) {
    const expectName = (i - open) % 2 === 1;
    const x = tokenAt(t, i);
    if (expectName ? x.kind !== TokenKind.Ident : !isPunct(x, ',')) return undefined;
  }
  return close;
}

/** Python `def f(a, b):` with an indented body → `function f(a, b) {` … `}`. */
export function pythonDefFix(t: readonly Token[], lineStart: number): FixHint | undefined {
  const [def, name] = t;
  if (!def || name?.kind !== TokenKind.Ident || !isPunct(t[2], '(')) return undefined;
  const close = plainParameters(t, 2);
  if (close === undefined || close !== t.length - 2 || !isPunct(t[t.length - 1], ':')) return undefined;
  const closeParen = tokenAt(t, close);
  const colon = lastOf(t);
  return (ctx) => {
    const body = indentedBody(ctx.src, lineStart, Number.MAX_SAFE_INTEGER);
    if (!body) return undefined;
    return {
      title: `Rewrite as 'function ${name.text}(…) {' … '}'`,
      edits: [
        { start: def.start, end: def.end, newText: 'function' },
        { start: closeParen.end, end: colon.end, newText: ' {' },
        closerAfterBody(ctx, lineStart, body, '}'),
      ],
    };
  };
}

/** `function f(a):` with an indented body → `function f(a) {` … `}`. */
export function functionColonFix(closeParen: Token, colon: Token, lineStart: number): FixHint {
  return (ctx) => {
    const body = indentedBody(ctx.src, lineStart, Number.MAX_SAFE_INTEGER);
    if (!body) return undefined;
    return {
      title: "Enclose the body in '{' … '}'",
      edits: [{ start: closeParen.end, end: colon.end, newText: ' {' }, closerAfterBody(ctx, lineStart, body, '}')],
    };
  };
}

/**
 * Go `func f(a, b) {` → `function f(a, b) {`; Go's `func main() {` … `}` runs
 * at start, so its body is unwrapped instead (header and closing brace removed).
 */
export function goFuncFix(src: string, t: readonly Token[]): { hint?: FixHint; conversion?: BraceConversion } {
  const [func, name] = t;
  if (!func || name?.kind !== TokenKind.Ident || !isPunct(t[2], '(') || !isPunct(t[t.length - 1], '{')) return {};
  const close = plainParameters(t, 2);
  if (close === undefined || close !== t.length - 2) return {};
  if (name.text === 'main') {
    if (close !== 3) return {};
    const conversion = new BraceConversion("Unwrap the body of 'func main()'", [deleteLine(src, func.start)], '');
    return { conversion, hint: conversion.hint() };
  }
  return {
    hint: {
      title: "Replace 'func' with 'function'",
      edits: [{ start: func.start, end: func.end, newText: 'function' }],
    },
  };
}

/**
 * `function f(a) { return x }` on one line → the header, the body on its own lines, `}`: the body is the text from
 * `openEnd` (after the `{`) to `end` (the line's last token), `closes` when that token is `}`.
 */
export function inlineBodyFix(
  src: string,
  inline: { openEnd: number; end: number; closes: boolean },
  lineStart: number,
): FixHint {
  const { openEnd, end, closes } = inline;
  // Built only for the findings that get a proof, from the line's text after the `{` (read again): the candidate
  // keeps no token of the line, which would live as long as the finding (every one-line function of a file, F5's
  // shape, kept its line's tokens), and a finding that is never proven costs nothing more.
  return (ctx) => {
    const after = scanLine(src, { start: openEnd, end }, newScanState(), () => undefined);
    const body = closes ? after.slice(0, -1) : after;
    const statements: string[] = [];
    let from = 0;
    let depth = 0;
    body.forEach((x, i) => {
      if (isPunct(x, '(') || isPunct(x, '[') || isPunct(x, '{')) depth++;
      else if (isPunct(x, ')') || isPunct(x, ']') || isPunct(x, '}')) depth--;
      else if (isPunct(x, ';') && depth === 0) {
        if (i > from) statements.push(src.slice(tokenAt(body, from).start, tokenAt(body, i - 1).end));
        from = i + 1;
      }
    });
    if (from < body.length) statements.push(src.slice(tokenAt(body, from).start, lastOf(body).end));
    const indent = indentAt(src, lineStart);
    const inner = `${indent}${ctx.indentUnit}`;
    const text = statements.map((s) => `${ctx.eol}${inner}${s}`).join('') + (closes ? `${ctx.eol}${indent}}` : '');
    return { title: 'Put the function body on its own lines', edits: [{ start: openEnd, end, newText: text }] };
  };
}
