/**
 * Candidate fixes for the mechanical cases the analysis meets, one builder per
 * construct. Each looks only at the tokens it is given (or, through a deferred
 * hint, at the lines below them) and returns nothing when the repair would be a
 * guess: the proof (prove.ts) then decides whether a candidate is offered.
 */
import { closerOf, type Block, type BlockKind } from '../blocks';
import { isIdentifier, matchBracket, parseCall } from '../calls';
import { isOp, isPunct, isWord, newScanState, scanLine, TokenKind, type Token } from '../scanner';
import { BraceConversion, type BranchRewrite } from './braces';
import {
  closerAfterBody,
  deleteLine,
  indentAt,
  indentedBody,
  lineEndOf,
  lineStartOf,
  nextLineStart,
  quote,
  type BranchTest,
  type Candidate,
  type FixContext,
  type FixHint,
} from './candidates';
import type { OffsetEdit } from './text';

const LABEL: Record<BlockKind, string> = {
  if: 'if()',
  loop: 'startLoop()',
  try: 'try()',
  async: 'go_async()',
  function: 'function',
  brace: '{',
};

const IDENT = '[\\p{L}_][\\p{L}\\p{N}_]*';
const AVAP_ELSE = /^else\s*\(\s*\)/;
const AVAP_EXCEPTION = new RegExp(`^(?:${IDENT}\\s*=\\s*)?exception\\s*\\(`, 'u');

/** Branch lines that belong to an AVAP block of `kind` at its own indentation. */
const AVAP_BRANCHES: Partial<Record<BlockKind, BranchTest>> = {
  if: (line) => (AVAP_ELSE.test(line) ? { length: 0 } : undefined),
  try: (line) => (AVAP_EXCEPTION.test(line) ? { length: 0 } : undefined),
};

/** A block never closed (or not before an outer closer at `limit`): its closer where its indentation ends. */
export function closeBlockFix(block: Block, limit: number): FixHint | undefined {
  const lineStart = block.lineStart;
  if (lineStart === undefined || block.kind === 'brace' || block.braceBody || block.awaitingBrace) return undefined;
  if (block.kind === 'try' && !block.hasHandler) return undefined; // the handler is not mechanical
  const closer = closerOf(block.kind);
  return (ctx) => {
    const body = indentedBody(ctx.src, lineStart, limit, AVAP_BRANCHES[block.kind]);
    if (!body) return undefined;
    return {
      title: `Close ${LABEL[block.kind]} with '${closer}' where its indentation ends`,
      edits: [closerAfterBody(ctx, lineStart, body, closer)],
    };
  };
}

/** `;` at the end of a statement: delete it; between two statements: a line break instead. */
export function terminatorFix(src: string, tokens: readonly Token[], i: number, lineStart: number): FixHint {
  const semi = tokens[i] as Token;
  const prev = tokens[i - 1];
  const next = tokens[i + 1];
  if (!next) {
    const from = prev && src.slice(prev.end, semi.start).trim() === '' ? prev.end : semi.start;
    return { title: "Delete ';'", edits: [{ start: from, end: semi.end, newText: '' }] };
  }
  return (ctx) => ({
    title: 'Put each statement on its own line',
    edits: [{ start: semi.start, end: next.start, newText: `${ctx.eol}${indentAt(src, lineStart)}` }],
  });
}

/** `let x = v` (also var, const) → `x = v`. */
export function declarationFix(t: readonly Token[]): Candidate | undefined {
  const [keyword, name, op] = t;
  if (!keyword || name?.kind !== TokenKind.Ident || !(isOp(op, '=') || isOp(op, ':='))) return undefined;
  return { title: `Remove '${keyword.text}'`, edits: [{ start: keyword.start, end: name.start, newText: '' }] };
}

