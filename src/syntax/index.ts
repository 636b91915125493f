/**
 * The AVAP syntax tree: editor-free, error tolerant and never throwing. The
 * runtime executes it and the language features (outline, definition, rename,
 * formatting) read it. It is built on the parser's own scanner and call
 * splitter, so it reads lines as the validator does; whether a program is
 * valid is the parser's word (src/parser), not this tree's.
 *
 *   const tree = parseSyntax(text);      // cached by text: asking again is free
 *   for (const s of tree.statements) …   // one statement per line, with spans
 *   walk(tree.body) …                    // blocks nested, with their openers and closers
 */
import { newScanState, scanLine, type LexicalProblem, type ScanState } from '../parser/lexical';
import { nest } from './nesting';
import { closestVersion, movedStatement, type ReadVersion } from './reuse';
import { readStatement } from './statements';
import type { Position, Span, Statement, SyntaxNode, SyntaxTree } from './types';

export * from './types';

/**
 * The last texts read, most recently used last: an editor asks for the same text from several features per
 * keystroke, and a new version reuses what it shares with the closest of them (./reuse.ts) — and takes its
 * place, since an editor does not ask for the version before an edit again (a version held elsewhere stays
 * valid; only the cache lets it go, so four versions of one document are not kept alive for nothing).
 */
const CACHE_SIZE = 4;
const cache = new Map<string, ReadVersion>();

/** The scanner state entering each line of every tree read here, for a later version to reuse it. */
const ENTERING = new WeakMap<SyntaxTree, Uint8Array>();

/** The syntax tree of `source` (cached by text; the tree is shared, so never mutate it). */
export function parseSyntax(source: string): SyntaxTree {
  const hit = cache.get(source);
  if (hit) {
    cache.delete(source);
    cache.set(source, hit);
    return hit.tree;
  }
  const { version, replaces } = read(source, [...cache.values()]);
  if (replaces) cache.delete(replaces.tree.source);
  cache.set(source, version);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return version.tree;
}

/**
 * The syntax tree of `source`, a variant of `basis` (a tree read here): it reuses the lines they share and is not
 * cached — for a text looked at once beside its document (a rename's result, checked before it is offered).
 */
export function parseSyntaxFrom(basis: SyntaxTree, source: string): SyntaxTree {
  if (basis.source === source) return basis;
  const entering = ENTERING.get(basis);
  return read(source, entering ? [{ tree: basis, entering }] : []).version.tree;
}

/**
 * The syntax tree of `source` read from scratch: no cache, nothing reused (what parseSyntax must equal).
 * @internal
 */
export function parseSyntaxFresh(source: string): SyntaxTree {
  return read(source, []).version.tree;
}

/** Where each line of `src` starts and ends (before its line break): `\n`, `\r\n` and a lone `\r` end a line. */
function linesOf(src: string): { starts: number[]; ends: number[] } {
  const n = src.length;
  let count = 1;
  for (let i = 0; i < n; i++) {
    const c = src.charCodeAt(i);
    if (c === 10 || (c === 13 && src.charCodeAt(i + 1) !== 10)) count++;
  }
  const starts = new Array<number>(count);
  const ends = new Array<number>(count);
  let line = 0;
  for (let start = 0; ; line++) {
    let end = start;
    while (end < n) {
      const c = src.charCodeAt(end);
      if (c === 10 || c === 13) break;
      end++;
    }
    starts[line] = start;
    ends[line] = end;
    if (end >= n) break;
    start = end + (src.charCodeAt(end) === 13 && src.charCodeAt(end + 1) === 10 ? 2 : 1);
  }
  return { starts, ends };
}

/**
 * Reads `src`, reusing the lines it shares with the closest of `versions` (most recently read last); `replaces`
 * is that version when the new one is a later version of the same document (it shares nine lines in ten).
 */
