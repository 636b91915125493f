/**
 * Incremental reuse: a line's statement depends only on the line's text, the
 * scanner's state entering it (inside a block comment or not), its line number
 * and its offset. So when a new version of a text is read, each line whose
 * text and entering state are those of a line of an earlier version takes that
 * line's statement instead of being scanned again: the same object when it
 * stands at the same line and offset (the lines before an edit), a copy moved
 * by the offset and line difference otherwise (the lines after it). Which old
 * line a new one is compared with: the same line for the lines before the first
 * change, the same line counted from the end for the lines after the last one,
 * and between them the same line when the version has as many lines as the
 * old one (a rename, an edit inside lines), else none.
 *
 * The result is the tree a fresh read gives, property for property
 * (test/unit/syntax/reuse.test.ts holds that over random edits of the corpus).
 */
import type { CallArg, Token } from '../parser/lexical';
import type {
  AssignStatement,
  CallStatement,
  FunctionStatement,
  Name,
  ReturnStatement,
  Span,
  Statement,
  SyntaxArgument,
  SyntaxTree,
} from './types';

/** A version as the next one reuses it: its tree and the scanner's state entering each line (1: in a block comment). */
export interface ReadVersion {
  readonly tree: SyntaxTree;
  /** One entry per line and one more for the state after the last line. */
  readonly entering: Uint8Array;
}

/** Where each line of a text ends (before its line break), from where each starts. */
function lineEndOf(source: string, lineStarts: readonly number[], line: number): number {
  if (line + 1 >= lineStarts.length) return source.length;
  const next = lineStarts[line + 1] as number;
  // The break before the next line is \n, \r or \r\n.
  return next >= 2 && source.charCodeAt(next - 1) === 10 && source.charCodeAt(next - 2) === 13 ? next - 2 : next - 1;
}

/**
 * For each line of the new text, the old line whose statement it may take (its text is the same), or -1.
 * The entering scanner state is checked by the caller as it reads.
 */
function alignLines(old: SyntaxTree, src: string, starts: readonly number[], ends: readonly number[]): Int32Array {
  const oldStarts = old.lineStarts;
  const oldCount = oldStarts.length;
  const count = starts.length;
  const oldSource = old.source;
  const map = new Int32Array(count).fill(-1);
  /** The new line `i` has the text of the old line `j`. */
  const same = (i: number, j: number): boolean => {
    const start = starts[i] as number;
    const oldStart = oldStarts[j] as number;
    const n = (ends[i] as number) - start;
    if (n !== lineEndOf(oldSource, oldStarts, j) - oldStart) return false;
    for (let k = 0; k < n; k++) if (src.charCodeAt(start + k) !== oldSource.charCodeAt(oldStart + k)) return false;
    return true;
  };
  let head = 0;
  while (head < count && head < oldCount && same(head, head)) {
    map[head] = head;
    head++;
  }
  let tail = 0;
  while (tail < count - head && tail < oldCount - head && same(count - 1 - tail, oldCount - 1 - tail)) {
    map[count - 1 - tail] = oldCount - 1 - tail;
    tail++;
  }
  if (count === oldCount) for (let i = head; i < count - tail; i++) if (same(i, i)) map[i] = i;
  return map;
}

/** What a new text may take from an old version: for each of its lines, the old line, or -1. */
export interface Reuse {
  readonly version: ReadVersion;
  readonly lines: Int32Array;
  /** It shares nine lines in ten: a later version of the same document. */
  readonly sameDocument: boolean;
}

/**
 * The version among `versions` (most recently read last) whose lines the new text shares most: the most recent
 * one that shares nine lines in ten (the version before an edit, as a rule), else the best of them.
 */