/** A Go `package` line or an import line (a Go `import (` … `)` block whole): removed. */
export function removeLineFix(src: string, t: readonly Token[]): FixHint {
  const keyword = t[0] as Token;
  if (!isPunct(t[t.length - 1], '(') || keyword.text !== 'import') {
    return { title: `Remove the '${keyword.text}' line`, edits: [deleteLine(src, keyword.start)] };
  }
  return () => {
    let pos = nextLineStart(src, keyword.start);
    for (let n = 0; n < 200 && pos < src.length; n++) {
      const end = lineEndOf(src, pos);
      if (src.slice(pos, end).trim() === ')') {
        const last = deleteLine(src, pos);
        return {
          title: "Remove the 'import' block",
          edits: [{ start: lineStartOf(src, keyword.start), end: last.end, newText: '' }],
        };
      }
      pos = nextLineStart(src, pos);
    }
    return undefined;
  };
}

/** `x += v` → `x = x + v`; `i++` → `i = i + 1`. */
export function compoundAssignmentFix(src: string, t: readonly Token[]): Candidate | undefined {
  const [target, op] = t;
  if (!target || !op) return undefined;
  const last = t[t.length - 1] as Token;
  let text: string;
  if (op.text === '++' || op.text === '--') {
    if (t.length !== 2) return undefined;
    text = `${target.text} = ${target.text} ${op.text[0]} 1`;
  } else {
    const value = t[2];
    if (!value) return undefined;
    const raw = src.slice(value.start, last.end);
    text = `${target.text} = ${target.text} ${op.text[0]} ${t.length > 3 ? `(${raw})` : raw}`;
  }
  return { title: `Rewrite as ${quote(text)}`, edits: [{ start: target.start, end: last.end, newText: text }] };
}

/** Tokens between `from` and `to` form one plain number or name (a loop bound AVAP accepts as is). */
function plainOperand(t: readonly Token[], from: number, to: number): Token | undefined {
  if (to - from !== 1) return undefined;
  const x = t[from] as Token;
  return x.kind === TokenKind.Number || x.kind === TokenKind.Ident ? x : undefined;
}

const INTEGER = /^[+-]?\d+$/;

/**
 * A name for a loop's helper variable: the short one for a loop at the top
 * level; inside a block (perhaps another loop, whose own helper has the short
 * name: fixes are proven one by one but applied together) one made from the
 * loop's own variable.
 */
function loopName(ctx: FixContext, indent: string, short: string, own: string): string {
  return indent === '' ? ctx.fresh(short, own) : ctx.fresh(own);
}

/**
 * A counted-loop header for `counter` from `from` while below `limit` (Python's
 * range end, JavaScript's `i < n`): AVAP's loop includes its upper bound, so the
 * bound is `limit - 1` — computed when it is a literal, else in a variable
 * assigned on the line before.
 */
export function loopHeader(
  ctx: FixContext,
  counter: string,
  from: string,
  limit: string,
  inclusive: boolean,
  indent: string,
): string | undefined {
  if (inclusive) return `startLoop(${counter}, ${from}, ${limit})`;
  if (INTEGER.test(limit)) return `startLoop(${counter}, ${from}, ${Number(limit) - 1})`;
  if (/\b(and|or|not|if|else|in)\b|[<>=!]/.test(limit)) return undefined;
  const last = loopName(ctx, indent, 'last', `${counter}_last`);
  return `${last} = ${limit} - 1${ctx.eol}${indent}startLoop(${counter}, ${from}, ${last})`;
}

/**
 * The header of a Python `for` line (`for i in range(a, b):`, `for item in items:`)
 * as AVAP lines, or undefined when it is not one of those shapes. A list is
 * walked by index: getListLen, then itemFromList inside the loop.
 */
