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
import { RULE_CODES, type RuleCode } from '../catalogue/rules';
import { PROOF_BYTE_BUDGET, type TraceEntry } from '../types';
import { FixContext, materialize, type Candidate, type FixHint } from './candidates';
import { applyOrdered, LineIndex, orderedEdits, toTextEdit, type OffsetEdit } from './text';
import { canonicalNew, canonicalOld, spansOf, type EditSpan } from './spans';
import type { Finding, ResyncProver } from './resync';

/** All findings of a program (not capped), or undefined when there were too many to compare. */
type Reparse = (text: string) => readonly TraceEntry[] | undefined;

/**
 * Codes that name one finding seen from two contexts: an unknown name is
 * `unknown-function` inside an expression and `unknown-command` as a statement,
 * so a fix that moves a call out of an expression does not add a finding.
 */
const SAME_FINDING: Partial<Record<RuleCode, RuleCode>> = { 'unknown-function': 'unknown-command' };

/** Each code's slot in a finding's key, in catalogue order; the codes SAME_FINDING pairs share one. */
const SLOTS = new Map<string, number>(RULE_CODES.map((code, i) => [code, i]));
for (const [code, same] of Object.entries(SAME_FINDING)) SLOTS.set(code, SLOTS.get(same) as number);

/**
 * A finding's key, (line, code) as one number: a proof counts the findings of
 * both programs by it, and a string key was a new string to build and hash
 * per finding (about 2 % of validating a program with many fixable findings).
 * A code outside the catalogue (none is) keeps a string key of its own.
 */
function keyOf(line: number, code: RuleCode): number | string {
  const slot = SLOTS.get(code);
  return slot === undefined ? `${line}|${code}` : line * RULE_CODES.length + slot;
}

function counts(entries: readonly Finding[], map: (line: number) => number): Map<number | string, number> {
  const out = new Map<number | string, number>();
  for (const e of entries) {
    const key = keyOf(map(e.line), e.code);
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/** How many of `keys` are `key`. */
function countOf(keys: readonly (number | string)[], key: number | string): number {
  let n = 0;
  for (const k of keys) if (k === key) n++;
  return n;
}

/** Up to this many findings on both sides, a proof counts them in lists, not maps (most proofs compare one or two). */
const FEW_FINDINGS = 16;

/** True when `after` has one finding fewer under `target`'s key and none more under any key. */
function proven(
  before: readonly Finding[],
  after: readonly Finding[],
  target: TraceEntry,
  spans: readonly EditSpan[],
): boolean {
  if (before.length + after.length <= FEW_FINDINGS) {
    const oldKeys = before.map((e) => keyOf(canonicalOld(e.line, spans), e.code));
    const newKeys = after.map((e) => keyOf(canonicalNew(e.line, spans), e.code));
    const key = keyOf(canonicalOld(target.line, spans), target.code);
    if (countOf(newKeys, key) > countOf(oldKeys, key) - 1) return false;
    for (const k of newKeys) if (countOf(newKeys, k) > countOf(oldKeys, k)) return false;
    return true;
  }
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
  /** Re-analyses only what a candidate changes (resync.ts); without it each proof parses the fixed program. */
  resync?: ResyncProver;
  /** Which entries to prove (all of the trace when absent): the streaming check proves only its candidates. */
  only?: (entry: TraceEntry) => boolean;
  /** The text is the beginning of a program still arriving (ParseOptions.partial). */
  partial?: boolean;
}

interface Attempt {
  title: string;
  edits: OffsetEdit[];
}

/** Sets `fix` on every entry of the trace whose candidate passes its proof, within the budget. */
export function proveFixes(input: ProofInput): void {
  const { text, all, trace, hints, reparse, resync } = input;
  const budget = Math.min(input.maxProofs, Math.floor(PROOF_BYTE_BUDGET / Math.max(1, text.length)));
  if (budget <= 0) return;
  const wanted = (e: TraceEntry) =>
    (hints.has(e) || e.suggestion !== undefined) && (input.only === undefined || input.only(e));
  let index: LineIndex | undefined;
  let ctx: FixContext | undefined;
  // The candidates of the entries the budget can reach, errors first (they decide validity; warnings get what
  // budget is left), in trace order: the finding's own candidate first; when it fails, the plain replacement its
  // suggestion names. Each entry with one takes at least one proof. The trace is read only as far as the budget
  // reaches (a capped trace of F5 is 200 entries, 32 of them proven).
  const plan: { entry: TraceEntry; attempts: Attempt[] }[] = [];
  for (const errors of [true, false]) {
    for (const entry of trace) {
      if (plan.length >= budget) break;
      if ((entry.severity === 'error') !== errors || !wanted(entry)) continue;
      index ??= new LineIndex(text);
      ctx ??= new FixContext(text, input.partial === true);
      const hint = hints.get(entry);
      const attempts: Attempt[] = [];
      for (const candidate of [hint && materialize(hint, ctx), suggestionCandidate(entry, index)]) {
        if (!candidate) continue;
        const edits = orderedEdits(
          candidate.edits.filter((e) => text.slice(e.start, e.end) !== e.newText),
          text.length,
        );
        if (edits && edits.length > 0) attempts.push({ title: candidate.title, edits });
      }
      if (attempts.length > 0) plan.push({ entry, attempts });
    }
  }
  if (!index || plan.length === 0) return;
  if (resync) {
    const lines: number[] = [];
    for (const { attempts } of plan)
      for (const a of attempts) lines.push(index.position((a.edits[0] as OffsetEdit).start).line);
    resync.prepare(lines);
  }
  let left = budget;
  for (const { entry, attempts } of plan) {
    for (const { title, edits } of attempts) {
      if (left <= 0) return;
      left--;
      const spans = spansOf(index, edits);
      // What may differ: with resync only the findings around the edit, else every finding of both programs.
      const fast = resync?.findings(edits, index, spans) ?? 'unprepared';
      const compared = fast === 'unprepared' ? { before: all, after: reparse(applyOrdered(text, edits)) } : fast;
      if (!compared?.after || !proven(compared.before, compared.after, entry, spans)) continue;
      entry.fix = { title, edits: edits.map((e) => toTextEdit(index, e)) };
      break;
    }
  }
}
