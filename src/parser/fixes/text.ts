/**
 * Text positions and edits for fixes: a line index that splits lines exactly
 * as the analyzer does (LF, CRLF or a lone CR), conversions between source
 * offsets and the trace's 1-based line/column (UTF-16, end exclusive), and
 * applying non-overlapping edits. Pure; never throws.
 */
import type { TextEdit } from '../types';

/** An edit in source offsets: replace [start, end) with newText. */
export interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
}

export class LineIndex {
  /** Offset where each line starts; line n (1-based) starts at starts[n - 1]. Found up to where it was asked. */
  private readonly starts: number[] = [0];
  /** The next LF and CR from the last line start found (-1: none left). */
  private lf: number;
  private cr: number;

  constructor(readonly text: string) {
    // The breaks are found with indexOf, as the analyzer finds them: a loop over every character was about 8 % of
    // proving the fixes of a small program with many findings. They are found only as far as positions are asked
    // for: a proof asks around its edits, and indexing every line of a long file was over a third of what proving
    // six fixes near its start cost.
    this.lf = text.indexOf('\n');
    this.cr = text.indexOf('\r');
  }

  /** Finds line starts until one is past `offset` and `lines` of them are known, or the text ends. */
  private extend(offset: number, lines: number): void {
    const { text, starts } = this;
    let { lf, cr } = this;
    while ((lf !== -1 || cr !== -1) && ((starts[starts.length - 1] as number) <= offset || starts.length < lines)) {
      let next: number;
      if (cr === -1 || (lf !== -1 && lf < cr)) next = lf + 1;
      else next = cr + (text.charCodeAt(cr + 1) === 10 ? 2 : 1);
      starts.push(next);
      if (lf !== -1 && lf < next) lf = text.indexOf('\n', next);
      if (cr !== -1 && cr < next) cr = text.indexOf('\r', next);
    }
    this.lf = lf;
    this.cr = cr;
  }

  get lineCount(): number {
    this.extend(this.text.length, Infinity);
    return this.starts.length;
  }

  /** 1-based line and column of an offset (clamped into the text). */
  position(offset: number): { line: number; column: number } {
    const at = Math.max(0, Math.min(offset, this.text.length));
    this.extend(at, 0);
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: at - (this.starts[lo] as number) + 1 };
  }

  /** Offset of the end of a line's text (before its line break). */
  contentEnd(line: number): number {
    this.extend(-1, line + 1);
    const next = this.starts[line];
    if (next === undefined) return this.text.length;
    return next - (this.text.charCodeAt(next - 1) === 10 && this.text.charCodeAt(next - 2) === 13 ? 2 : 1);
  }

  /**
   * Offset of a 1-based line/column, or undefined when it is not inside the
   * text (a column may point just past the line's text, never into its break).
   */
  offset(line: number, column: number): number | undefined {
    if (!Number.isInteger(line) || !Number.isInteger(column) || line < 1 || column < 1) return undefined;
    this.extend(-1, line);
    const start = this.starts[line - 1];
    if (start === undefined) return undefined;
    const at = start + column - 1;
    return at <= this.contentEnd(line) ? at : undefined;
  }
}

/** Number of line breaks in a text (CRLF counts once). */
export function lineBreaks(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) n++;
    else if (c === 13) {
      n++;
      if (text.charCodeAt(i + 1) === 10) i++;
    }
  }
  return n;
}

/**
 * Sorts edits and checks they can be applied together: inside the text and
 * never overlapping (two insertions at one offset count as overlapping: their
 * order would be a guess). Returns undefined when they cannot.
 */
export function orderedEdits(edits: readonly OffsetEdit[], length: number): OffsetEdit[] | undefined {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let previous: OffsetEdit | undefined;
  for (const edit of sorted) {
    if (!(edit.start >= 0 && edit.end >= edit.start && edit.end <= length)) return undefined;
    if (previous && (edit.start < previous.end || edit.start === previous.start)) return undefined;
    previous = edit;
  }
  return sorted;
}

/** Applies edits already ordered and checked by orderedEdits. */
export function applyOrdered(text: string, edits: readonly OffsetEdit[]): string {
  let out = '';
  let at = 0;
  for (const edit of edits) {
    out += text.slice(at, edit.start) + edit.newText;
    at = edit.end;
  }
  return out + text.slice(at);
}

/** The trace-coordinate form of an offset edit. */
export function toTextEdit(index: LineIndex, edit: OffsetEdit): TextEdit {
  const start = index.position(edit.start);
  const end = index.position(edit.end);
  return { line: start.line, column: start.column, endLine: end.line, endColumn: end.column, newText: edit.newText };
}

/** The offset form of a trace-coordinate edit, or undefined when it does not fit the text. */
export function toOffsetEdit(index: LineIndex, edit: TextEdit): OffsetEdit | undefined {
  const start = index.offset(edit.line, edit.column);
  const end = index.offset(edit.endLine, edit.endColumn);
  if (start === undefined || end === undefined || end < start || typeof edit.newText !== 'string') return undefined;
  return { start, end, newText: edit.newText };
}
