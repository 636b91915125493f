/**
 * The reviewer (the quality judge, passed in RunOptions) sees the validated
 * answer before the final message and may ask for one hinted retry. The
 * pipeline makes that retry only while the request's retry cycle is unused
 * (D1 RC-08), validates its code like any answer's, and its verdict is final.
 */
import { hintedRetryMessages } from '../routing/prompts';
import type { AnswerRetryOutcome, AnswerReviewer } from '../types';
import { claimRetry, describeSkip, skipStopReason } from '../validation/retryCycle';
import { statusOf } from '../validation/status';
import { adopt, generateAttempt } from './attempt';
import { cancelledError } from './failure';
import type { RunContext } from './run';
import { errorsOf, telemetryVerdict, type AnswerSpec } from './spec';

/** Hands the run's answer to the reviewer; its failure leaves the answer as it is. */
export async function reviewAnswer(run: RunContext, spec: AnswerSpec, review: AnswerReviewer): Promise<void> {
  try {
    await review(
      {
        question: run.request.query,
        answer: run.result.text,
        queryType: run.result.queryType,
        sources: [...run.result.sources],
      },
      (hint) => hintedRetry(run, spec, hint),
      run.signal,
    );
  } catch (err) {
    // The reviewer only ever improves an answer; its failure leaves the answer as it is.
    run.deps.logger.warn(
      `answer review failed (${err instanceof Error ? err.message : String(err)}) — keeping the answer`,
    );
  }
}

/** The reviewer's hinted retry: made only while the cycle is unused; its code is validated, and its verdict is final. */
async function hintedRetry(run: RunContext, spec: AnswerSpec, hint: string): Promise<AnswerRetryOutcome> {
  const { logger } = run.deps;
  if (run.cancelled) return { ok: false, error: cancelledError() };
  const claim = claimRetry(run.cycle, 'judge-hint');
  if (!claim.granted) {
    logger.info(`judge retry skipped (${describeSkip(claim.skip)})`);
    run.attemptLog.stopReason(skipStopReason(claim.skip));
    return { ok: false, skipped: claim.skip };
  }
  const attempt = run.lastAttempt + 1;
  const previous = run.result.text;
  run.attemptLog.supersede();
  const outcome = await generateAttempt(run, spec, {
    attempt,
    messages: hintedRetryMessages(spec.messages, previous, hint),
    node: 'generate_judge_retry',
  });
  if (!outcome.ok) {
    // The answer before it stands, with the status it earned.
    run.attemptLog.holdNoAnswer({
      attempt,
      model: spec.model,
      errorCode: outcome.error.code,
      stopReason: 'judge-retry-failed',
    });
    return { ok: false, error: outcome.error };
  }
  const { text, validation } = outcome.value;
  const check = adopt(run, spec, attempt, outcome.value);
  const errors = check === 'unavailable' || check === 'no-code' ? [] : errorsOf(validation);
  run.status = statusOf(check);
  if (check === 'invalid')
    logger.info("the judge's retry shows invalid code and the retry cycle is used — returning INVALID_UNRESOLVED");
  run.attemptLog.hold({
    attempt,
    verdict: telemetryVerdict(check),
    errors,
    model: spec.model,
    code: validation.code,
    stopReason: 'judge-hint',
  });
  return { ok: true, answer: text };
}