export function closestVersion(
  versions: readonly ReadVersion[],
  src: string,
  starts: readonly number[],
  ends: readonly number[],
): Reuse | undefined {
  let best: Reuse | undefined;
  let bestShared = 0;
  for (let v = versions.length - 1; v >= 0; v--) {
    const version = versions[v] as ReadVersion;
    const lines = alignLines(version.tree, src, starts, ends);
    let shared = 0;
    for (const j of lines) if (j >= 0) shared++;
    if (shared * 10 >= starts.length * 9) return { version, lines, sameDocument: true };
    if (shared > bestShared) {
      best = { version, lines, sameDocument: false };
      bestShared = shared;
    }
  }
  return best;
}

/**
 * A span moved by `d` characters, in the shape of the object that serves as the span: a scanner token (a name's
 * span), a call splitter's argument, or a plain span. Written out per shape, not spread: a spread over objects of
 * several shapes is the slow path of the engine, and a rename moves most of a file's spans.
 */
function moved<T extends Span>(span: T, d: number): T {
  const s = span as Span & Partial<Token> & Partial<CallArg>;
  if (s.kind !== undefined && s.text !== undefined) {
    const token: Token = { kind: s.kind, start: s.start + d, end: s.end + d, text: s.text };
    if (s.unterminated !== undefined) token.unterminated = s.unterminated;
    return token as Span as T;
  }
  if (s.first !== undefined && s.last !== undefined && s.text !== undefined) {
    const arg: CallArg = { first: s.first, last: s.last, start: s.start + d, end: s.end + d, text: s.text };
    return arg as Span as T;
  }
  return { start: s.start + d, end: s.end + d } as T;
}

function movedName(name: Name, d: number): Name {
  return { text: name.text, span: moved(name.span, d) };
}

function movedArgument(arg: SyntaxArgument, d: number): SyntaxArgument {
  return { text: arg.text, span: moved(arg.span, d) };
}

function movedArguments(args: readonly SyntaxArgument[], d: number): SyntaxArgument[] {
  const out = new Array<SyntaxArgument>(args.length);
  for (let i = 0; i < args.length; i++) out[i] = movedArgument(args[i] as SyntaxArgument, d);
  return out;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * `s`, `d` characters and `lines` lines further down: a copy with the same properties (an absent optional one
 * stays absent); the tree's objects are shared between versions, never changed.
 */
export function movedStatement(s: Statement, d: number, lines: number): Statement {
  const line = s.line + lines;
  const span = moved(s.span, d);
  let out: Mutable<Statement>;
  switch (s.kind) {
    case 'call': {
      const call: Mutable<CallStatement> = {
        kind: 'call',
        line,
        span,
        name: movedName(s.name, d),
        args: movedArguments(s.args, d),
        open: moved(s.open, d),
      };
      if (s.close) call.close = moved(s.close, d);
      if (s.target) call.target = movedName(s.target, d);
      if (s.role !== undefined) call.role = s.role;
      if (s.trailing) call.trailing = moved(s.trailing, d);
      if (s.flaw !== undefined) call.flaw = s.flaw;
      out = call;
      break;
    }
    case 'assign': {
      const assign: Mutable<AssignStatement> = {
        kind: 'assign',
        line,
        span,
        target: movedName(s.target, d),
        value: movedArgument(s.value, d),
      };
      if (s.flaw !== undefined) assign.flaw = s.flaw;
      out = assign;
      break;
    }
    case 'function': {
      const fn: Mutable<FunctionStatement> = {
        kind: 'function',
        line,
        span,
        name: movedName(s.name, d),
        params: s.params.map((p) => movedName(p, d)),
      };
      if (s.brace) fn.brace = moved(s.brace, d);
      out = fn;
      break;
    }
    case 'return': {
      const ret: Mutable<ReturnStatement> = { kind: 'return', line, span, keyword: moved(s.keyword, d) };
      if (s.value) ret.value = movedArgument(s.value, d);
      out = ret;
      break;
    }
    case 'unparsed':
      out = { kind: 'unparsed', line, span, text: s.text, reason: s.reason };
      break;
    default:
      out = { kind: s.kind, line, span };
  }
  if (s.comment) out.comment = moved(s.comment, d);
  return out;
}