function read(src: string, versions: readonly ReadVersion[]): { version: ReadVersion; replaces?: ReadVersion } {
  const { starts: lineStarts, ends: lineEnds } = linesOf(src);
  const count = lineStarts.length;
  const reuse = closestVersion(versions, src, lineStarts, lineEnds);
  const previous = reuse?.version;
  const reusable = reuse?.lines;
  const entering = new Uint8Array(count + 1);
  const statements: Statement[] = new Array<Statement>(count);
  const reader = new LineReader(src);
  const state = reader.state;
  for (let i = 0; i < count; i++) {
    const start = lineStarts[i] as number;
    const end = lineEnds[i] as number;
    entering[i] = state.inBlockComment ? 1 : 0;
    const j = reusable?.[i] ?? -1;
    if (previous && j >= 0 && previous.entering[j] === entering[i]) {
      // The same text entered in the same state: the same statement, moved to where the line now stands.
      const old = previous.tree.statements[j] as Statement;
      const d = start - (previous.tree.lineStarts[j] as number);
      statements[i] = d === 0 && i === j ? old : movedStatement(old, d, i - j);
      state.inBlockComment = previous.entering[j + 1] === 1;
      continue;
    }
    statements[i] = reader.read(i + 1, start, end);
  }
  entering[count] = state.inBlockComment ? 1 : 0;
  const nested = nest(statements);
  const tree: SyntaxTree = {
    source: src,
    lineStarts,
    statements,
    body: nested.body,
    functions: nested.functions,
    problems: nested.problems,
  };
  ENTERING.set(tree, entering);
  return { version: { tree, entering }, ...(reuse?.sameDocument ? { replaces: reuse.version } : {}) };
}

/**
 * Reads the lines of one text, one at a time, in order: what every line shares (the text, the scanner's state
 * carried from line to line, the sink of its lexical problems) is made once per text, not per line.
 */
class LineReader {
  readonly state: ScanState = newScanState();
  /** The line being read has a string left open (the scanner reported it to the sink). */
  private unterminated = false;
  private readonly sink = (problem: LexicalProblem): void => {
    if (problem === 'unterminated-string') this.unterminated = true;
  };

  constructor(private readonly src: string) {}

  /** The statement of the 1-based `line`, which spans [start, end) of the text. */
  read(line: number, start: number, end: number): Statement {
    const { src, state } = this;
    const wasInComment = state.inBlockComment;
    this.unterminated = false;
    try {
      const tokens = scanLine(src, { start, end }, state, this.sink);
      return readStatement({
        src,
        line,
        lineStart: start,
        lineEnd: end,
        tokens,
        inComment: wasInComment || state.inBlockComment,
        unterminated: this.unterminated,
      });
    } catch (e) {
      // The scanner and the call splitter are written not to throw; a tree must be built whatever happens.
      return {
        kind: 'unparsed',
        line,
        span: { start, end },
        text: src.slice(start, end),
        reason: `internal error while reading the line (${e instanceof Error ? e.message : String(e)})`,
      };
    }
  }
}

/**
 * The 0-based line and character of an offset.
 * @internal
 */
export function positionAt(tree: SyntaxTree, offset: number): Position {
  const starts = tree.lineStarts;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, character: offset - (starts[lo] as number) };
}

/**
 * The offset of a 0-based line and character (clamped to the text).
 * @internal
 */
export function offsetAt(tree: SyntaxTree, position: Position): number {
  const starts = tree.lineStarts;
  const line = Math.max(0, Math.min(position.line, starts.length - 1));
  const lineStart = starts[line] as number;
  const next = line + 1 < starts.length ? (starts[line + 1] as number) : tree.source.length;
  return Math.max(lineStart, Math.min(lineStart + Math.max(0, position.character), next));
}

/**
 * The text a span covers.
 * @internal
 */
export function textOf(tree: SyntaxTree, span: Span): string {
  return tree.source.slice(span.start, span.end);
}

/**
 * The statement of a 1-based line, if the line exists.
 * @internal
 */
export function statementAt(tree: SyntaxTree, line: number): Statement | undefined {
  return tree.statements[line - 1];
}

/** Calls `visit` for every node, depth first in source order (a block before what it holds). */
export function walk(nodes: readonly SyntaxNode[], visit: (node: SyntaxNode, depth: number) => void, depth = 0): void {
  for (const node of nodes) {
    visit(node, depth);
    if (node.kind === 'block') {
      walk(node.body, visit, depth + 1);
      if (node.alternate) walk(node.alternate, visit, depth + 1);
    }
  }
}
