/**
 * Fix All, editor-free: every proven fix of a validation applied at once
 * (through repairWithFixes, so the result is re-validated and a round that
 * does not help is undone), returned as ONE edit — the smallest replacement
 * that turns the text into the repaired one — so an editor applies it in a
 * single undo step and keeps the cursor and the untouched lines where they are.
 * The editor adapter (src/editor/diagnostics/fixAll.ts) only converts offsets
 * to positions. Never throws.
 */
import type { ValidationResult } from '../types';
import { repairWithFixes, type RepairOptions, type RepairOutcome, type RepairValidator } from './repair';
import type { OffsetEdit } from './text';

export interface FixAllResult {
  /** The one replacement to apply to the original text; undefined when no fix could be kept. */
  edit: OffsetEdit | undefined;
  /** The fixes kept, in order (line of the finding, rule code, title). */
  applied: RepairOutcome['applied'];
  /** The validation of the fixed text (of the original when nothing was applied); undefined when no verdict could be had. */
  result: ValidationResult | undefined;
  /** Why the repair stopped: 'valid', 'no-fixes', 'no-progress', 'rounds' or 'unavailable'. */
  stop: RepairOutcome['stop'];
}

/**
 * The smallest single replacement that turns `before` into `after` (common prefix and suffix kept); undefined when equal.
 * @internal
 */
export function minimalEdit(before: string, after: string): OffsetEdit | undefined {
  if (before === after) return undefined;
  let start = 0;
  const shorter = Math.min(before.length, after.length);
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  // Never split a surrogate pair or a CRLF.
  if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) start--;
  if (start > 0 && before.charCodeAt(start - 1) === 13) start--;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before.charCodeAt(endBefore - 1) === after.charCodeAt(endAfter - 1)) {
    endBefore--;
    endAfter--;
  }
  if (endBefore < before.length && isLowSurrogate(before.charCodeAt(endBefore))) {
    endBefore++;
    endAfter++;
  }
  if (
    endBefore < before.length &&
    before.charCodeAt(endBefore) === 10 &&
    endBefore > 0 &&
    before.charCodeAt(endBefore - 1) === 13
  ) {
    endBefore++;
    endAfter++;
  }
  return { start, end: endBefore, newText: after.slice(start, endAfter) };
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/**
 * Applies every proven fix of `source`'s trace (errors only), validates again
 * and repeats while it helps (repairWithFixes), and returns the whole change as
 * one edit. `initial` spares the first validation when the caller holds it.
 */
export async function fixAll(
  source: string,
  validate: RepairValidator,
  options: RepairOptions = {},
): Promise<FixAllResult> {
  const outcome = await repairWithFixes(source, validate, options);
  return {
    edit: outcome.applied.length > 0 ? minimalEdit(source, outcome.source) : undefined,
    applied: outcome.applied,
    result: outcome.result,
    stop: outcome.stop,
  };
}

/**
 * True when a trace has at least one proven fix of an error (something Fix All can do).
 * @internal
 */
export function hasAutoFixes(result: ValidationResult | undefined): boolean {
  return result?.trace.some((e) => e.fix !== undefined && e.severity === 'error') === true;
}