function pythonForHeader(
  ctx: FixContext,
  t: readonly Token[],
  end: number,
  indent: string,
  bodyIndent: string,
): string | undefined {
  const counter = t[1] as Token;
  const iterable = t[3];
  if (!iterable || iterable.kind !== TokenKind.Ident) return undefined;
  if (iterable.text === 'range' && isPunct(t[4], '(')) {
    const close = matchBracket(t, 4);
    if (close !== end - 1) return undefined;
    const call = parseCall(ctx.src, t, 4, (t[close] as Token).end);
    const args = call.args;
    if (args.length === 3 && args[2]?.text !== '1') return undefined;
    const [a, b] = args.length === 1 ? [undefined, args[0]] : [args[0], args[1]];
    if (!b || b.text === '' || (args.length > 1 && !a) || args.length > 3) return undefined;
    const from = a ? plainOperand(t, a.first, a.last)?.text : '0';
    if (from === undefined) return undefined;
    return loopHeader(ctx, counter.text, from, b.text, false, indent);
  }
  if (end !== 4) return undefined;
  return listLoopHeader(ctx, counter.text, iterable.text, indent, bodyIndent);
}

/**
 * Walking a list by index, as AVAP does: its length, the last index, a counted
 * loop, and the element read first thing in the body. `index` names the
 * counter when the source gave one (Go's `for i, x := range xs`).
 */
export function listLoopHeader(
  ctx: FixContext,
  item: string,
  list: string,
  indent: string,
  bodyIndent: string,
  index = loopName(ctx, indent, 'i', `${item}_index`),
): string {
  const size = ctx.fresh(`${list}_len`, `${list}_size`);
  const last = ctx.fresh(`${list}_last`, `last_${index}`);
  const eol = ctx.eol;
  return `getListLen(${list}, ${size})${eol}${indent}${last} = ${size} - 1${eol}${indent}startLoop(${index}, 0, ${last})${eol}${bodyIndent}itemFromList(${list}, ${index}, ${item})`;
}

/** `for i in range(a, b):` with an indented body → `startLoop(i, a, b - 1)` … `endLoop()`. */
export function pythonLoopFix(t: readonly Token[], lineStart: number): FixHint | undefined {
  const colon = t[t.length - 1] as Token;
  if (!isPunct(colon, ':') || t[1]?.kind !== TokenKind.Ident) return undefined;
  const first = t[0] as Token;
  return (ctx) => {
    const body = indentedBody(ctx.src, lineStart, Number.MAX_SAFE_INTEGER);
    if (!body) return undefined;
    const header = pythonForHeader(ctx, t, t.length - 1, indentAt(ctx.src, lineStart), body.bodyIndent);
    if (!header) return undefined;
    const loopLine = header.split(/\r\n|\n|\r/).find((line) => line.trimStart().startsWith('startLoop(')) ?? header;
    return {
      title: `Rewrite as an AVAP loop: ${quote(loopLine)} … 'endLoop()'`,
      edits: [
        { start: first.start, end: colon.end, newText: header },
        closerAfterBody(ctx, lineStart, body, 'endLoop()'),
      ],
    };
  };
}

/** Words of a `} else {`-like line, braces and parentheses left out. */
export function branchWords(t: readonly Token[]): string[] {
  return t.filter((x) => x.kind === TokenKind.Ident).map((x) => x.text);
}

/** `} else {` → `else()`; `} catch (e) {` → `exception(e)`. */
function braceBranch(kind: BlockKind | 'foreign-try'): BranchRewrite {
  if (kind === 'if') return (words) => (words.length === 1 && words[0] === 'else' ? 'else()' : undefined);
  if (kind === 'try' || kind === 'foreign-try') {
    return (words) => {
      if (words[0] !== 'catch' || words.length > 2) return undefined;
      return `exception(${words[1] ?? ''})`;
    };
  }
  return () => undefined;
}

/** A line that is exactly a brace branch: `} else {`, `} catch (e) {`, `} catch {`. */
export function isBraceBranchLine(t: readonly Token[]): boolean {
  if (!isPunct(t[0], '}') || !isPunct(t[t.length - 1], '{') || t[1]?.kind !== TokenKind.Ident) return false;
  if (t.length === 3) return true;
  return t.length === 6 && isPunct(t[2], '(') && t[3]?.kind === TokenKind.Ident && isPunct(t[4], ')');
}

