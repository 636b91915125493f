/**
 * Deterministic repair before the LLM retry: when every error of an invalid
 * answer carries a proven fix, the parser's fixes are applied and the result
 * validated again by the parser service (code/repairAnswer.ts). A repaired
 * answer replaces the attempt's drafts and is the run's answer, valid, with
 * no retry spent.
 */
import { LOG_REPAIRED_BY_FIXES, REPAIRED_BY_FIXES, repairAnswer } from '../code/repairAnswer';
import type { AttemptAnswer } from './attempt';
import type { EventFields } from './attemptLog';
import type { RunContext } from './run';
import { errorsOf, type AnswerSpec } from './spec';

export type RepairStep = 'repaired' | 'not-repaired' | 'cancelled';

/** Tries the parser's fixes on an invalid answer; `fields` is the attempt's event as it stands. */
export async function repairWithFixes(
  run: RunContext,
  spec: AnswerSpec,
  answer: AttemptAnswer,
  fields: EventFields,
): Promise<RepairStep> {
  const { logger, parser } = run.deps;
  const attempt = fields.attempt;
  const check = { parser, blocksOf: spec.blocks, filename: run.filename, signal: run.signal };
  const repaired = await run.timed('repair_with_fixes', () => repairAnswer(check, answer.text, answer.validation));
  if (run.cancelled) return 'cancelled';
  if (repaired.kind === 'unrepaired')
    logger.info(`attempt ${attempt}: the parser's fixes did not give a valid answer (${repaired.stop})`);
  if (repaired.kind !== 'repaired') return 'not-repaired';
  run.attemptLog.hold(fields);
  run.attemptLog.supersede();
  const fixed = repaired.validation;
  run.result.text = repaired.text;
  // What streamed is not what is delivered: the repaired answer replaces the attempt's drafts.
  run.emit({ text: repaired.text, avap_code: '', is_final: false, draft: true, attempt, replace: true });
  run.result.code = fixed.code;
  run.attemptLog.answered(attempt, repaired.text, fixed, REPAIRED_BY_FIXES);
  run.result.repair = { by: REPAIRED_BY_FIXES, attempt, applied: repaired.applied, rounds: repaired.rounds };
  logger.info(
    `${LOG_REPAIRED_BY_FIXES} (attempt ${attempt}: ${repaired.applied.length} fix(es) in ${repaired.rounds} round(s))`,
  );
  run.attemptLog.hold({
    attempt,
    verdict: 'valid',
    errors: errorsOf(fixed),
    model: spec.model,
    code: fixed.code,
    stopReason: 'repaired-by-fixes',
    repairedBy: REPAIRED_BY_FIXES,
  });
  return 'repaired';
}
