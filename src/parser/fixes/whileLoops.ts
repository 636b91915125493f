/**
 * Counted `while` loops: a counter set just before the loop, a
 * condition `i < n` or `i <= n`, and `i` stepped by one as the body's last
 * statement — in Python (`while i < n:`), JavaScript / C (`while (i < n) {`)
 * or closed by an AVAP closer — are AVAP's counted loop:
 *
 *     i = 0                       i = 0
 *     while i < n:          →     last = n - 1
 *         …                       startLoop(i, 0, last)
 *         i = i + 1                   …
 *                                 endLoop()
 *
 * It is the same loop only when nothing else changes the counter or the
 * bound in the body (startLoop reads its bounds once), the body does not
 * break out of it, and the counter is not read after the loop (a while leaves
 * it one past the last pass, startLoop on the last pass). Anything else —
 * a count down, `while True:` with a break, a condition on something else —
 * has no counted form, and no fix is offered.
 */
import { isOp, isPunct, isWord, TokenKind, type Token } from '../scanner';
import type { TraceEntry } from '../types';
import { loopHeader } from './loopHeaders';
import { deleteLine, quote, type FixHint } from './candidates';
import { headerParts, loopBody } from './loopBody';
import { viewOf, type SourceView } from './view';
import { tokenAt, firstOf, lastOf } from '../cursor';

const FLOW = new Set(['break', 'continue', 'return', 'goto']);

/** `i < n`, `i <= n`, `n > i`, `n >= i` → the counter, the bound's tokens and whether the bound is included. */
function condition(parts: readonly Token[]): { counter: string; bound: Token[]; inclusive: boolean } | undefined {
  const at = parts.findIndex((x) => x.kind === TokenKind.Op && ['<', '<=', '>', '>='].includes(x.text));
  if (at <= 0 || at === parts.length - 1) return undefined;
  if (
    parts.some(
      (x, i) => i !== at && x.kind === TokenKind.Op && ['<', '<=', '>', '>=', '==', '!=', '&&', '||'].includes(x.text),
    )
  )
    return undefined;
  if (parts.some((x) => isWord(x, 'and') || isWord(x, 'or') || isWord(x, 'not'))) return undefined;
  const op = tokenAt(parts, at).text;
  const left = parts.slice(0, at);
  const right = parts.slice(at + 1);
  const one = (side: Token[]) => (side.length === 1 && side[0]?.kind === TokenKind.Ident ? side[0].text : undefined);
  if (op === '<' || op === '<=') {
    const counter = one(left);
    return counter ? { counter, bound: right, inclusive: op === '<=' } : undefined;
  }
  const counter = one(right);
  return counter ? { counter, bound: left, inclusive: op === '>=' } : undefined;
}

/** The bound as AVAP writes it: `xs.length` → `len(xs)`; undefined when it holds something AVAP lacks. */
function boundText(src: string, bound: readonly Token[]): string | undefined {
  const [a, dot, length] = bound;
  if (bound.length === 3 && a?.kind === TokenKind.Ident && isPunct(dot, '.') && isWord(length, 'length'))
    return `len(${a.text})`;
  if (bound.some((x) => x.kind === TokenKind.Op && !['+', '-', '*', '/', '%'].includes(x.text))) return undefined;
  if (bound.some((x) => isPunct(x, '.') || isPunct(x, '{'))) return undefined;
  return src.slice(firstOf(bound).start, lastOf(bound).end);
}

/** The statement `i = i + 1` / `i += 1` / `i++` / `++i` (a `;` after it allowed). */
function isStep(t: readonly Token[], counter: string): boolean {
  let u = [...t];
  if (isPunct(u[u.length - 1], ';')) u = u.slice(0, -1);
  if (u.length === 2) return (isWord(u[0], counter) && isOp(u[1], '++')) || (isOp(u[0], '++') && isWord(u[1], counter));
  if (u.length === 3) return isWord(u[0], counter) && isOp(u[1], '+=') && u[2]?.text === '1';
  if (u.length === 5 && isWord(u[0], counter) && isOp(u[1], '=') && isOp(u[3], '+'))
    return (isWord(u[2], counter) && u[4]?.text === '1') || (u[2]?.text === '1' && isWord(u[4], counter));
  return false;
}

