/**
 * Deterministic repair first: an invalid answer whose every error
 * carries a proven fix (TraceEntry.fix) is repaired by the parser's fixes —
 * all applied, the answer validated again by the parser service — before any
 * LLM retry is spent. The loop is the parser's one repair function
 * (`repairWithFixes`); here it runs over the answer text, with the trace
 * mapped onto the text's lines and every code block the answer shows
 * validated through the ParserPort on each round.
 *
 * The outcome is `repaired` only when the service validated every block of
 * the repaired answer; a round without a verdict (parser gone, cancelled)
 * ends it unrepaired, so no validity is ever claimed on the fixes' word.
 */
import { repairWithFixes, type RepairStop, type TraceEntry, type ValidationResult } from '../../parser';
import type { ParserPort } from '../types';
import type { CodeBlock } from './extract';
import { validateAnswer, type AnswerValidation } from './validateBlocks';

export const LOG_REPAIRED_BY_FIXES =
  "repaired by the parser's fixes — every error had a proven fix and the parser service validated the result; no LLM retry spent";

/** How the run records a repaired answer (answer object, telemetry, signals, editor). */
export const REPAIRED_BY_FIXES = 'parser-fixes';
export type RepairedBy = typeof REPAIRED_BY_FIXES;

interface AppliedFix {
  line: number;
  code: string;
  title: string;
}

export type AnswerRepair =
  | { kind: 'repaired'; text: string; validation: AnswerValidation; applied: AppliedFix[]; rounds: number }
  /** Not tried: some error has no proven fix (or the answer is not invalid code). */
  | { kind: 'not-repairable' }
  /** Tried: the fixes did not lead to a validated answer. */
  | { kind: 'unrepaired'; stop: RepairStop };

/**
 * True when the trace has errors and every one of them carries a proven fix.
 * @internal
 */
export function everyErrorFixed(trace: readonly TraceEntry[]): boolean {
  const errors = trace.filter((e) => e.severity === 'error');
  return errors.length > 0 && errors.every((e) => e.fix !== undefined);
}

const asResult = (validation: AnswerValidation): ValidationResult | undefined => {
  const verdict = validation.verdict;
  if (verdict.kind !== 'valid' && verdict.kind !== 'invalid') return undefined;
  return {
    valid: verdict.kind === 'valid',
    trace: verdict.responseTrace,
    truncated: false,
    parserVersion: verdict.parserVersion,
  };
};

/** How each round's answer is validated again: through this parser, the blocks of the text it sees, as this file. */
interface AnswerCheck {
  parser: ParserPort;
  /** The code blocks of an answer that the parser must see. */
  blocksOf: (text: string) => CodeBlock[];
  filename: string;
  signal?: AbortSignal;
}

/** Repairs the answer `text`, whose validation is `validation`, with the parser's fixes (see the top of the file). */
export async function repairAnswer(
  check: AnswerCheck,
  text: string,
  validation: AnswerValidation,
): Promise<AnswerRepair> {
  const { parser, blocksOf, filename, signal } = check;
  const initial = asResult(validation);
  if (!initial || initial.valid || !everyErrorFixed(initial.trace)) return { kind: 'not-repairable' };
  const seen = new Map<string, AnswerValidation>();
  const outcome = await repairWithFixes(
    text,
    async (source) => {
      if (signal?.aborted) return undefined;
      const checked = await validateAnswer(parser, blocksOf(source), filename, signal);
      seen.set(source, checked);
      return asResult(checked);
    },
    { initial },
  );
  const final = seen.get(outcome.source);
  if (outcome.repaired && final?.verdict.kind === 'valid') {
    return {
      kind: 'repaired',
      text: outcome.source,
      validation: final,
      applied: outcome.applied,
      rounds: outcome.rounds,
    };
  }
  return { kind: 'unrepaired', stop: outcome.stop };
}
