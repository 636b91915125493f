/**
 * A line-by-line view of a program for the fixes that need more of it than
 * the finding's own line: where a loop's body ends, which opener an
 * `end()` closed, whether a name is read anywhere else. Built only when such
 * a fix is materialised for a proof (once per proof run, shared through the
 * FixContext), never on the path of a valid program.
 *
 * The block structure it reads is the AVAP one a line's first tokens state —
 * `if(`/`startLoop(`/`try(`/`go_async(` open, `end()`/`endLoop()` close,
 * `else()`/`exception(…)` branch — plus `{` … `}` of function bodies and of
 * foreign blocks, counted by the braces a line ends or starts with.
 */
import { isOp, isPunct, newScanState, scanLine, TokenKind, type Token } from '../scanner';
import type { FixContext } from './candidates';

export type LineRole = 'open' | 'close' | 'branch' | 'other';

const OPENERS = new Set(['if', 'startLoop', 'try', 'go_async']);
const CLOSERS = new Set(['end', 'endLoop']);
const BRANCHES = new Set(['else', 'exception']);

export class SourceView {
  /** Offset where each line starts, and one past the text's end. */
  private readonly starts: number[] = [0];
  private readonly tokenCache = new Map<number, Token[]>();
  /** Lines that begin inside a block comment (scanned once, in order, on the first question). */
  private commentStates: boolean[] | undefined;

  constructor(readonly src: string) {
    for (let i = 0; i < src.length; i++) {
      const c = src.charCodeAt(i);
      if (c === 10) this.starts.push(i + 1);
      else if (c === 13) {
        if (src.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      }
    }
  }

  /** Lines of the text (1-based lines 1 … count). */
  get count(): number {
    return this.starts.length;
  }

  start(line: number): number {
    return this.starts[line - 1] ?? this.src.length;
  }

  /** Offset of the end of a line's text, before its break. */
  end(line: number): number {
    const next = this.starts[line];
    if (next === undefined) return this.src.length;
    let e = next - 1;
    if (this.src.charCodeAt(e) === 10 && this.src.charCodeAt(e - 1) === 13) e--;
    return e;
  }

  /** The 1-based line holding `offset`. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  text(line: number): string {
    return this.src.slice(this.start(line), this.end(line));
  }

  indent(line: number): string {
    return /^[ \t]*/.exec(this.text(line))?.[0] ?? '';
  }

  /** Offset of the line's first non-blank character (its end when it has none). */
  contentStart(line: number): number {
    return this.start(line) + this.indent(line).length;
  }

  /** The line's tokens (comments left out, a block comment carried over from the lines above). */
  tokens(line: number): Token[] {
    let cached = this.tokenCache.get(line);
    if (!cached) {
      const state = newScanState();
      state.inBlockComment = this.startsInComment(line);
      cached = scanLine(this.src, { start: this.start(line), end: this.end(line) }, state, () => undefined);
      this.tokenCache.set(line, cached);
    }
    return cached;
  }

  private startsInComment(line: number): boolean {
    if (!this.commentStates) {
      if (!this.src.includes('/*')) return false;
      const states: boolean[] = [false];
      const state = newScanState();
      for (let n = 1; n <= this.count; n++) {
        states.push(state.inBlockComment);
        scanLine(this.src, { start: this.start(n), end: this.end(n) }, state, () => undefined);
      }
      this.commentStates = states;
    }
    return this.commentStates[line] ?? false;
  }

  /** A line with no token: blank, or a comment. */
  isEmpty(line: number): boolean {
    return this.tokens(line).length === 0;
  }

  /** The AVAP block role of a line, from its first tokens. */
  role(line: number): LineRole {
    const t = this.tokens(line);
    const first = t[0];
    if (!first || first.kind !== TokenKind.Ident || !isPunct(t[1], '(')) {
      // `x = exception(e)` is a branch too.
      if (first?.kind === TokenKind.Ident && isOp(t[1], '=') && t[2]?.text === 'exception' && isPunct(t[3], '('))
        return 'branch';
      return 'other';
    }
    if (OPENERS.has(first.text)) return 'open';
    if (CLOSERS.has(first.text)) return 'close';
    if (BRANCHES.has(first.text)) return 'branch';
    return 'other';
  }

  /** The first word of a line (an identifier), or undefined. */
  word(line: number): string | undefined {
    const first = this.tokens(line)[0];
    return first?.kind === TokenKind.Ident ? first.text : undefined;
  }