/** `if(…) {` … `}` (any AVAP opener followed by `{`): drop the brace, close with the block's closer. */
export function braceBodyConversion(block: Block, t: readonly Token[], brace: Token): BraceConversion | undefined {
  const before = t[t.indexOf(brace) - 1];
  if (t[t.length - 1] !== brace || !before || block.kind === 'function' || block.kind === 'brace') return undefined;
  const closer = closerOf(block.kind);
  return new BraceConversion(
    `Drop the braces: close with '${closer}'`,
    [{ start: before.end, end: brace.end, newText: '' }],
    closer,
    braceBranch(block.kind),
  );
}

/** `{` alone on the line after an AVAP opener: drop that line, and close with the opener's closer. */
export function allmanBraceConversion(src: string, under: Block, brace: Token): BraceConversion | undefined {
  if (under.kind === 'function' || under.kind === 'brace' || under.braceBody) return undefined;
  const closer = closerOf(under.kind);
  return new BraceConversion(
    `Drop the braces: close with '${closer}'`,
    [deleteLine(src, brace.start)],
    closer,
    braceBranch(under.kind),
  );
}

/**
 * The condition in tokens[first, end) as AVAP if() arguments: `x > 5` → `x, 5,
 * >`; a boolean expression → `None, None, "…"`. The analysis' own translation
 * (the one its if-expression suggestion uses).
 */
export type ConditionTranslator = (tokens: readonly Token[], first: number, end: number) => string | undefined;

/** `elif x > 5:` at offset `start` → `else()` and a nested `if(x, 5, >)` on the next line; undefined when its condition does not translate. */
function elifBranch(
  ctx: FixContext,
  start: number,
  indent: string,
  toArgs: ConditionTranslator,
): { length: number; newText: string } | undefined {
  const tokens = scanLine(ctx.src, start, lineEndOf(ctx.src, start), newScanState(), () => undefined);
  const colon = tokens[tokens.length - 1];
  if (!isWord(tokens[0], 'elif') || !colon || !isPunct(colon, ':') || tokens.length < 3) return undefined;
  const args = toArgs(tokens, 1, tokens.length - 1);
  return args === undefined
    ? undefined
    : { length: colon.end - start, newText: `else()${ctx.eol}${indent}if(${args})` };
}

/**
 * Python `if x > 5:` (indented body; `elif …:` and `else:` branches) or brace-style
 * `if x > 5 {` → `if(x, 5, >)` … `else()` … `end()`; each `elif` becomes an
 * `else()` holding a nested `if(…)`, closed by one more `end()`.
 */
export function foreignIfFix(
  t: readonly Token[],
  lineStart: number,
  toArgs: ConditionTranslator,
): { hint?: FixHint; conversion?: BraceConversion } {
  const first = t[0] as Token;
  const last = t[t.length - 1] as Token;
  const opensBrace = isPunct(last, '{');
  const end = opensBrace || isPunct(last, ':') ? t.length - 1 : t.length;
  if (end <= 1) return {};
  const args = toArgs(t, 1, end);
  if (args === undefined) return {};
  const header: OffsetEdit = { start: first.start, end: last.end, newText: `if(${args})` };
  const title = `Rewrite as 'if(${args})' … 'end()'`;
  if (opensBrace) {
    const conversion = new BraceConversion(title, [header], 'end()', braceBranch('if'));
    return { conversion, hint: conversion.hint() };
  }
  return {
    hint: (ctx) => {
      const indent = indentAt(ctx.src, lineStart);
      let nested = 0;
      let otherwise = false;
      const branches: BranchTest = (line, start) => {
        if (/^else\s+if\b/.test(line)) return 'abort';
        if (/^elif\b/.test(line)) {
          const elif = otherwise ? undefined : elifBranch(ctx, start, indent, toArgs);
          if (!elif) return 'abort';
          nested++;
          return elif;
        }
        const m = /^else\s*:/.exec(line);
        if (!m) return undefined;
        otherwise = true;
        return { length: m[0].length, newText: 'else()' };
      };
      const body = indentedBody(ctx.src, lineStart, Number.MAX_SAFE_INTEGER, branches);
      if (!body) return undefined;
      const closers = Array.from({ length: nested + 1 }, () => 'end()').join(`${ctx.eol}${indent}`);
      return { title, edits: [header, ...body.branchEdits, closerAfterBody(ctx, lineStart, body, closers)] };
    },
  };
}