/** The value the counter is set to on `line` (`i = 0`, `let i = 0;`, `i := 0`, `addVar(i, 0)`), when it is a plain one. */
function initialValue(view: SourceView, line: number, counter: string): string | undefined {
  let t = view.tokens(line);
  if (isPunct(t[t.length - 1], ';')) t = t.slice(0, -1);
  if (t[0] && ['let', 'var', 'const'].includes(t[0].text)) t = t.slice(1);
  const plain = (x: Token | undefined) =>
    x && (x.kind === TokenKind.Number || (x.kind === TokenKind.Ident && x.text !== counter)) ? x.text : undefined;
  if (t.length === 3 && isWord(t[0], counter) && (isOp(t[1], '=') || isOp(t[1], ':='))) return plain(t[2]);
  if (t.length === 6 && isWord(t[0], 'addVar') && isWord(t[2], counter) && isPunct(t[3], ',')) return plain(t[4]);
  return undefined;
}

export function whileFix(entry: TraceEntry): FixHint {
  const line = entry.line;
  return (ctx) => {
    if (ctx.partial) return undefined; // the counter's use after the loop is in lines not written yet
    const view = viewOf(ctx);
    const t = view.tokens(line);
    if (!isWord(t[0], 'while')) return undefined;
    const cond = condition(headerParts(t, 1));
    if (!cond) return undefined;
    const { counter, inclusive } = cond;
    const bound = boundText(ctx.src, cond.bound);
    if (bound === undefined) return undefined;
    const body = loopBody(ctx, view, line);
    if (!body || body.last < body.first) return undefined;
    // The step: the body's last statement, at the body's own indentation.
    const step = view.previous(body.last + 1);
    if (step < body.first || view.indent(step) !== body.indent || !isStep(view.tokens(step), counter)) return undefined;
    if (view.assignedIn(counter, body.first, step - 1)) return undefined;
    for (const x of cond.bound)
      if (x.kind === TokenKind.Ident && view.assignedIn(x.text, body.first, body.last)) return undefined;
    for (let n = body.first; n <= body.last; n++) if (view.tokens(n).some((x) => FLOW.has(x.text))) return undefined;
    // The counter's start: the last line above that sets it, at the loop's own level, with a plain value.
    let init = view.previous(line);
    while (init >= 1 && !view.assignedIn(counter, init, init)) init = view.previous(init);
    if (init < 1 || view.indent(init) !== view.indent(line)) return undefined;
    const from = initialValue(view, init, counter);
    if (from === undefined) return undefined;
    const closeLine = view.lineOf(body.closer.start);
    if (view.usedOutside(counter, init, Math.max(closeLine, body.last))) return undefined;
    const header = loopHeader(ctx, { counter, from, limit: bound, inclusive, indent: view.indent(line) });
    if (header === undefined) return undefined;
    const loopLine = header.split(/\r\n|\n|\r/).find((l) => l.trimStart().startsWith('startLoop(')) ?? header;
    // The step goes; when the closer is inserted right after it, the closer takes its line instead.
    const closesAtStep = body.closer.start === body.closer.end && body.closer.start === view.end(step);
    const tail = closesAtStep
      ? [{ start: view.start(step), end: view.end(step), newText: `${view.indent(line)}endLoop()` }]
      : [deleteLine(ctx.src, view.start(step)), body.closer];
    return {
      title: `Rewrite as a counted loop: ${quote(loopLine)} … 'endLoop()'`,
      edits: [{ start: view.contentStart(line), end: view.end(line), newText: header }, ...tail],
    };
  };
}
