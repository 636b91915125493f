/**
 * RC-08: each request has at most one retry cycle, whatever triggers it — the
 * relevance reformulation, the parser's trace, or the quality judge's hint.
 * The budget is 0 or 1; a larger configured value is read as 1. A retry that
 * is due but not made is recorded with its reason. The cycle is plain data so
 * it travels with the result to every layer that may want to retry.
 */
import type { RetryCycle, RetrySkip, RetryTrigger } from '../types';

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
