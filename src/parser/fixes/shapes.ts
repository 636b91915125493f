/**
 * Statements of a shape AVAP does not have, where one AVAP statement says the
 * same:
 *
 * - a line that is only a string — a Python docstring, JavaScript's `"use
 *   strict"` — does nothing: it becomes the comment it is;
 * - `d["key"] = v` / `d.key = v` sets a key of a dictionary:
 *   `AddvariableToJSON("key", v, d)` — only when no variable of the program is
 *   called `key` (AVAP resolves a key that names a variable to its value), and
 *   with the value computed on the line before when it is not a plain name or
 *   number (AVAP does not evaluate an argument);
 * - `x = c ? a : b` is Python's `x = a if c else b`;
 * - a closing word of another language on its own line (`endfor`, `endif`,
 *   `endwhile`, `next`) is the closer of the AVAP block it closes.
 */
import { isIdentifier } from '../calls';
import { isOp, isPunct, TokenKind } from '../scanner';
import type { TraceEntry } from '../types';
import { quote, type FixHint } from './candidates';
import { viewOf } from './view';
import { tokenAt, firstOf, lastOf } from '../cursor';

/** A line of string literals only (a `;` after them allowed): its comment. */
export function stringLineFix(entry: TraceEntry): FixHint {
  const line = entry.line;
  return (ctx) => {
    const view = viewOf(ctx);
    let t = view.tokens(line);
    if (isPunct(t[t.length - 1], ';')) t = t.slice(0, -1);
    if (t.length === 0 || !t.every((x) => x.kind === TokenKind.String && !x.unterminated)) return undefined;
    const text = t
      .map((x) => x.text.slice(1, -1))
      .join('')
      .trim();
    if (/\*\//.test(text)) return undefined;
    return {
      title: 'Keep the text as a comment',
      edits: [{ start: view.contentStart(line), end: view.end(line), newText: text === '' ? '//' : `// ${text}` }],
    };
  };
}

/** `d["key"] = v`, `d['key'] = v`, `d.key = v` → AddvariableToJSON("key", v, d). */
export function keyAssignmentFix(entry: TraceEntry): FixHint {
  const line = entry.line;
  return (ctx) => {
    if (ctx.partial) return undefined; // a variable named like the key may come further down
    const view = viewOf(ctx);
    const t = view.tokens(line);
    const [dict, a, b, c] = t;
    if (dict?.kind !== TokenKind.Ident || !isIdentifier(dict.text)) return undefined;
    let key: string | undefined;
    let eq: number;
    if (isPunct(a, '[') && b?.kind === TokenKind.String && !b.unterminated && isPunct(c, ']')) {
      key = b.text.slice(1, -1);
      eq = 4;
    } else if (isPunct(a, '.') && b?.kind === TokenKind.Ident) {
      key = b.text;
      eq = 3;
    } else return undefined;
    if (!isIdentifier(key) || !isOp(t[eq], '=') || t.length <= eq + 1) return undefined;
    // A key that names a variable anywhere in the program would be read as that variable's value.
    if (view.usedOutside(key, line, line) || key === dict.text) return undefined;
    let end = t.length;
    if (isPunct(t[end - 1], ';')) end--;
    const value = t.slice(eq + 1, end);
    const first = firstOf(value);
    const last = lastOf(value);
    const plain =
      value.length === 1 &&
      (first.kind === TokenKind.Number ||
        (first.kind === TokenKind.Ident &&
          isIdentifier(first.text) &&
          !['None', 'True', 'False'].includes(first.text)));
    const json = (v: string) => `AddvariableToJSON("${key}", ${v}, ${dict.text})`;
    if (plain)
      return {
        title: `Rewrite as '${json(first.text)}'`,
        edits: [{ start: dict.start, end: last.end, newText: json(first.text) }],
      };
    const name = ctx.fresh(`${dict.text}_${key}`);
    const before = `${name} = ${ctx.src.slice(first.start, last.end)}`;
    return {
      title: `Compute the value first: ${quote(before)}, then '${json(name)}'`,
      edits: [{ start: dict.start, end: last.end, newText: `${before}${ctx.eol}${view.indent(line)}${json(name)}` }],
    };
  };
}

/** `x = c ? a : b` → `x = a if c else b` (one `?` on the line). */
export function ternaryFix(entry: TraceEntry): FixHint {
  const line = entry.line;
  return (ctx) => {
    const view = viewOf(ctx);
    const t = view.tokens(line);
    if (t[0]?.kind !== TokenKind.Ident || !isOp(t[1], '=')) return undefined;
    let end = t.length;
    if (isPunct(t[end - 1], ';')) end--;
    let depth = 0;
    let q = -1;
    let colon = -1;
    for (let i = 2; i < end; i++) {
      const x = tokenAt(t, i);
      if (isPunct(x, '(') || isPunct(x, '[') || isPunct(x, '{')) depth++;
      else if (isPunct(x, ')') || isPunct(x, ']') || isPunct(x, '}')) depth--;
      else if (depth === 0 && isOp(x, '?')) {
        if (q !== -1) return undefined;
        q = i;
      } else if (depth === 0 && isPunct(x, ':') && q !== -1 && colon === -1) colon = i;
    }
    if (q <= 2 || colon <= q + 1 || colon >= end - 1) return undefined;
    const text = (from: number, to: number) => ctx.src.slice(tokenAt(t, from).start, tokenAt(t, to - 1).end);
    const rewritten = `${text(q + 1, colon)} if ${text(2, q)} else ${text(colon + 1, end)}`;
    return {
      title: `Rewrite as ${quote(rewritten)}`,
      edits: [{ start: tokenAt(t, 2).start, end: tokenAt(t, end - 1).end, newText: rewritten }],
    };
  };
}

const LOOP_WORDS = new Set(['endfor', 'endforeach', 'endwhile', 'next', 'wend', 'done', 'loop', 'endloop']);
const IF_WORDS = new Set(['endif', 'fi', 'endtry', 'end']);

/** A closing word alone on its line, read as the closer of the AVAP block open above it. */
export function closingWordFix(entry: TraceEntry): FixHint {
  const line = entry.line;
  return (ctx) => {
    const view = viewOf(ctx);
    let t = view.tokens(line);
    if (isPunct(t[t.length - 1], ';')) t = t.slice(0, -1);
    if (t.length !== 1 || t[0]?.kind !== TokenKind.Ident) return undefined;
    const word = t[0].text.toLowerCase();
    const opener = view.openerOf(line);
    if (opener === undefined || view.indent(opener) !== view.indent(line)) return undefined;
    const loop = view.word(opener) === 'startLoop';
    if (loop ? !LOOP_WORDS.has(word) : !IF_WORDS.has(word)) return undefined;
    const closer = loop ? 'endLoop()' : 'end()';
    return {
      title: `Replace '${t[0].text}' with '${closer}'`,
      edits: [{ start: view.contentStart(line), end: view.end(line), newText: closer }],
    };
  };
}
