/**
 * The retry controller: decides after each verdict whether the pipeline may
 * ask the LLM for another attempt. Budget from settings (one retry by
 * default, the design's RC-08); convergence protection stops early when an
 * error seen on an earlier attempt — same rule code, line and received value
 * (errorKey) — appears again, because the model is not making progress on it.
 */
import type { ValidationError } from './errors';
import { errorKey } from './normalizer';

export type RetryDecision =
  | { retry: true }
  | {
      retry: false;
      reason: 'valid' | 'only-warnings' | 'budget-exhausted' | 'repeated-error' | 'no-verdict';
      repeated?: ValidationError[];
    };

export class RetryController {
  private readonly seen = new Set<string>();
  private retriesUsed = 0;

  constructor(private readonly maxRetries: number) {}

  get retries(): number {
    return this.retriesUsed;
  }

  /** Feed one attempt's verdict; `errors === undefined` means no verdict (parser unavailable). */
  decide(errors: readonly ValidationError[] | undefined): RetryDecision {
    if (errors === undefined) return { retry: false, reason: 'no-verdict' };
    const blocking = errors.filter((e) => e.severity === 'error');
    if (errors.length === 0) return { retry: false, reason: 'valid' };
    if (blocking.length === 0) return { retry: false, reason: 'only-warnings' };
    const repeated = blocking.filter((e) => this.seen.has(errorKey(e)));
    for (const e of blocking) this.seen.add(errorKey(e));
    if (repeated.length > 0 && this.retriesUsed > 0) return { retry: false, reason: 'repeated-error', repeated };
    if (this.retriesUsed >= this.maxRetries) return { retry: false, reason: 'budget-exhausted' };
    this.retriesUsed += 1;
    return { retry: true };
  }
}
