/**
 * Repair by fixes alone, no model: apply every proven fix of a validation at
 * once, validate again, and go on for a few rounds while something improves.
 * The one place this loop lives — the editor's Fix All, the pipeline's
 * deterministic repair before an LLM retry and the failure-corpus test all
 * call it, each with its own validator (in-process, or the parser service).
 *
 * Fixes are proven one by one; applied together they could still interfere,
 * so a round that does not lower the error count is redone with its first fix
 * only (proven on exactly that text, so it always helps).
 */
import type { TextEdit, TraceEntry, TraceFix, ValidationResult } from '../types';
import { applyOrdered, LineIndex, orderedEdits, toOffsetEdit, type OffsetEdit } from './text';

/** Validates a program; undefined when no verdict could be had (parser unavailable): the repair stops there. */
export type RepairValidator = (source: string) => ValidationResult | undefined | Promise<ValidationResult | undefined>;

export interface RepairOptions {
  /** Rounds of "apply every fix, validate again" (default 3). */
  maxRounds?: number;
  /** Apply the fixes of errors only (default), or of warnings too. */
  include?: 'errors' | 'all';
  /** The validation of `source` the caller already holds, to spare one call. */
  initial?: ValidationResult;
}

export type RepairStop = 'valid' | 'no-fixes' | 'rounds' | 'no-progress' | 'unavailable';

export interface RepairOutcome {
  /** The program after the fixes that were kept (the input when none was). */
  source: string;
  /** The validation of `source`; undefined only when the very first validation failed. */
  result: ValidationResult | undefined;
  /** True when `source` is valid. */
  repaired: boolean;
  /** Fixes applied, in order, each with the line of its finding at the time. */
  applied: { line: number; code: string; title: string }[];
  /** Rounds that applied fixes. */
  rounds: number;
  stop: RepairStop;
}

/** Fewer errors is better; with as many errors, fewer findings. */
function better(after: ValidationResult, before: ValidationResult): boolean {
  const errors = (r: ValidationResult) => r.trace.filter((e) => e.severity === 'error').length + (r.valid ? 0 : 1);
  return (
    errors(after) < errors(before) || (errors(after) === errors(before) && after.trace.length < before.trace.length)
  );
}

/**
 * Applies one fix's edits to a text; undefined when they do not fit it.
 * @internal
 */
export function applyTextEdits(source: string, edits: readonly TextEdit[]): string | undefined {
  const index = new LineIndex(source);
  const offsets = edits.map((e) => toOffsetEdit(index, e));
  if (offsets.some((e) => e === undefined)) return undefined;
  const ordered = orderedEdits(offsets as OffsetEdit[], source.length);
  return ordered ? applyOrdered(source, ordered) : undefined;
}

/** The fixes of a trace that can be applied together: in trace order, each skipped when it overlaps one taken before. */
function compatibleFixes(
  source: string,
  trace: readonly TraceEntry[],
  include: 'errors' | 'all' = 'errors',
): { entries: TraceEntry[]; edits: OffsetEdit[] } {
  const index = new LineIndex(source);
  const entries: TraceEntry[] = [];
  let edits: OffsetEdit[] = [];
  for (const entry of trace) {
    if (!entry.fix || (include === 'errors' && entry.severity !== 'error')) continue;
    const mine = entry.fix.edits.map((e) => toOffsetEdit(index, e));
    if (mine.some((e) => e === undefined)) continue;
    const together = orderedEdits([...edits, ...(mine as OffsetEdit[])], source.length);
    if (!together) continue;
    edits = together;
    entries.push(entry);
  }
  return { entries, edits };
}

const record = (entry: TraceEntry & { fix: TraceFix }) => ({
  line: entry.line,
  code: entry.code,
  title: entry.fix.title,
});

export async function repairWithFixes(
  source: string,
  validate: RepairValidator,
  options: RepairOptions = {},
): Promise<RepairOutcome> {
  const maxRounds = Math.max(0, options.maxRounds ?? 3);
  const include = options.include ?? 'errors';
  let current = source;
  let result = options.initial ?? (await validate(source));
  const applied: RepairOutcome['applied'] = [];
  const done = (stop: RepairStop, rounds: number): RepairOutcome => ({
    source: current,
    result,
    repaired: result?.valid === true,
    applied,
    rounds,
    stop,
  });
  if (!result) return done('unavailable', 0);
  for (let round = 0; round < maxRounds; round++) {
    if (result.valid && include === 'errors') return done('valid', round);
    const { entries, edits } = compatibleFixes(current, result.trace, include);
    if (entries.length === 0) return done(result.valid ? 'valid' : 'no-fixes', round);
    let next = applyOrdered(current, edits);
    let verdict = await validate(next);
    if (!verdict) return done('unavailable', round);
    let taken = entries;
    if (entries.length > 1 && !better(verdict, result)) {
      // Together they did not help: the first one alone was proven on this very text.
      const first = compatibleFixes(current, [entries[0] as TraceEntry], include);
      next = applyOrdered(current, first.edits);
      verdict = await validate(next);
      if (!verdict) return done('unavailable', round);
      taken = first.entries;
    }
    if (!better(verdict, result)) return done('no-progress', round);
    current = next;
    result = verdict;
    for (const entry of taken) applied.push(record(entry as TraceEntry & { fix: TraceFix }));
  }
  return done(result.valid ? 'valid' : 'rounds', maxRounds);
}
