/**
 * Positions as editors count them — 0-based lines and UTF-16 characters, the
 * end of a range exclusive (VS Code's and the Language Server Protocol's
 * default) — and the map between them and source offsets. The types are
 * structurally those of the protocol, so the language server passes them on
 * as they are and the VS Code adapter builds its own from them.
 */

export interface Position {
  readonly line: number;
  readonly character: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

/** An edit of the text: `range` replaced by `newText`. */
export interface TextEdit {
  readonly range: Range;
  readonly newText: string;
}

/** @internal */
export const position = (line: number, character: number): Position => ({ line, character });
/** @internal */
export const range = (start: Position, end: Position): Range => ({ start, end });

/**
 * Is `p` before `q`?
 * @internal
 */
export function before(p: Position, q: Position): boolean {
  return p.line < q.line || (p.line === q.line && p.character < q.character);
}

/**
 * Is `p` inside `r`, its end included (a cursor right after a word is on it)?
 * @internal
 */
export function contains(r: Range, p: Position): boolean {
  return !before(p, r.start) && !before(r.end, p);
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** The start offset of each line of `text` (a line ends after `\n`; `\r\n` and a lone `\r` count as one break too). */
export class LineMap {
  private readonly starts: readonly number[];

  /** `starts`, when given, are the line starts of `text` already known (a syntax tree's, counted the same way). */
  constructor(
    readonly text: string,
    starts?: readonly number[],
  ) {
    this.starts = starts ?? lineStartsOf(text);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** Offset where line `line` starts (clamped to the text). */
  lineStart(line: number): number {
    if (line <= 0) return 0;
    if (line >= this.starts.length) return this.text.length;
    return this.starts[line] as number;
  }

  /** Offset of the end of line `line`'s content, before its line break. */
  lineEnd(line: number): number {
    if (line < 0) return 0;
    if (line >= this.starts.length - 1) return this.text.length;
    let end = (this.starts[line + 1] as number) - 1;
    if (end > 0 && this.text.charCodeAt(end) === 10 && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  /** The text of line `line`, without its line break. */
  lineText(line: number): string {
    return this.text.slice(this.lineStart(line), this.lineEnd(line));
  }

  /** The 0-based line of `offset`. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  positionAt(offset: number): Position {
    const clamped = Math.min(Math.max(0, offset), this.text.length);
    const line = this.lineOf(clamped);
    return { line, character: Math.min(clamped, this.lineEnd(line)) - this.lineStart(line) };
  }

  /** The offset of `p`, clamped to its line (a position past a line's end is its end). */
  offsetAt(p: Position): number {
    if (p.line < 0) return 0;
    if (p.line >= this.starts.length) return this.text.length;
    const start = this.lineStart(p.line);
    return Math.min(start + Math.max(0, p.character), this.lineEnd(p.line));
  }

  rangeOf(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }
}
