/**
 * Loops over a list written the way other languages write them —
 * `foreach x in xs`, `foreach (var x in xs) {`, `for x in xs` closed by
 * `endLoop()`, `for i, x in enumerate(xs):`, `xs.forEach(x => {`, and AVAP's
 * own `startLoop(x, xs)` given the list instead of bounds — as the walk AVAP
 * has: getListLen, the last index, a counted loop and itemFromList first in
 * the body (loopHeaders.listLoopHeader, as the Python and JavaScript forms the
 * analysis repairs itself). The walk visits the same items in the same order
 * and leaves the item variable holding the last one, as those loops do.
 */
import { isOp, isPunct, isWord, TokenKind, type Token } from '../scanner';
import type { TraceEntry } from '../types';
import { listLoopHeader } from './loopHeaders';
import { quote, type Candidate, type FixContext, type FixHint } from './candidates';
import { headerParts, loopBody } from './loopBody';
import { viewOf, type SourceView } from './view';
import { tokenAt } from '../cursor';

const DECLARATORS = new Set(['var', 'let', 'const', 'string', 'int', 'object', 'auto', 'dynamic', 'final']);
const isName = (t: Token | undefined): t is Token => t?.kind === TokenKind.Ident;

/** `x in xs` / `var x in xs` / `$xs as $x` → the item and the list, or undefined. */
function itemAndList(parts: readonly Token[]): { item: string; list: string } | undefined {
  let p = [...parts];
  if (isName(p[0]) && DECLARATORS.has(p[0].text) && isName(p[1])) p = p.slice(1);
  if (p.length === 3 && isName(p[0]) && isWord(p[1], 'in') && isName(p[2])) return { item: p[0].text, list: p[2].text };
  if (p.length === 3 && isName(p[0]) && isWord(p[1], 'of') && isName(p[2])) return { item: p[0].text, list: p[2].text };
  return undefined;
}

/** The rewrite of the loop whose header is on `line` into a walk of `found.list`. */
function walk(
  ctx: FixContext,
  view: SourceView,
  line: number,
  found: {
    item: string;
    list: string;
    index?: string;
    /** A forEach callback: its body closes with `})`. */
    callback?: boolean;
  },
): Candidate | undefined {
  const body = loopBody(ctx, view, line, found.callback);
  if (!body) return undefined;
  const indent = view.indent(line);
  const header = listLoopHeader(ctx, {
    item: found.item,
    list: found.list,
    indent,
    bodyIndent: body.indent,
    index: found.index,
  });
  return {
    title: `Walk the list: ${quote(`getListLen(${found.list}, …)`)} … 'startLoop(…)' … 'itemFromList(${found.list}, …, ${found.item})' … 'endLoop()'`,
    edits: [{ start: view.contentStart(line), end: view.end(line), newText: header }, body.closer],
  };
}

/** `foreach x in xs` and its C#/PHP forms, on the entry's line. */
export function foreachFix(entry: TraceEntry): FixHint {
  const line = entry.line;
  return (ctx) => {
    const view = viewOf(ctx);
    const t = view.tokens(line);
    if (t[0]?.text.toLowerCase() !== 'foreach') return undefined;
    const parts = headerParts(t, 1);
    // PHP: foreach ($xs as $x) — globals in AVAP's scanner.
    if (
      parts.length === 3 &&
      parts[0]?.kind === TokenKind.Global &&
      isWord(parts[1], 'as') &&
      parts[2]?.kind === TokenKind.Global
    )
      return walk(ctx, view, line, { item: parts[2].text.slice(1), list: parts[0].text.slice(1) });
    const found = itemAndList(parts);
    return found ? walk(ctx, view, line, found) : undefined;
  };
}

