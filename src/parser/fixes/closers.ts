/**
 * Closers too many: an `end()` or `endLoop()` with nothing to close,
 * and an `else()` / `exception(e)` left outside its block by an `end()` written
 * too early.
 *
 * - A stray closer does nothing at run time (docs/semantics.md: "Stray
 *   closer"), so deleting it keeps what the program does — offered only when
 *   no block the analysis did not count could be what it closes: no AVAP
 *   opener above it is left open, no line above it opens a foreign block
 *   (`while x:`, `foreach …`, a line ending in `{` or `:`), and no branch above
 *   it is outside its block (that closer may be the one the branch needs).
 * - `if(…)` … `end()` `else()` … `end()`: the first `end()` closed the `if`
 *   the `else()` belongs to; deleting it makes the program the if/else it
 *   spells. Likewise `try()` … `end()` `exception(e)`.
 */
import type { TraceEntry } from '../types';
import { deleteLine, type FixHint } from './candidates';
import { viewOf, type SourceView } from './view';
import { isPunct, TokenKind } from '../scanner';

/** Words that open a block in the languages models slip into. */
const FOREIGN_OPENERS = new Set([
  'for',
  'foreach',
  'while',
  'do',
  'switch',
  'case',
  'def',
  'func',
  'class',
  'with',
  'elif',
  'except',
  'catch',
  'finally',
  'loop',
  'repeat',
  'until',
]);

/** The line is exactly `name()` (a comment after it aside). */
function bareCall(view: SourceView, line: number, names: readonly string[]): string | undefined {
  const t = view.tokens(line);
  const name = t[0];
  if (t.length !== 3 || name?.kind !== TokenKind.Ident || !names.includes(name.text)) return undefined;
  return isPunct(t[1], '(') && isPunct(t[2], ')') ? name.text : undefined;
}

/** A line above `line` that may open a block the analysis did not count as one. */
function foreignOpenerAbove(view: SourceView, line: number): boolean {
  for (let n = 1; n < line; n++) {
    const t = view.tokens(n);
    const first = t[0];
    const last = t[t.length - 1];
    if (!first) continue;
    if (first.kind === TokenKind.Ident && FOREIGN_OPENERS.has(first.text.toLowerCase())) return true;
    if (
      first.kind === TokenKind.Ident &&
      ['if', 'else', 'try', 'startloop', 'go_async'].includes(first.text.toLowerCase())
    ) {
      // AVAP's own openers are counted; another case of them (IF, Else) or a braced / colon form is not.
      if (!['if', 'else', 'try', 'startLoop', 'go_async', 'exception'].includes(first.text)) return true;
      if (!isPunct(t[1], '(')) return true;
    }
    if (first.text === 'function') continue; // a function body is counted
    if (isPunct(last, '{') || isPunct(last, ':')) return true;
  }
  return false;
}

/**
 * The closer that closes nothing, read with the indentation: the first closer
 * above `line` indented otherwise than the opener it closes (the one written
 * twice, when the program is indented), else the closer on `line` itself.
 */
function strayLine(view: SourceView, line: number): number {
  const open: number[] = [];
  for (let n = 1; n < line; n++) {
    const role = view.role(n);
    if (role === 'open') open.push(n);
    else if (role === 'close') {
      const opener = open.pop();
      if (opener !== undefined && view.indent(n) !== view.indent(opener) && bareCall(view, n, ['end', 'endLoop']))
        return n;
    }
  }
  return line;
}

/** An unmatched `end()` / `endLoop()` on the entry's line: delete it, when nothing above could be what it closes. */
export function strayCloserFix(entry: TraceEntry, entries: readonly TraceEntry[]): FixHint | undefined {
  if (entry.suggestion !== undefined) return undefined; // a closer of the wrong kind: its rename is the fix
  const line = entry.line;
  if (entries.some((e) => e.line < line && e.code === 'branch-outside-block')) return undefined;
  return (ctx) => {
    const view = viewOf(ctx);
    if (!bareCall(view, line, ['end', 'endLoop']) || view.openerOf(line) !== undefined) return undefined;
    if (foreignOpenerAbove(view, line)) return undefined;
    const stray = strayLine(view, line);
    const closer = view.word(stray) as string;
    const where = stray === line ? '' : ` on line ${stray}, indented otherwise than the block it closes`;
    return {
      title: `Delete the '${closer}()'${where} that closes nothing`,
      edits: [deleteLine(ctx.src, view.start(stray))],
    };
  };
}

/** `else()` (or `exception(e)`) right after the `end()` that closed its if (try): delete that `end()`. */
export function earlyEndFix(entry: TraceEntry): FixHint | undefined {
  const line = entry.line;
  return (ctx) => {
    const view = viewOf(ctx);
    const role = view.role(line);
    const word = view.word(line);
    if (role !== 'branch') return undefined;
    const wants = word === 'else' ? 'if' : 'try';
    const end = view.previous(line);
    if (end < 1 || bareCall(view, end, ['end']) === undefined) return undefined;
    const opener = view.openerOf(end);
    if (opener === undefined || view.word(opener) !== wants || view.indent(opener) !== view.indent(line))
      return undefined;
    // The block must not have its branch already, and the branch's body must be closed after it.
    for (let n = opener + 1; n < end; n++)
      if (view.role(n) === 'branch' && view.indent(n) === view.indent(opener)) return undefined;
    const closer = view.closerOf(line);
    if (closer === undefined || view.indent(closer) !== view.indent(line)) return undefined;
    return {
      title: `Delete the 'end()' on line ${end}: the ${word}() after it belongs to the ${wants}() of line ${opener}`,
      edits: [deleteLine(ctx.src, view.start(end))],
    };
  };
}
