/**
 * The proof of a candidate fix: apply its edits to the program, parse the
 * result again, and offer the fix only when the finding is gone and no finding
 * appeared anywhere. Findings are compared by (rule code, line), with lines of
 * the fixed program mapped back onto the original (an edited region collapses
 * onto its first line), so a fix may move text without "adding" the findings
 * it moved.
 *
 * Bounded: only findings with a candidate are proven, at most `maxProofs` per
 * call and at most PROOF_BYTE_BUDGET characters re-parsed in all, so a hostile
 * input costs a fixed multiple of one parse, never a quadratic one. A program
 * with no candidate (valid code, or findings with no mechanical repair) costs
 * nothing here.
 */
import type { RuleCode } from '../catalogue/rules';
import { PROOF_BYTE_BUDGET, type TraceEntry } from '../types';
import { FixContext, materialize, type Candidate, type FixHint } from './candidates';
import { applyOrdered, LineIndex, lineBreaks, orderedEdits, toTextEdit, type OffsetEdit } from './text';

/** All findings of a program (not capped), or undefined when there were too many to compare. */
export type Reparse = (text: string) => readonly TraceEntry[] | undefined;

/**
 * Codes that name one finding seen from two contexts: an unknown name is
 * `unknown-function` inside an expression and `unknown-command` as a statement,
 * so a fix that moves a call out of an expression does not add a finding.
 */
const SAME_FINDING: Partial<Record<RuleCode, RuleCode>> = { 'unknown-function': 'unknown-command' };

const keyOf = (line: number, code: RuleCode) => `${line}|${SAME_FINDING[code] ?? code}`;

interface EditSpan {
  /** First and last original line the edit touches. */
  fromLine: number;
  toLine: number;
  /** Line breaks the edit removes and inserts. */
  removed: number;
  inserted: number;
}

function spansOf(index: LineIndex, edits: readonly OffsetEdit[]): EditSpan[] {
  return edits.map((edit) => {
    const fromLine = index.position(edit.start).line;
    const toLine = index.position(edit.end).line;
    return { fromLine, toLine, removed: toLine - fromLine, inserted: lineBreaks(edit.newText) };
  });
}

/** An original line, with lines inside an edited region collapsed onto its first. */
function canonicalOld(line: number, spans: readonly EditSpan[]): number {
  for (const s of spans) if (line >= s.fromLine && line <= s.toLine) return s.fromLine;
  return line;
}

/** A line of the fixed program, mapped back onto the original. */
function canonicalNew(line: number, spans: readonly EditSpan[]): number {
  let delta = 0;
  for (const s of spans) {
    const start = s.fromLine + delta;
    if (line < start) return line - delta;
    if (line <= start + s.inserted) return s.fromLine;
    delta += s.inserted - s.removed;
  }
  return line - delta;
}

function counts(entries: readonly TraceEntry[], map: (line: number) => number): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of entries) {
    const key = keyOf(map(e.line), e.code);
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/** True when `after` has one finding fewer under `target`'s key and none more under any key. */
function proven(
  before: readonly TraceEntry[],
  after: readonly TraceEntry[],
  target: TraceEntry,
  spans: readonly EditSpan[],
): boolean {
  const old = counts(before, (line) => canonicalOld(line, spans));
  const now = counts(after, (line) => canonicalNew(line, spans));
  const targetKey = keyOf(canonicalOld(target.line, spans), target.code);
  if ((now.get(targetKey) ?? 0) > (old.get(targetKey) ?? 0) - 1) return false;
  for (const [key, n] of now) if (n > (old.get(key) ?? 0)) return false;
  return true;
}

/** The candidate a finding's suggestion makes: replace its range with the suggested text. */
function suggestionCandidate(entry: TraceEntry, index: LineIndex): Candidate | undefined {
  if (entry.suggestion === undefined) return undefined;
  const start = index.offset(entry.line, entry.column);
  const end = index.offset(entry.line, entry.endColumn);
  if (start === undefined || end === undefined) return undefined;
  const current = index.text.slice(start, end);
  return {
    title: `Replace '${current}' with '${entry.suggestion}'`,
    edits: [{ start, end, newText: entry.suggestion }],
  };
}

export interface ProofInput {
  text: string;
  /** Every finding of the text (before the trace cap). */
  all: readonly TraceEntry[];
  /** The entries returned to the caller: proven fixes are set on these. */
  trace: readonly TraceEntry[];
  hints: ReadonlyMap<TraceEntry, FixHint>;
  maxProofs: number;
  reparse: Reparse;
}

/** Sets `fix` on every entry of the trace whose candidate passes its proof, within the budget. */
export function proveFixes(input: ProofInput): void {
  const { text, all, trace, hints, reparse } = input;
  let budget = Math.min(input.maxProofs, Math.floor(PROOF_BYTE_BUDGET / Math.max(1, text.length)));
  if (budget <= 0) return;
  const wanted = trace.filter((e) => hints.has(e) || e.suggestion !== undefined);
  if (wanted.length === 0) return;
  // Errors first: they decide validity; warnings get what budget is left.
  const ordered = [...wanted.filter((e) => e.severity === 'error'), ...wanted.filter((e) => e.severity !== 'error')];
  const index = new LineIndex(text);
  const ctx = new FixContext(text);
  for (const entry of ordered) {
    if (budget <= 0) return;
    const hint = hints.get(entry);
    // The finding's own candidate first; when it fails, the plain replacement its suggestion names.
    for (const candidate of [hint && materialize(hint, ctx), suggestionCandidate(entry, index)]) {
      if (!candidate || budget <= 0) continue;
      const edits = orderedEdits(
        candidate.edits.filter((e) => text.slice(e.start, e.end) !== e.newText),
        text.length,
      );
      if (!edits || edits.length === 0) continue;
      budget--;
      const after = reparse(applyOrdered(text, edits));
      if (!after || !proven(all, after, entry, spansOf(index, edits))) continue;
      entry.fix = { title: candidate.title, edits: edits.map((e) => toTextEdit(index, e)) };
      break;
    }
  }
}