  /** The previous line with a token, or 0. */
  previous(line: number): number {
    let n = line - 1;
    while (n >= 1 && this.isEmpty(n)) n--;
    return n;
  }

  /** The next line with a token, or count + 1. */
  next(line: number): number {
    let n = line + 1;
    while (n <= this.count && this.isEmpty(n)) n++;
    return n;
  }

  /**
   * The line of the AVAP opener a closer on `line` closes, reading upwards and
   * skipping the blocks opened and closed between; undefined when none.
   */
  openerOf(line: number): number | undefined {
    let depth = 0;
    for (let n = line - 1; n >= 1; n--) {
      const role = this.role(n);
      if (role === 'close') depth++;
      else if (role === 'open') {
        if (depth === 0) return n;
        depth--;
      }
    }
    return undefined;
  }

  /**
   * The closer of the AVAP block opened on `line`, reading downwards; undefined
   * when the text ends first.
   */
  closerOf(line: number): number | undefined {
    let depth = 0;
    for (let n = line + 1; n <= this.count; n++) {
      const role = this.role(n);
      if (role === 'open') depth++;
      else if (role === 'close') {
        if (depth === 0) return n;
        depth--;
      }
    }
    return undefined;
  }

  /**
   * The last line of the body under the header on `line`, by indentation: the
   * following lines indented deeper (empty lines do not end it). Undefined when
   * no line is indented under it.
   */
  indentedBodyEnd(line: number): number | undefined {
    const header = this.indent(line);
    let last: number | undefined;
    for (let n = line + 1; n <= this.count; n++) {
      if (this.isEmpty(n)) continue;
      const own = this.indent(n);
      if (own.length > header.length && own.startsWith(header)) last = n;
      else break;
    }
    return last;
  }

  /**
   * The line of the `}` that closes a `{` ending `line`: the first line whose
   * tokens start with `}` at the header's indentation, braces between counted.
   */
  closingBrace(line: number): number | undefined {
    let depth = 0;
    for (let n = line + 1; n <= this.count; n++) {
      const t = this.tokens(n);
      for (const [i, x] of t.entries()) {
        if (x.kind !== TokenKind.Punct) continue;
        if (x.text === '{') depth++;
        else if (x.text === '}') {
          if (depth === 0) return i === 0 ? n : undefined;
          depth--;
        }
      }
    }
    return undefined;
  }

  /** True when `word` is an identifier token on some line other than those in [from, to]. */
  usedOutside(word: string, from: number, to: number): boolean {
    for (let n = 1; n <= this.count; n++) {
      if (n >= from && n <= to) continue;
      if (!this.text(n).includes(word)) continue;
      if (this.tokens(n).some((t) => t.kind === TokenKind.Ident && t.text === word)) return true;
      // Inside a template or an if expression string: `${word}`, "word > 1".
      if (
        this.tokens(n).some(
          (t) => (t.kind === TokenKind.Template || t.kind === TokenKind.String) && wordIn(t.text, word),
        )
      )
        return true;
    }
    return false;
  }

  /**
   * True when a line in [from, to] assigns `word`: `word = …` (or a compound or
   * Go form), or a command whose target names it — the last argument, or the
   * first of addVar and startLoop.
   */
  assignedIn(word: string, from: number, to: number): boolean {
    for (let n = from; n <= to; n++) {
      const t = this.tokens(n);
      const first = t[0];
      if (!first) continue;
      if (first.text === word && t[1]?.kind === TokenKind.Op && ASSIGNING.has(t[1].text)) return true;
      if (first.kind !== TokenKind.Ident || !isPunct(t[1], '(') || !isPunct(t[t.length - 1], ')')) continue;
      if ((first.text === 'addVar' || first.text === 'startLoop') && t[2]?.text === word) return true;
      if (t[t.length - 2]?.text === word && isPunct(t[t.length - 3], ',')) return true;
    }
    return false;
  }
}

const ASSIGNING = new Set(['=', '+=', '-=', '*=', '/=', '++', '--', ':=']);

function wordIn(text: string, word: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{N}_$])${word.replace(/[$]/g, '\\$')}(?![\\p{L}\\p{N}_])`, 'u').test(text);
}

const views = new WeakMap<FixContext, SourceView>();

/** The view of a proof run's program, made once per FixContext. */
export function viewOf(ctx: FixContext): SourceView {
  let view = views.get(ctx);
  if (!view) views.set(ctx, (view = new SourceView(ctx.src)));
  return view;
}