/** `else:` / `else {` / `} else {` → `else()`. */
export function foreignElseFix(t: readonly Token[]): Candidate | undefined {
  const first = t[0] as Token;
  const last = t[t.length - 1] as Token;
  const words = branchWords(t);
  const shapes =
    t.length === 2
      ? isWord(first, 'else') && (isPunct(last, ':') || isPunct(last, '{'))
      : t.length === 3 && isPunct(first, '}') && words[0] === 'else' && (isPunct(last, '{') || isPunct(last, ':'));
  if (!shapes) return undefined;
  return { title: "Replace with 'else()'", edits: [{ start: first.start, end: last.end, newText: 'else()' }] };
}

/**
 * `except:`, `except Exception:`, `except Exception as e:` — the name after
 * `as` is the handler's variable. Only a handler that catches everything:
 * AVAP's exception() catches every error, so `except ValueError:` would
 * become a handler for errors the Python lets through (issue 24, F10).
 */
const PY_EXCEPT = new RegExp(
  `^except\\b(?:\\s*\\(?\\s*(?:Base)?Exception\\s*\\)?)?(?:\\s+as\\s+(${IDENT}))?\\s*:`,
  'u',
);
/** Any `except …:` line: a branch of the try, whether or not it translates. */
const PY_ANY_EXCEPT = /^except\b/;

/** JavaScript `try {` … `} catch (e) {` … `}` or Python `try:` … `except … as e:` → `try()` … `exception(e)` … `end()`. */
export function foreignTryFix(
  t: readonly Token[],
  lineStart: number,
): { hint?: FixHint; conversion?: BraceConversion } {
  const [first, second] = t;
  if (!first || !second || t.length !== 2 || first.text !== 'try') return {};
  const header: OffsetEdit = { start: first.start, end: second.end, newText: 'try()' };
  const title = "Rewrite as 'try()' … 'exception(e)' … 'end()'";
  if (isPunct(second, '{')) {
    const conversion = new BraceConversion(title, [header], 'end()', braceBranch('foreign-try'));
    return { conversion, hint: conversion.hint() };
  }
  return {
    hint: (ctx) => {
      let handlers = 0;
      const branches: BranchTest = (line) => {
        if (/^(finally|else)\b/.test(line)) return 'abort';
        const m = PY_EXCEPT.exec(line);
        if (!m) return PY_ANY_EXCEPT.test(line) ? 'abort' : undefined;
        handlers++;
        return handlers > 1 ? 'abort' : { length: m[0].length, newText: `exception(${m[1] ?? ''})` };
      };
      const body = indentedBody(ctx.src, lineStart, Number.MAX_SAFE_INTEGER, branches);
      if (!body || handlers !== 1) return undefined;
      return { title, edits: [header, ...body.branchEdits, closerAfterBody(ctx, lineStart, body, 'end()')] };
    },
  };
}

