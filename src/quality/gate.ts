/**
 * The quality gate around an answer: assess it; when it does not pass, ask
 * for one retry with the hint of the lowest dimension and assess the retry.
 * The gate makes no retry of its own: `regenerate` asks the pipeline for it
 * (assistantRun.ts), which grants it only while the request's one retry cycle
 * is unused (D1 RC-08) — a retry not granted comes back as `skipped`. Best
 * effort: an answer always comes back (the retry's, when there was one), with
 * the scores of every attempt. A validator failure is reported as such and
 * never triggers a retry (there is no score to act on).
 */
import { type RetrySkip, type LlmError, hintedRetryMessages, QUALITY_RETRY_HEAD } from '../core';
import type { QualityFailure, QualityInput, QualityValidator, QualityVerdict } from './port';

interface GateAttempt {
  answer: string;
  verdict: QualityVerdict;
  /** The hint the answer was generated with (attempt 2). */
  hint?: string;
}

export interface GateResult {
  /** The answer to return (the last attempt's). */
  answer: string;
  attempts: GateAttempt[];
  /** The last verdict's assessment when there is one. */
  passed: boolean;
  /** Set when the retry could not be generated; the first answer is returned. */
  retryError?: LlmError;
  /** Set when the retry was not made because the request had no retry cycle left (D1 RC-08). */
  retrySkipped?: RetrySkip;
}

/** Asks for the hinted retry: its answer, the pipeline's refusal (the retry cycle is spent), or a failure. */
export type Regenerate = (
  hint: string,
  previous: string,
  signal?: AbortSignal,
) => Promise<{ ok: true; value: string } | { ok: false; error: LlmError } | { ok: false; skipped: RetrySkip }>;

export async function qualityGate(
  validator: QualityValidator,
  input: QualityInput,
  regenerate: Regenerate,
  signal?: AbortSignal,
): Promise<GateResult> {
  const first = await validator.assess(input, signal);
  const attempts: GateAttempt[] = [{ answer: input.answer, verdict: first }];
  if (!first.ok || first.value.passed) {
    return { answer: input.answer, attempts, passed: first.ok && first.value.passed };
  }
  const hint = first.value.hint ?? '';
  const retry = await regenerate(hint, input.answer, signal);
  if (!retry.ok)
    return {
      answer: input.answer,
      attempts,
      passed: false,
      ...('skipped' in retry ? { retrySkipped: retry.skipped } : { retryError: retry.error }),
    };
  const second = await validator.assess({ ...input, answer: retry.value }, signal);
  attempts.push({ answer: retry.value, verdict: second, hint });
  return { answer: retry.value, attempts, passed: second.ok && second.value.passed };
}

// The retry prompt lives with the pipeline's prompts (the pipeline makes the retry); re-exported here.
/** @internal */
export { hintedRetryMessages, QUALITY_RETRY_HEAD };

/**
 * The failure of the last attempt, if its validator could not assess.
 * @internal
 */
export function gateFailure(result: GateResult): QualityFailure | undefined {
  const last = result.attempts[result.attempts.length - 1]?.verdict;
  return last && !last.ok ? last.error : undefined;
}
