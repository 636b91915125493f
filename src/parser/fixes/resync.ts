/**
 * Fix proofs that re-analyse only what a fix changes. A proof
 * needs every finding of the fixed program; parsing all of it again for each
 * of up to 32 candidates made proving a program with many fixable findings 33
 * times the cost of parsing it. The analysis reads a program line by line and
 * carries a state from one line to the next, so:
 *
 * - before the first edited line the fixed program is the original: its
 *   findings there are the original's, and the analysis can start from the
 *   original's state at that line (a snapshot, taken for every candidate's
 *   first line in one pass of the original);
 * - after the last edited line the text is the original's again: once the
 *   analysis of the fixed program is in the same state as the original's at
 *   the same text, everything after (the findings of the remaining lines, and
 *   of the end of the file) is the original's too. The state is compared as
 *   the proof compares findings: lines mapped onto the original (spans.ts).
 *
 * When the states do not meet within a few lines of the edit (a fix that adds
 * a closer changes the block structure to the end), the fork simply reads on
 * to the end. Either way the findings are exactly those of a full parse of
 * the fixed program (a property test compares both on random programs).
 */
import { Analyzer, type AnalysisState } from '../analyzer';
import { sameGrowth } from '../layered';
import { pendingRule, type FunctionInfo, type PendingCall } from '../pendingCalls';
import type { RuleCode } from '../catalogue/rules';
import { Reporter } from '../reporter';
import { canonicalNew, canonicalOld, type EditSpan } from './spans';
import { applyOrdered, type LineIndex, type OffsetEdit } from './text';

/**
 * Programs shorter than this are proven by parsing each fixed program whole: the prover's set-up (a pass to the
 * snapshots, two forks and a state comparison per proof) costs more than the parse of a small program, the more so
 * as its code is rarely warm (few programs have a proof). Measured in the benchmark's regime (bench/parser/rounds.ts,
 * proofs on a few programs among many without): the small held-out programs (under 400 characters) validated about a
 * quarter faster; programs of about 500 characters cost the same either way, of about 900 an eighth more. The
 * failure corpus (all under 512 characters, many proofs each) validates faster too.
 */
export const RESYNC_MIN_LENGTH = 512;

/** Lines after an edit within which the two analyses are expected to meet. */
const RESYNC_WINDOW = 8;
/** Entries of an analysis' tables up to which comparing it with an unrelated snapshot is cheaper than a re-read. */
const DIRECT_COMPARE_MAX = 256;

function stateSize(state: AnalysisState): number {
  return state.functions.size + state.pending.length + state.connectors.size + state.sem.live(undefined).names.size;
}

/** A finding as a proof compares it. */
export interface Finding {
  line: number;
  code: RuleCode;
}

/**
 * Work counters, for tests that guard linearity without timing.
 * @internal
 */
export const resyncWork = { driverLines: 0, forkLines: 0, resynced: 0, readToEnd: 0 };

/**
 * Two analyses of the same remaining text report the same findings from here on. `a` is a fork of a snapshot of
 * the original, `b` the original's analysis at a later line: the tables `a` layers over are the original's at the
 * snapshot, which `b`'s hold too (an analysis only adds to them), so only what `a` added is compared (sameGrowth).
 */
function sameState(
  a: AnalysisState,
  lineA: (line: number) => number,
  b: AnalysisState,
  lineB: (line: number) => number,
): boolean {
  if (a.inBlockComment !== b.inBlockComment) return false;
  if (a.inBlockComment && lineA(a.blockCommentLine ?? 0) !== lineB(b.blockCommentLine ?? 0)) return false;
  const blocksA = a.blocks.openBlocks;
  const blocksB = b.blocks.openBlocks;
  if (blocksA.length !== blocksB.length) return false;
  for (let i = 0; i < blocksA.length; i++) {
    const x = blocksA[i];
    const y = blocksB[i];
    if (
      !x ||
      !y ||
      x.kind !== y.kind ||
      x.name !== y.name ||
      !x.hasElse !== !y.hasElse ||
      !x.hasHandler !== !y.hasHandler ||
      !x.braceBody !== !y.braceBody ||
      !x.awaitingBrace !== !y.awaitingBrace ||
      lineA(x.line) !== lineB(y.line)
    )
      return false;
  }
  if (a.connectors.size !== b.connectors.size) return false;
  if (!sameGrowth(a.functions, b.functions, (x, y) => x.arity === y.arity)) return false;
  for (const name of a.connectors) if (!b.connectors.has(name)) return false;
  // Calls waiting for the end of the file are not state: each ends as one finding or none, known from the
  // functions at the end (ResyncProver.findings counts those of the region).
  // Variables and waiting keys: of the top level and of each open function body (no other scope is read again).
  for (let i = -1; i < blocksA.length; i++) {
    if (i >= 0 && blocksA[i]?.kind !== 'function') continue;
    const liveA = a.sem.live(i < 0 ? undefined : blocksA[i]);
    const liveB = b.sem.live(i < 0 ? undefined : blocksB[i]);
    // Their first lines only word messages.
    if (!sameGrowth(liveA.names, liveB.names, () => true)) return false;
    if (liveA.waiting.length !== liveB.waiting.length) return false;
    for (let k = 0; k < liveA.waiting.length; k++) {
      const x = liveA.waiting[k];
      const y = liveB.waiting[k];
      if (
        !x ||
        !y ||
        x.name !== y.name ||
        lineA(x.line) !== lineB(y.line) ||
        blocksA.indexOf(x.loop) !== blocksB.indexOf(y.loop)
      )
        return false;
    }
  }
  return true;
}