/** Parameters between `(` at `open` and its `)` are plain names; returns the `)` index. */
function plainParameters(t: readonly Token[], open: number): number | undefined {
  const close = matchBracket(t, open);
  if (close === -1) return undefined;
  for (let i = open + 1; i < close; i++) {
    const expectName = (i - open) % 2 === 1;
    const x = t[i] as Token;
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
  const closeParen = t[close] as Token;
  const colon = t[t.length - 1] as Token;
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
 * A JavaScript/Go loop whose body is in braces, as an AVAP loop closed by
 * endLoop(): a counted header (`for (let i = a; i < b; i++) {`, `for i := a; i
 * <= b; i++ {`) or a walk over a list (`for (const x of xs) {`, `for _, x :=
 * range xs {`). Undefined for any other shape (`for (k in obj)`, `for {`).
 */
export function braceLoopConversion(t: readonly Token[], lineStart: number): BraceConversion | undefined {
  const last = t[t.length - 1] as Token;
  if (!isPunct(last, '{')) return undefined;
  let parts = t.slice(1, -1);
  if (isPunct(parts[0], '(') && isPunct(parts[parts.length - 1], ')')) parts = parts.slice(1, -1);
  if (parts[0] && ['let', 'var', 'const'].includes(parts[0].text)) parts = parts.slice(1);
  const first = t[0] as Token;
  const header = (build: (ctx: FixContext, indent: string) => string | undefined): BraceConversion => {
    const conversion = new BraceConversion("Rewrite as an AVAP loop: 'startLoop(…)' … 'endLoop()'", [], 'endLoop()');
    conversion.deferHeader((ctx) => {
      const text = build(ctx, indentAt(ctx.src, lineStart));
      return text === undefined ? undefined : [{ start: first.start, end: last.end, newText: text }];
    });
    return conversion;
  };
  const bodyIndent = (ctx: FixContext, indent: string) => {
    const next = nextLineStart(ctx.src, lineStart);
    const inner = indentAt(ctx.src, next);
    return next < ctx.src.length && inner.length > indent.length ? inner : `${indent}${ctx.indentUnit}`;
  };
  // for (const x of xs) / for _, x := range xs / for i, x := range xs
  const [a, b, c, d, e] = parts;
  if (parts.length === 3 && a?.kind === TokenKind.Ident && isWord(b, 'of') && c?.kind === TokenKind.Ident) {
    return header((ctx, indent) => listLoopHeader(ctx, a.text, c.text, indent, bodyIndent(ctx, indent)));
  }
  if (
    parts.length === 6 &&
    a?.kind === TokenKind.Ident &&
    isPunct(b, ',') &&
    c?.kind === TokenKind.Ident &&
    isOp(d, ':=') &&
    isWord(e, 'range') &&
    parts[5]?.kind === TokenKind.Ident
  ) {
    const list = parts[5].text;
    return header((ctx, indent) =>
      listLoopHeader(ctx, c.text, list, indent, bodyIndent(ctx, indent), a.text === '_' ? undefined : a.text),
    );
  }
  const sections: Token[][] = [[]];
  for (const x of parts) {
    if (isPunct(x, ';')) sections.push([]);
    else sections[sections.length - 1]?.push(x);
  }
  const [init, test, step] = sections;
  if (sections.length !== 3 || !init || !test || !step) return undefined;
  const counter = init[0];
  if (counter?.kind !== TokenKind.Ident || !(isOp(init[1], '=') || isOp(init[1], ':=')) || init.length !== 3)
    return undefined;
  const from = plainOperand(init, 2, 3);
  if (!from || !isWord(test[0], counter.text) || test.length !== 3) return undefined;
  const op = test[1] as Token;
  if (!(isOp(op, '<') || isOp(op, '<=')) || !plainOperand(test, 2, 3)) return undefined;
  const increments =
    (step.length === 2 && isWord(step[0], counter.text) && isOp(step[1], '++')) ||
    (step.length === 3 && isWord(step[0], counter.text) && isOp(step[1], '+=') && step[2]?.text === '1');
  if (!increments) return undefined;
  const bound = (test[2] as Token).text;
  return header((ctx, indent) => loopHeader(ctx, counter.text, from.text, bound, op.text === '<=', indent));
}

/** `obj.length` → `len(obj)`. */
export function lengthFix(owner: Token, length: Token): Candidate {
  const text = `len(${owner.text})`;
  return { title: `Rewrite as '${text}'`, edits: [{ start: owner.start, end: length.end, newText: text }] };
}

/** The statement `list.push(item)` (`push` at index i, the statement ending at `to`) → `variableToList(item, list)`, for a single-token item. */
export function pushFix(t: readonly Token[], i: number, to: number): Candidate | undefined {
  const owner = t[i - 2] as Token;
  const item = t[i + 2];
  const close = t[i + 3];
  if (!isPunct(t[i + 1], '(') || !item || !isPunct(close, ')') || i + 4 !== to) return undefined;
  if (item.kind !== TokenKind.Ident && item.kind !== TokenKind.Number && item.kind !== TokenKind.String)
    return undefined;
  const text = `variableToList(${item.text}, ${owner.text})`;
  return { title: `Rewrite as '${text}'`, edits: [{ start: owner.start, end: (close as Token).end, newText: text }] };
}

const PLACEHOLDER = /\{\s*([\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)*)\s*\}/gu;

/** A Python f-string `f"Hello {name}"` (the `f` right before the string) → the template `` `Hello ${name}` ``, when every placeholder is a name. */
export function formatStringFix(prefix: Token | undefined, string: Token): Candidate | undefined {
  if (!prefix || prefix.kind !== TokenKind.Ident || !['f', 'F'].includes(prefix.text) || prefix.end !== string.start)
    return undefined;
  if (string.kind !== TokenKind.String || string.unterminated) return undefined;
  const inner = string.text.slice(1, -1);
  if (/[`\\]|\$\{|\{\{|\}\}/.test(inner)) return undefined;
  const template = inner.replace(PLACEHOLDER, (_, name: string) => `\${${name}}`);
  if (/[{}]/.test(template.replace(/\$\{[^}]*\}/g, ''))) return undefined; // an expression in braces: not a name
  const text = `\`${template}\``;
  return { title: `Rewrite as the template ${text}`, edits: [{ start: prefix.start, end: string.end, newText: text }] };
}

/** `await x` → `x`: AVAP calls complete before the next line runs. */
export function removeWordFix(word: Token, next: Token | undefined): Candidate | undefined {
  if (!next) return undefined;
  return { title: `Remove '${word.text}'`, edits: [{ start: word.start, end: next.start, newText: '' }] };
}

/** A top-level, unindented `return x` / `return(x)` of a plain name → `addResult(x)`. */
export function topLevelReturnFix(t: readonly Token[], lineStart: number): Candidate | undefined {
  const ret = t[0] as Token;
  if (ret.start !== lineStart) return undefined;
  const name = isPunct(t[1], '(') && isPunct(t[3], ')') && t.length === 4 ? t[2] : t.length === 2 ? t[1] : undefined;
  if (
    name?.kind !== TokenKind.Ident ||
    !isIdentifier(name.text) ||
    ['None', 'True', 'False', 'true', 'false'].includes(name.text)
  )
    return undefined;
  const text = `addResult(${name.text})`;
  const last = t[t.length - 1] as Token;
  return { title: `Rewrite as '${text}'`, edits: [{ start: ret.start, end: last.end, newText: text }] };
}

/** `function f(a) { return x }` on one line → the header, the body on its own lines, `}`. */
export function inlineBodyFix(src: string, t: readonly Token[], brace: number, lineStart: number): FixHint {
  const open = t[brace] as Token;
  const closes = isPunct(t[t.length - 1], '}');
  const end = (t[t.length - 1] as Token).end;
  // Built only for the findings that get a proof.
  return (ctx) => {
    const body = t.slice(brace + 1, closes ? -1 : undefined);
    const statements: string[] = [];
    let from = 0;
    let depth = 0;
    body.forEach((x, i) => {
      if (isPunct(x, '(') || isPunct(x, '[') || isPunct(x, '{')) depth++;
      else if (isPunct(x, ')') || isPunct(x, ']') || isPunct(x, '}')) depth--;
      else if (isPunct(x, ';') && depth === 0) {
        if (i > from) statements.push(src.slice((body[from] as Token).start, (body[i - 1] as Token).end));
        from = i + 1;
      }
    });
    if (from < body.length)
      statements.push(src.slice((body[from] as Token).start, (body[body.length - 1] as Token).end));
    const indent = indentAt(src, lineStart);
    const inner = `${indent}${ctx.indentUnit}`;
    const text = statements.map((s) => `${ctx.eol}${inner}${s}`).join('') + (closes ? `${ctx.eol}${indent}}` : '');
    return { title: 'Put the function body on its own lines', edits: [{ start: open.end, end, newText: text }] };
  };
}

/**
 * An argument AVAP does not evaluate in place (an expression where a number is
 * expected, `str(x)` passed as text, a command nested in another): computed on
 * the line before, into a fresh variable (or the nested command's own target),
 * which the argument then names. `before` is what goes on that line, given the
 * variable's name.
 */
export function hoistFix(
  lineStart: number,
  arg: { start: number; end: number },
  names: readonly string[],
  before: (name: string) => string,
  given?: string,
): FixHint {
  return (ctx) => {
    const name = given ?? ctx.fresh(...names);
    const line = before(name);
    return {
      title: `Compute it first: ${quote(line)}`,
      edits: [
        { start: lineStart, end: lineStart, newText: `${indentAt(ctx.src, lineStart)}${line}${ctx.eol}` },
        { start: arg.start, end: arg.end, newText: name },
      ],
    };
  };
}

/** `addResult(a, b)` for a command that reads one variable: one call per name, each on its own line. */
export function oneCallPerName(
  command: string,
  name: Token,
  close: Token,
  args: readonly string[],
  lineStart: number,
): FixHint | undefined {
  if (args.length < 2 || !args.every(isIdentifier)) return undefined;
  return (ctx) => {
    const separator = `${ctx.eol}${indentAt(ctx.src, lineStart)}`;
    return {
      title: `One call per variable: ${args.map((a) => `'${command}(${a})'`).join(', ')}`,
      edits: [{ start: name.start, end: close.end, newText: args.map((a) => `${command}(${a})`).join(separator) }],
    };
  };
}

/** `addVar(1, total)`: the value came first; AVAP takes the target first. */
export function swappedArgumentsFix(
  src: string,
  first: { start: number; end: number },
  second: { start: number; end: number },
): Candidate {
  const a = src.slice(first.start, first.end);
  const b = src.slice(second.start, second.end);
  return {
    title: `Swap to 'addVar(${b}, ${a})'`,
    edits: [{ start: first.start, end: second.end, newText: `${b}, ${a}` }],
  };
}

/**
 * `else if(…)` → `else()` and a nested `if(…)` on the next line, plus one more
 * `end()` after the `end()` that closes the chain: AVAP nests the second test
 * inside the else branch.
 */
export class ElseIfRewrite {
  private endAt: number | undefined;

  /**
   * @param line the `else if(…)` line's tokens
   * @param args the arguments its if() gets
   * @param ifLineStart where the line of the chain's first if() starts
   */
  constructor(
    private readonly line: readonly Token[],
    private readonly args: string,
    private readonly ifLineStart: number,
  ) {}

  /** The if() of the chain was closed by the end() whose line ends at `offset`. */
  closedAt(offset: number): void {
    this.endAt = offset;
  }

  hint(): FixHint {
    return (ctx) => {
      if (this.endAt === undefined) return undefined;
      const first = this.line[0] as Token;
      const last = this.line[this.line.length - 1] as Token;
      const indent = indentAt(ctx.src, lineStartOf(ctx.src, first.start));
      return {
        title: `Nest the test in else(): 'else()', 'if(${this.args})' … one more 'end()'`,
        edits: [
          { start: first.start, end: last.end, newText: `else()${ctx.eol}${indent}if(${this.args})` },
          { start: this.endAt, end: this.endAt, newText: `${ctx.eol}${indentAt(ctx.src, this.ifLineStart)}end()` },
        ],
      };
    };
  }
}
