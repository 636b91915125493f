/**
 * Another language's branches as AVAP's: Python `if x > 5:` (with `elif`/`else:`) and brace `if x > 5 {`
 * → `if(…)` … `else()` … `end()`, `else:` → `else()`, `try:`/`try {` → `try()` … `exception(e)` … `end()`,
 * and `else if(…)` nested into `else()`.
 */
import { isPunct, isWord, newScanState, scanLine, type Token } from '../scanner';
import { BraceConversion, braceBranch, branchWords } from './braces';
import {
  closerAfterBody,
  indentAt,
  indentedBody,
  lineEndOf,
  lineStartOf,
  type BranchTest,
  type Candidate,
  type FixContext,
  type FixHint,
} from './candidates';
import { IDENT } from './openBlocks';
import type { OffsetEdit } from './text';
import { firstOf, lastOf } from '../cursor';

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
  const tokens = scanLine(ctx.src, { start, end: lineEndOf(ctx.src, start) }, newScanState(), () => undefined);
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
  const first = firstOf(t);
  const last = lastOf(t);
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
  const first = firstOf(t);
  const last = lastOf(t);
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
 * become a handler for errors the Python lets through.
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
      const first = firstOf(this.line);
      const last = lastOf(this.line);
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
