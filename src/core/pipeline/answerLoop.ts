/**
 * What every route does once it has its prompt: generate → validate → repair
 * with the parser's fixes → one trace-guided retry while the request's retry
 * cycle is unused (D1 RC-08) → the reviewer, if any → the final message with the
 * earned status (D1 RC-07: every code block the answer shows is validated
 * first). A retry that is due but not made is logged and recorded; an
 * unavailable parser never triggers one.
 */
import { LOG_EARLY_ABORT } from '../code/streamCheck';
import type { AnswerReviewer, PipelineResult } from '../types';
import { blocking, type ValidationError } from '../validation/errors';
import { claimRetry, describeSkip, retryAvailable, skipStopReason, unresolvedReason } from '../validation/retryCycle';
import { statusOf } from '../validation/status';
import type { EventFields } from './attemptLog';
import { adopt, generateAttempt } from './attempt';
import { cancelledError } from './failure';
import { repairWithFixes } from './repair';
import { reviewAnswer } from './review';
import type { RunContext } from './run';
import { errorsOf, telemetryVerdict, traceLinesOf, type AnswerSpec } from './spec';

export async function answerLoop(run: RunContext, spec: AnswerSpec, review?: AnswerReviewer): Promise<PipelineResult> {
  const { logger } = run.deps;
  const first = spec.firstAttempt ?? 1;
  let messages = spec.messages;
  /** The errors of the attempt the retry corrects (absent for code given to Regenerate with Trace). */
  let corrected: ValidationError[] | undefined;
  for (let attempt = first; ; attempt += 1) {
    const outcome = await generateAttempt(run, spec, {
      attempt,
      messages,
      node: attempt === first ? spec.node : spec.retryNode,
      // Stopping a stream early only makes sense when the trace-guided retry can follow it.
      watch: attempt === 1 && retryAvailable(run.cycle),
    });
    if (!outcome.ok) {
      if (attempt === first || outcome.error.code === 'cancelled') return run.fail(outcome.error, spec.model, attempt);
      // The retry could not be generated: the invalid answer before it stands, unresolved.
      logger.warn(
        `retry generation failed (${outcome.error.message}) — returning the invalid answer as INVALID_UNRESOLVED`,
      );
      run.attemptLog.holdNoAnswer({
        attempt,
        model: spec.model,
        errorCode: outcome.error.code,
        stopReason: 'retry-failed',
      });
      run.result.error = outcome.error;
      return run.finish('INVALID_UNRESOLVED');
    }
    const answer = outcome.value;
    const { text, validation, aborted } = answer;
    const check = adopt(run, spec, attempt, answer);
    const errors = check === 'unavailable' ? [] : errorsOf(validation);
    const fields: EventFields = {
      attempt,
      verdict: telemetryVerdict(check),
      errors: check === 'no-code' ? [] : errors,
      model: spec.model,
      code: validation.code,
    };
    if (aborted) {
      const where = { line: aborted.responseLine, rule: aborted.entry.code };
      run.attemptLog.stoppedEarly(fields, where);
      logger.info(`${LOG_EARLY_ABORT} (attempt ${attempt}, line ${where.line}: ${where.rule})`);
    }
    if (check === 'invalid' && !aborted) {
      // Deterministic repair first: when every error has a proven fix, the parser's fixes may spare the LLM retry.
      const repaired = await repairWithFixes(run, spec, answer, fields);
      if (repaired === 'cancelled') return run.fail(cancelledError(), spec.model, attempt);
      if (repaired === 'repaired') {
        run.status = statusOf('valid');
        break;
      }
    }
    if (check !== 'invalid') {
      const verdict = validation.verdict;
      run.attemptLog.hold({
        ...fields,
        stopReason: verdict.kind === 'unavailable' ? `parser-${verdict.outcome.reason}` : check,
      });
      run.status = statusOf(check);
      break;
    }
    let stopReason: string;
    if (attempt === 1) {
      const claim = claimRetry(run.cycle, 'parser-trace');
      if (claim.granted) {
        run.attemptLog.hold(fields);
        run.attemptLog.supersede();
        logger.info(
          `attempt ${attempt} ${aborted ? 'stopped early' : 'invalid'} (${blocking(errors).length} error(s)) — retrying with the trace`,
        );
        messages = spec.retryMessages(text, validation, traceLinesOf(validation, errors), errors);
        corrected = errors;
        continue;
      }
      stopReason = skipStopReason(claim.skip);
      logger.info(
        `attempt ${attempt} invalid — retry skipped (${describeSkip(claim.skip)}) — returning INVALID_UNRESOLVED`,
      );
    } else {
      stopReason = unresolvedReason(corrected, errors);
      logger.info(`code still invalid after ${attempt} attempt(s) (${stopReason}) — returning INVALID_UNRESOLVED`);
    }
    run.attemptLog.hold({ ...fields, stopReason });
    run.status = 'INVALID_UNRESOLVED';
    break;
  }
  if (review && run.result.text.trim()) {
    await reviewAnswer(run, spec, review);
    if (run.cancelled) return run.fail(cancelledError(), spec.model);
  }
  return run.finish(run.status);
}
