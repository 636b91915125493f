/**
 * A string or a call left open at the end of its line. AVAP has one
 * statement per line, so what is open when the line ends was meant to close
 * on it:
 *
 * - `addVar(msg, "Hello)`: the string runs to the end of the line, swallowing
 *   the `)` that closes the call; its quote goes before the closers that
 *   balance the line's open brackets (`"Hello")`), or at the end of the line
 *   when none follows (`ref = "ORD-" + id + "-EU` → `…"-EU"`).
 * - `addResult(total`: the missing `)` (and `]`) go at the end of the line,
 *   innermost first — offered only when no string on the line is open, whose
 *   quote is the thing to place first.
 *
 * Where the closing point is not the end of the line (`"https://a.example/users,
 * , , users)` — the URL ends before the commas), the fixed line is still wrong
 * and its proof fails: no fix is offered.
 */
import type { TraceEntry } from '../types';
import { TokenKind, type Token } from '../scanner';
import type { FixHint } from './candidates';
import { viewOf } from './view';
import { tokenAt } from '../cursor';

const CLOSER: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** The brackets still open after tokens[0, upto), innermost last (undefined when a closer mismatches). */
function openBrackets(t: readonly Token[], upto: number): string[] | undefined {
  const stack: string[] = [];
  for (let i = 0; i < upto; i++) {
    const x = tokenAt(t, i);
    if (x.kind !== TokenKind.Punct) continue;
    if (x.text === '(' || x.text === '[' || x.text === '{') stack.push(x.text);
    else if (x.text === ')' || x.text === ']' || x.text === '}') {
      if (stack.length === 0 || CLOSER[stack[stack.length - 1] as string] !== x.text) return undefined;
      stack.pop();
    }
  }
  return stack;
}

/** The unterminated string of the entry: its quote goes before the closers its line ends with. */
export function openStringFix(entry: TraceEntry): FixHint {
  const line = entry.line;
  return (ctx) => {
    const view = viewOf(ctx);
    const t = view.tokens(line);
    const at = t.findIndex((x) => x.unterminated === true);
    const str = t[at];
    if (!str || at !== t.length - 1 || str.kind !== TokenKind.String) return undefined;
    const open = openBrackets(t, at);
    if (!open) return undefined;
    const quote = str.text[0] as string;
    // The string's text, then the closers of the open brackets (innermost first) it swallowed; blanks at the
    // end of the line are not the string's, blanks before a swallowed closer are (`" )` is the text " ").
    let end = str.end;
    while (end > str.start + 1 && /\s/.test(ctx.src[end - 1] as string)) end--;
    let k = 0;
    while (k < open.length && end > str.start + 1 && ctx.src[end - 1] === CLOSER[open[open.length - 1 - k] as string]) {
      end--;
      k++;
    }
    const rest = open
      .slice(0, open.length - k)
      .reverse()
      .map((o) => CLOSER[o])
      .join('');
    const swallowed = ctx.src.slice(end, str.end).replace(/\s+$/, '');
    return {
      title: `Close the string with ${quote} on its line`,
      edits: [{ start: end, end: str.end, newText: `${quote}${swallowed}${rest}` }],
    };
  };
}

/** A call (or bracket) still open at the end of its line: its closers go at the end of the line. */
export function openCallFix(entry: TraceEntry): FixHint {
  const line = entry.line;
  return (ctx) => {
    const view = viewOf(ctx);
    const t = view.tokens(line);
    const last = t[t.length - 1];
    if (!last || t.some((x) => x.unterminated === true)) return undefined;
    const open = openBrackets(t, t.length);
    if (!open || open.length === 0 || open.includes('{')) return undefined;
    // `;` or `,` left at the end stays after the closers it was meant to follow: not ours to guess.
    if (last.kind === TokenKind.Punct && (last.text === ',' || last.text === ';')) return undefined;
    const closers = open
      .reverse()
      .map((o) => CLOSER[o])
      .join('');
    return {
      title: `Close the call on its line: add '${closers}'`,
      edits: [{ start: last.end, end: last.end, newText: closers }],
    };
  };
}