/** A fork reading a fixed program from a snapshot of the original's analysis, past the region its edits touch. */
interface ForkedRegion {
  snapshot: Analyzer;
  fork: Analyzer;
  /** Reads the fork's next line. */
  step: () => boolean;
  /** Added to a fork offset, the same text's offset in the original. */
  shift: number;
  spans: readonly EditSpan[];
}

export class ResyncProver {
  private readonly snapshots = new Map<number, Analyzer>();
  private readonly byOffset = new Map<number, Analyzer>();
  /**
   * `marks[n]`: how many of the findings were reported before line n, as the
   * snapshot pass counts them (it reports what the original's analysis did,
   * line for line); the validation's own pass keeps no such count.
   */
  private readonly marks: number[] = [0];

  /**
   * @param text the original program
   * @param all every finding of its analysis
   * @param limit findings beyond which a program's findings are not compared (the reporter's limit)
   * @param functions the functions its analysis knew at the end of the file
   */
  constructor(
    private readonly text: string,
    private readonly all: readonly Finding[],
    private readonly limit: number,
    private readonly functions: ReadonlyMap<string, FunctionInfo>,
  ) {}

  /** What the calls an analysis made after `from` will be reported as at the end of the file, added to `out`. */
  private endFindings(calls: AnalysisState['pending'], from: number, out: Finding[] = []): Finding[] {
    for (let i = from; i < calls.length; i++) {
      const call = calls.at(i) as PendingCall;
      const rule = pendingRule(call, this.functions);
      if (rule) out.push({ line: call.line, code: rule.code });
    }
    return out;
  }

  /**
   * Takes the original analysis' state at the start of each of `lines` (the
   * first line of each candidate's edits), in one pass up to the last of them.
   */
  prepare(lines: Iterable<number>): void {
    const wanted = [...new Set(lines)].filter((l) => !this.snapshots.has(l)).sort((a, b) => a - b);
    if (wanted.length === 0) return;
    // One reporter for the whole pass, so that its count is the original's at every line.
    const rep = new Reporter(Number.MAX_SAFE_INTEGER, { wordless: true });
    const driver = new Analyzer(this.text, rep);
    driver.marks = this.marks;
    for (const line of wanted) {
      while (driver.position.line < line && !driver.atEnd) {
        driver.step();
        resyncWork.driverLines++;
      }
      if (driver.position.line !== line || driver.atEnd) return;
      // A snapshot that sees the driver's tables as they are now, while the driver reads on (layered.ts prefixOf):
      // no copy of them, and no chain of layers to merge.
      const snapshot = driver.fork(this.text, rep, { view: true });
      this.marks[line] = rep.entries.length;
      this.snapshots.set(line, snapshot);
      this.byOffset.set(snapshot.position.offset, snapshot);
    }
  }

  /** The snapshot taken where a line starts at `offset` of the original, if one was. */
  private snapshotAt(offset: number): Analyzer | undefined {
    return this.byOffset.get(offset);
  }

