/**
 * How the lines of a fixed program correspond to the original's: every edit
 * covers a span of original lines and puts some number of lines in their
 * place. A proof compares findings by (rule code, line) with lines mapped onto
 * the original, an edited region collapsed onto its first line, so a fix may
 * move text without "adding" the findings it moved (prove.ts), and an
 * analysis that re-reads only the edited region compares its state with the
 * original's the same way (resync.ts).
 */
import { lineBreaks, type LineIndex, type OffsetEdit } from './text';

export interface EditSpan {
  /** First and last original line the edit touches. */
  fromLine: number;
  toLine: number;
  /** Line breaks the edit removes and inserts. */
  removed: number;
  inserted: number;
}

/** The spans of ordered, non-overlapping edits. */
export function spansOf(index: LineIndex, edits: readonly OffsetEdit[]): EditSpan[] {
  return edits.map((edit) => {
    const fromLine = index.position(edit.start).line;
    const toLine = index.position(edit.end).line;
    return { fromLine, toLine, removed: toLine - fromLine, inserted: lineBreaks(edit.newText) };
  });
}

/** An original line, with lines inside an edited region collapsed onto its first. */
export function canonicalOld(line: number, spans: readonly EditSpan[]): number {
  for (const s of spans) if (line >= s.fromLine && line <= s.toLine) return s.fromLine;
  return line;
}

/** A line of the fixed program, mapped back onto the original. */
export function canonicalNew(line: number, spans: readonly EditSpan[]): number {
  let delta = 0;
  for (const s of spans) {
    const start = s.fromLine + delta;
    if (line < start) return line - delta;
    if (line <= start + s.inserted) return s.fromLine;
    delta += s.inserted - s.removed;
  }
  return line - delta;
}
