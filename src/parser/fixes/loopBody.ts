/**
 * Where the body of a foreign loop header ends and what closes it:
 * a Python header (`…:`) closes where the indentation ends, a brace header
 * (`… {`) at its `}` (or `})` for a callback), any other header at the closer
 * written under it at its own indentation (`end()`, `endLoop()`, or a word of
 * another language: `endforeach`, `endwhile`, `next`, `wend`, `done`).
 * The fix's closer is always `endLoop()`: an edit that inserts it, or that
 * rewrites the closing line into it.
 */
import { isPunct, TokenKind, type Token } from '../scanner';
import type { FixContext } from './candidates';
import type { OffsetEdit } from './text';
import type { SourceView } from './view';

export interface LoopBody {
  /** First and last line of the body (first > last when it is empty). */
  first: number;
  last: number;
  /** The edit that closes the loop with endLoop(). */
  closer: OffsetEdit;
  /** The indentation of the body's lines (one level under the header when it has none of its own). */
  indent: string;
}

const CLOSING_WORDS = new Set(['end', 'endloop', 'endfor', 'endforeach', 'endwhile', 'next', 'wend', 'done', 'loop']);

/** The closing word of a line written as a closer: `end()`, `endLoop()`, `endforeach`, `next;`. */
function closingWord(view: SourceView, line: number): boolean {
  const t = view.tokens(line);
  const first = t[0];
  if (first?.kind !== TokenKind.Ident || !CLOSING_WORDS.has(first.text.toLowerCase())) return false;
  let i = 1;
  if (isPunct(t[i], '(') && isPunct(t[i + 1], ')')) i += 2;
  if (isPunct(t[i], ';')) i++;
  return i === t.length;
}

/** The indentation of the body's first line that is not empty (lines `body.first` … `body.last`), else one unit in. */
function bodyIndent(ctx: FixContext, view: SourceView, header: number, body: { first: number; last: number }): string {
  for (let n = body.first; n <= body.last; n++) if (!view.isEmpty(n)) return view.indent(n);
  return `${view.indent(header)}${ctx.indentUnit}`;
}

/**
 * The body of the loop whose header is on `header`, or undefined when where
 * it ends cannot be told. `callback` accepts `})` as the closing brace line (a
 * forEach callback).
 */
export function loopBody(ctx: FixContext, view: SourceView, header: number, callback = false): LoopBody | undefined {
  const t = view.tokens(header);
  const last = t[t.length - 1];
  const indent = view.indent(header);
  if (isPunct(last, ':')) {
    const end = view.indentedBodyEnd(header);
    if (end === undefined) return undefined;
    return {
      first: header + 1,
      last: end,
      closer: { start: view.end(end), end: view.end(end), newText: `${ctx.eol}${indent}endLoop()` },
      indent: bodyIndent(ctx, view, header, { first: header + 1, last: end }),
    };
  }
  if (isPunct(last, '{')) {
    const close = view.closingBrace(header);
    if (close === undefined || view.indent(close) !== indent) return undefined;
    const ct = view.tokens(close);
    let n = 1;
    if (callback && isPunct(ct[n], ')')) n++;
    if (isPunct(ct[n], ';')) n++;
    if (n !== ct.length || (callback && !isPunct(ct[1], ')'))) return undefined;
    return {
      first: header + 1,
      last: close - 1,
      closer: { start: view.contentStart(close), end: view.end(close), newText: 'endLoop()' },
      indent: bodyIndent(ctx, view, header, { first: header + 1, last: close - 1 }),
    };
  }
  // A closer under the header: the first line back at its indentation when the body is indented, else the
  // AVAP closer that balances the blocks between.
  const next = view.next(header);
  let close: number | undefined;
  if (next <= view.count && view.indent(next).length > indent.length) {
    for (let n = next; n <= view.count; n++) {
      if (view.isEmpty(n)) continue;
      if (view.indent(n).length <= indent.length) {
        close = n;
        break;
      }
    }
  } else {
    close = view.closerOf(header);
  }
  if (close === undefined || view.indent(close) !== indent || !closingWord(view, close)) return undefined;
  return {
    first: header + 1,
    last: close - 1,
    closer: { start: view.contentStart(close), end: view.end(close), newText: 'endLoop()' },
    indent: bodyIndent(ctx, view, header, { first: header + 1, last: close - 1 }),
  };
}

/** The header's tokens without the trailing `:` or `{` and without one pair of parentheses around the rest. */
export function headerParts(t: readonly Token[], from: number): Token[] {
  let parts = t.slice(from);
  const last = parts[parts.length - 1];
  if (isPunct(last, ':') || isPunct(last, '{')) parts = parts.slice(0, -1);
  if (isPunct(parts[0], '(') && isPunct(parts[parts.length - 1], ')')) parts = parts.slice(1, -1);
  return parts;
}