  /**
   * What a proof compares for the original with `edits` (ordered and
   * non-overlapping) applied: the findings the two programs may differ in —
   * the original's and the fixed program's from the first edited line up to
   * where the two analyses meet again (or to the end), lines in each
   * program's own numbering; everything before and after is the same in both.
   * Undefined when the fixed program has more findings than the limit;
   * 'unprepared' when no snapshot was taken for its first edited line (the
   * caller then parses the fixed program).
   */
  findings(
    edits: readonly OffsetEdit[],
    index: LineIndex,
    spans: readonly EditSpan[],
  ): { before: readonly Finding[]; after: readonly Finding[] } | undefined | 'unprepared' {
    const first = edits[0];
    const lastEdit = edits[edits.length - 1];
    if (!first || !lastEdit) return 'unprepared';
    const line = index.position(first.start).line;
    const snapshot = this.snapshots.get(line);
    const prefixCount = this.marks[line];
    if (!snapshot || prefixCount === undefined) return 'unprepared';
    const delta = edits.reduce((d, e) => d + e.newText.length - (e.end - e.start), 0);
    // The fork reads the fixed text from the snapshot's line on: first the edited lines and the few after them
    // (where the analyses are expected to meet), the rest only if they do not.
    const base = snapshot.position.offset;
    const shifted = edits.map((e) => ({ start: e.start - base, end: e.end - base, newText: e.newText }));
    const rest = this.text.slice(base);
    const lastLine = index.position(lastEdit.end).line;
    const windowEnd = index.offset(lastLine + RESYNC_WINDOW + 2, 1);
    const cut = windowEnd === undefined || windowEnd >= this.text.length ? rest.length : windowEnd - base;
    let whole = cut === rest.length;
    const window = applyOrdered(rest.slice(0, cut), shifted);
    // Compared by rule and line only: findings need no words.
    const forkRep = new Reporter(this.limit - prefixCount, { wordless: true });
    const fork = snapshot.fork(window, forkRep, { frozen: true, base });
    const step = (): boolean => {
      if (!whole && fork.position.offset >= window.length) {
        fork.extend(applyOrdered(rest, shifted));
        whole = true;
      }
      resyncWork.forkLines++;
      return fork.step();
    };
    // The fork reads every line an edit touches.
    const regionEnd = lastEdit.end + delta - base;
    while (!fork.atEnd && fork.position.offset <= regionEnd) step();
    const met = fork.atEnd ? undefined : this.meet({ snapshot, fork, step, shift: base - delta, spans });
    if (met === undefined) {
      resyncWork.readToEnd++;
      while (step());
      fork.end();
      if (forkRep.saturated) return undefined;
      return { before: this.all.slice(prefixCount), after: forkRep.entries };
    }
    resyncWork.resynced++;
    // The calls each analysis made in the region are reported at the end of the file, with the same functions.
    const calls = snapshot.state.pending.length;
    const before = this.endFindings(
      met.original.state.pending,
      calls,
      this.all.slice(prefixCount, prefixCount + met.reported),
    );
    const after = this.endFindings(fork.state.pending, calls, forkRep.entries.slice());
    const total = this.all.length - before.length + after.length;
    if (forkRep.saturated || total > this.limit) return undefined;
    return { before, after };
  }

  /**
   * The original line from which the fork's analysis is the original's
   * again (stepping both at most RESYNC_WINDOW lines), or undefined.
   */
  private meet(region: ForkedRegion): { line: number; original: Analyzer; reported: number } | undefined {
    const { snapshot, fork, step, shift, spans } = region;
    const oldLine = (l: number) => canonicalOld(l, spans);
    const newLine = (l: number) => canonicalNew(l, spans);
    // The original's state right after the region is often a snapshot already (the next candidate's line). It
    // shares no table with the fork, so comparing costs the size of the state: worth it only while that is small;
    // otherwise the original's lines are read again from this candidate's snapshot, whose tables the fork shares.
    const after = this.snapshotAt(fork.position.offset + shift);
    const from = this.marks[snapshot.position.line] ?? 0;
    const afterMark = after ? this.marks[after.position.line] : undefined;
    if (
      after &&
      afterMark !== undefined &&
      stateSize(after.state) <= DIRECT_COMPARE_MAX &&
      sameState(fork.state, newLine, after.state, oldLine)
    )
      return { line: after.position.line, original: after, reported: afterMark - from };
    const originalRep = new Reporter(Number.MAX_SAFE_INTEGER, { wordless: true });
    const original = snapshot.fork(this.text, originalRep, { frozen: true });
    for (let k = 0; k <= RESYNC_WINDOW; k++) {
      // The same text in the original: the fork counts from the snapshot's line, in the fixed program.
      const target = fork.position.offset + shift;
      while (!original.atEnd && original.position.offset < target) {
        original.step();
        resyncWork.forkLines++;
      }
      if (original.atEnd || fork.atEnd || original.position.offset !== target) return undefined;
      if (sameState(fork.state, newLine, original.state, oldLine))
        return { line: original.position.line, original, reported: originalRep.entries.length };
      step();
    }
    return undefined;
  }
}
