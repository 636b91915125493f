/**
 * Loop headers of other languages as AVAP's counted loop: Python `for i in range(a, b):`, JavaScript
 * `for (let i = 0; i < n; i++) {`, and the list loops and while loops (listLoops.ts, whileLoops.ts) built on them.
 */
import { matchBracket, parseCall } from '../calls';
import { TokenKind, isOp, isPunct, isWord, type Token } from '../scanner';
import { BraceConversion } from './braces';
import {
  closerAfterBody,
  indentAt,
  indentedBody,
  nextLineStart,
  quote,
  type FixContext,
  type FixHint,
} from './candidates';
import { tokenAt, firstOf, lastOf } from '../cursor';

/** Tokens between `from` and `to` form one plain number or name (a loop bound AVAP accepts as is). */
function plainOperand(t: readonly Token[], from: number, to: number): Token | undefined {
  if (to - from !== 1) return undefined;
  const x = tokenAt(t, from);
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

/** A counted loop as another language wrote it. */
interface CountedLoop {
  counter: string;
  from: string;
  /** The bound: the last value when `inclusive`, else the first value past the end. */
  limit: string;
  inclusive: boolean;
  /** The indentation of the header's line. */
  indent: string;
}

/**
 * A counted-loop header for `counter` from `from` while below `limit` (Python's
 * range end, JavaScript's `i < n`): AVAP's loop includes its upper bound, so the
 * bound is `limit - 1` — computed when it is a literal, else in a variable
 * assigned on the line before.
 */
export function loopHeader(ctx: FixContext, loop: CountedLoop): string | undefined {
  const { counter, from, limit, inclusive, indent } = loop;
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
function pythonForHeader(ctx: FixContext, t: readonly Token[], end: number, indents: Indents): string | undefined {
  const { indent, bodyIndent } = indents;
  const counter = tokenAt(t, 1);
  const iterable = t[3];
  if (!iterable || iterable.kind !== TokenKind.Ident) return undefined;
  if (iterable.text === 'range' && isPunct(t[4], '(')) {
    const close = matchBracket(t, 4);
    if (close !== end - 1) return undefined;
    const call = parseCall(ctx.src, t, 4, tokenAt(t, close).end);
    const args = call.args;
    if (args.length === 3 && args[2]?.text !== '1') return undefined;
    const [a, b] = args.length === 1 ? [undefined, args[0]] : [args[0], args[1]];
    if (!b || b.text === '' || (args.length > 1 && !a) || args.length > 3) return undefined;
    const from = a ? plainOperand(t, a.first, a.last)?.text : '0';
    if (from === undefined) return undefined;
    return loopHeader(ctx, { counter: counter.text, from, limit: b.text, inclusive: false, indent });
  }
  if (end !== 4) return undefined;
  return listLoopHeader(ctx, { item: counter.text, list: iterable.text, indent, bodyIndent });
}

/** The indentation of a loop header's line and of its body's lines. */
interface Indents {
  indent: string;
  bodyIndent: string;
}

/** A loop over the items of a list, as another language wrote it. */
interface ListLoop extends Indents {
  /** The name each item gets. */
  item: string;
  list: string;
  /** The counter's name when the source gave one. */
  index?: string | undefined;
}

/**
 * Walking a list by index, as AVAP does: its length, the last index, a counted
 * loop, and the element read first thing in the body. `index` names the
 * counter when the source gave one (Go's `for i, x := range xs`).
 */
export function listLoopHeader(ctx: FixContext, loop: ListLoop): string {
  const { item, list, indent, bodyIndent } = loop;
  const index = loop.index ?? loopName(ctx, indent, 'i', `${item}_index`);
  const size = ctx.fresh(`${list}_len`, `${list}_size`);
  const last = ctx.fresh(`${list}_last`, `last_${index}`);
  const eol = ctx.eol;
  return `getListLen(${list}, ${size})${eol}${indent}${last} = ${size} - 1${eol}${indent}startLoop(${index}, 0, ${last})${eol}${bodyIndent}itemFromList(${list}, ${index}, ${item})`;
}

/** `for i in range(a, b):` with an indented body → `startLoop(i, a, b - 1)` … `endLoop()`. */
export function pythonLoopFix(t: readonly Token[], lineStart: number): FixHint | undefined {
  const colon = lastOf(t);
  if (!isPunct(colon, ':') || t[1]?.kind !== TokenKind.Ident) return undefined;
  const first = firstOf(t);
  return (ctx) => {
    const body = indentedBody(ctx.src, lineStart, Number.MAX_SAFE_INTEGER);
    if (!body) return undefined;
    const header = pythonForHeader(ctx, t, t.length - 1, {
      indent: indentAt(ctx.src, lineStart),
      bodyIndent: body.bodyIndent,
    });
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

/**
 * A JavaScript/Go loop whose body is in braces, as an AVAP loop closed by
 * endLoop(): a counted header (`for (let i = a; i < b; i++) {`, `for i := a; i
 * <= b; i++ {`) or a walk over a list (`for (const x of xs) {`, `for _, x :=
 * range xs {`). Undefined for any other shape (`for (k in obj)`, `for {`).
 */
export function braceLoopConversion(t: readonly Token[], lineStart: number): BraceConversion | undefined {
  const last = lastOf(t);
  if (!isPunct(last, '{')) return undefined;
  let parts = t.slice(1, -1);
  if (isPunct(parts[0], '(') && isPunct(parts[parts.length - 1], ')')) parts = parts.slice(1, -1);
  if (parts[0] && ['let', 'var', 'const'].includes(parts[0].text)) parts = parts.slice(1);
  const first = firstOf(t);
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
    return header((ctx, indent) =>
      listLoopHeader(ctx, { item: a.text, list: c.text, indent, bodyIndent: bodyIndent(ctx, indent) }),
    );
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
      listLoopHeader(ctx, {
        item: c.text,
        list,
        indent,
        bodyIndent: bodyIndent(ctx, indent),
        index: a.text === '_' ? undefined : a.text,
      }),
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
  const op = tokenAt(test, 1);
  if (!(isOp(op, '<') || isOp(op, '<=')) || !plainOperand(test, 2, 3)) return undefined;
  const increments =
    (step.length === 2 && isWord(step[0], counter.text) && isOp(step[1], '++')) ||
    (step.length === 3 && isWord(step[0], counter.text) && isOp(step[1], '+=') && step[2]?.text === '1');
  if (!increments) return undefined;
  const bound = tokenAt(test, 2).text;
  return header((ctx, indent) =>
    loopHeader(ctx, { counter: counter.text, from: from.text, limit: bound, inclusive: op.text === '<=', indent }),
  );
}