/** `for x in xs` without Python's colon (closed by a closer or braces), and `for i, x in enumerate(xs):`. */
export function forInFix(entry: TraceEntry): FixHint {
  const line = entry.line;
  return (ctx) => {
    const view = viewOf(ctx);
    const t = view.tokens(line);
    if (!isWord(t[0], 'for')) return undefined;
    const parts = headerParts(t, 1);
    // for i, x in enumerate(xs)
    const [i, comma, x, inWord, fn, open, xs, close] = parts;
    if (
      parts.length === 8 &&
      isName(i) &&
      isPunct(comma, ',') &&
      isName(x) &&
      isWord(inWord, 'in') &&
      isWord(fn, 'enumerate') &&
      isPunct(open, '(') &&
      isName(xs) &&
      isPunct(close, ')')
    )
      return walk(ctx, view, line, { item: x.text, list: xs.text, index: i.text });
    const found = itemAndList(parts);
    // `for x in range(…)` is counted, not a list; `for (x in obj)` walks keys in JavaScript.
    if (!found || isPunct(t[1], '(') || found.list === 'range') return undefined;
    return walk(ctx, view, line, found);
  };
}

/** `xs.forEach(x => {` / `xs.forEach((x) => {` / `xs.forEach(function (x) {` … `})`. */
export function forEachMethodFix(entry: TraceEntry): FixHint {
  const line = entry.line;
  return (ctx) => {
    const view = viewOf(ctx);
    const t = view.tokens(line);
    const [list, dot, method, open] = t;
    if (!isName(list) || !isPunct(dot, '.') || !isWord(method, 'forEach') || !isPunct(open, '(')) return undefined;
    if (!isPunct(t[t.length - 1], '{')) return undefined;
    let rest = t.slice(4, -1);
    if (isWord(rest[0], 'function')) rest = rest.slice(1);
    if (isPunct(rest[0], '(') && isPunct(rest[2], ')')) rest = [tokenAt(rest, 1), ...rest.slice(3)];
    const [item, arrow] = rest;
    const shape = isName(item) && (rest.length === 1 || (rest.length === 2 && isOp(arrow, '=>')));
    if (!shape) return undefined;
    return walk(ctx, view, line, { item: item.text, list: list.text, callback: true });
  };
}

/** Counter-like names: `startLoop(i, n)` counts, it does not walk a list. */
const COUNTERS = new Set(['i', 'j', 'k', 'n', 'm', 'idx', 'index', 'counter', 'count', 'x', 'y', 'step', 'pass']);

/** True when the program uses `name` as a list: a list literal assigned, or a list command reading or filling it. */
function knownList(view: SourceView, name: string): boolean {
  for (let n = 1; n <= view.count; n++) {
    if (!view.text(n).includes(name)) continue;
    const t = view.tokens(n);
    if (isWord(t[0], name) && isOp(t[1], '=') && isPunct(t[2], '[')) return true;
    const cmd = t[0]?.text;
    if ((cmd === 'getListLen' || cmd === 'itemFromList') && isWord(t[2], name) && isPunct(t[1], '(')) return true;
    if (cmd === 'variableToList' && isPunct(t[t.length - 1], ')') && isWord(t[t.length - 2], name)) return true;
  }
  return false;
}

/** `startLoop(x, xs)`: the list where the bounds go, walked item by item. */
export function startLoopListFix(entry: TraceEntry): FixHint {
  const line = entry.line;
  return (ctx) => {
    const view = viewOf(ctx);
    const t = view.tokens(line);
    const [name, open, item, comma, list, close] = t;
    if (!isWord(name, 'startLoop') || !isPunct(open, '(') || !isName(item) || !isPunct(comma, ',')) return undefined;
    if (!isName(list) || !isPunct(close, ')') || t.length !== 6) return undefined;
    const plural = /(?:s|List|_list|Array|items)$/.test(list.text);
    if (!knownList(view, list.text) && (!plural || COUNTERS.has(item.text))) return undefined;
    return walk(ctx, view, line, { item: item.text, list: list.text });
  };
}
