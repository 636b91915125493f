/**
 * The request's one retry budget (D1 RC-08): each request has at most one retry
 * cycle, whatever triggers it — the relevance reformulation, the parser's
 * trace, or the quality judge's hint (the judge asks the pipeline for it). The
 * budget is 0 or 1; a larger configured value is read as 1. A retry that is
 * due but not made is recorded with its reason. The cycle is plain data so it
 * travels with the result to every layer that may want to retry; this module
 * is the only one that changes it.
 */
import type { RetryCycle, RetrySkip, RetryTrigger } from '../types';
import { blocking, type ValidationError } from './errors';
import { errorKey } from './normalizer';

export function newRetryCycle(maxRetries: number): RetryCycle {
  return { limit: maxRetries >= 1 ? 1 : 0, skipped: [] };
}

export type RetryClaim = { granted: true } | { granted: false; skip: RetrySkip };

/** Whether a retry may still be made (without claiming it). */
export function retryAvailable(cycle: RetryCycle): boolean {
  return cycle.limit === 1 && cycle.usedBy === undefined;
}

/** Claims the cycle for `trigger`; when it cannot be had, records the skip and says why. Mutates `cycle`. */
export function claimRetry(cycle: RetryCycle, trigger: RetryTrigger): RetryClaim {
  if (retryAvailable(cycle)) {
    cycle.usedBy = trigger;
    return { granted: true };
  }
  const skip: RetrySkip =
    cycle.limit === 0
      ? { trigger, reason: 'retries-disabled' }
      : { trigger, reason: 'cycle-used', ...(cycle.usedBy ? { usedBy: cycle.usedBy } : {}) };
  cycle.skipped.push(skip);
  return { granted: false, skip };
}

/**
 * *Regenerate with Trace*: the run that corrects code the user already has IS
 * the retry (the given code is attempt 1), so it uses the cycle whatever the
 * configured budget.
 */
export function spendOnCorrection(cycle: RetryCycle): void {
  cycle.usedBy = 'parser-trace';
}

/** Why an answer still invalid after its retry is returned as it is: telemetry's `stop_reason`. */
export type UnresolvedReason = 'repeated-error' | 'budget-exhausted' | 'only-warnings' | 'valid';

/**
 * The retry was spent and the code is still invalid: `repeated-error` when the
 * retry repeats a blocking error of the attempt it corrected — same rule code,
 * line and received value (errorKey), never the message: the model made no
 * progress on it — otherwise `budget-exhausted`. `corrected` is absent when
 * that attempt is not the run's (the code given to *Regenerate with Trace*).
 * `valid` and `only-warnings` are what a parser port that rejects code without
 * reporting an error leaves (the parser library never does). Pure.
 */
export function unresolvedReason(
  corrected: readonly ValidationError[] | undefined,
  retried: readonly ValidationError[],
): UnresolvedReason {
  if (retried.length === 0) return 'valid';
  const errors = blocking(retried);
  if (errors.length === 0) return 'only-warnings';
  const before = new Set(blocking(corrected ?? []).map(errorKey));
  return errors.some((e) => before.has(errorKey(e))) ? 'repeated-error' : 'budget-exhausted';
}

/** One line for logs and telemetry: `retry skipped (parser-trace: cycle used by relevance)`. */
export function describeSkip(skip: RetrySkip): string {
  return skip.reason === 'retries-disabled'
    ? `${skip.trigger}: retries are disabled (max retries 0)`
    : `${skip.trigger}: the request's one retry was already used${skip.usedBy ? ` by ${skip.usedBy}` : ''}`;
}

/** The telemetry `stop_reason` of a skipped retry. */
export function skipStopReason(skip: RetrySkip): string {
  return skip.reason === 'retries-disabled'
    ? 'retries-disabled'
    : `retry-cycle-used${skip.usedBy ? `-by-${skip.usedBy}` : ''}`;
}
