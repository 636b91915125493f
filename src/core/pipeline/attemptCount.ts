/**
 * How many attempts a run made, as the product counts them (the cycle of at most two of docs/design.md D1: the answer, then
 * the trace-guided retry). Every generation counts — one the parser judged, one the stream check stopped — and
 * so does the code given to *Regenerate with Trace*, which is attempt 1: that run is the retry, so a regenerated
 * answer that stays invalid has failed both attempts (INVALID_UNRESOLVED). An answer repaired by the parser's
 * fixes is a second record of its own attempt, not another attempt (no model call was made). The training
 * signal's `attempts` counts the same way.
 */
import type { PipelineResult } from '../types';

export function attemptCount(result: Pick<PipelineResult, 'attempts'>): number {
  return result.attempts.filter((a) => !a.repairedBy).length;
}
