/**
 * How a route asks for an answer and checks it (AnswerSpec), and what an
 * answer's validation means for the run: its errors, the trace lines the
 * retry is given, the telemetry verdict. Pure.
 */
import { renderTrace } from '../../parser';
import { shownCodeBlocks, type CodeBlock } from '../code/extract';
import type { AnswerValidation } from '../code/validateBlocks';
import type { ChatMessage } from '../llm/port';
import { answerRetryMessages } from '../routing/prompts';
import type { AttemptVerdict } from '../telemetry/events';
import type { ValidationError } from '../validation/errors';
import { errorsFromTrace } from '../validation/fromTrace';
import { repairInstructions } from '../validation/normalizer';
import type { CodeCheck } from '../validation/status';

export interface AnswerSpec {
  model: string;
  node: string;
  retryNode: string;
  messages: ChatMessage[];
  /** CODE_GENERATION: the answer must hold code (none is an error, E009); other routes may answer in prose. */
  codeRequired: boolean;
  /** The code blocks of an answer that the parser must see. */
  blocks: (text: string) => CodeBlock[];
  /** The trace-guided retry. */
  retryMessages: (
    text: string,
    validation: AnswerValidation,
    traceLines: string[],
    errors: ValidationError[],
  ) => ChatMessage[];
  /** The attempt the loop starts at (2 for Regenerate with Trace: the given code is attempt 1). */
  firstAttempt?: number;
}

/** An answer in prose (RETRIEVAL, CONVERSATIONAL, PLATFORM): the code it shows is validated, none is needed. */
export function proseSpec(model: string, node: string, messages: ChatMessage[]): AnswerSpec {
  return {
    model,
    node,
    retryNode: `${node}_retry`,
    messages,
    codeRequired: false,
    blocks: shownCodeBlocks,
    retryMessages: (text, validation, traceLines, errors) =>
      answerRetryMessages(messages, {
        previousAnswer: text,
        checkedCode: validation.code,
        traceLines,
        repairInstructions: repairInstructions(errors),
      }),
  };
}

/** The error of a code request answered without code. */
const NO_CODE: ValidationError = {
  code: 'E009',
  field: 'response',
  expected: 'an AVAP program',
  received: '',
  severity: 'error',
  line: 1,
  message: 'the answer contained no AVAP code',
};

/** The errors (and warnings) of an answer's code; E009 when a code request got none. */
export function errorsOf(validation: AnswerValidation): ValidationError[] {
  const verdict = validation.verdict;
  if (verdict.kind === 'valid' || verdict.kind === 'invalid') return errorsFromTrace(verdict.trace).errors;
  if (verdict.kind === 'no-code') return [{ ...NO_CODE }];
  return [];
}

/** The lines the trace-guided retry is given: the parser's trace, or the errors as lines. */
export function traceLinesOf(validation: AnswerValidation, errors: ValidationError[]): string[] {
  const verdict = validation.verdict;
  // Warnings never cause the retry, but once there is one they are listed with the errors.
  if (verdict.kind === 'invalid') return renderTrace(verdict.trace).split('\n').filter(Boolean);
  return errors.map((e) => `Line ${e.line ?? 1}: ${e.severity === 'warning' ? 'warning: ' : ''}${e.message}`);
}

export function telemetryVerdict(check: CodeCheck): AttemptVerdict {
  return check === 'no-code' ? 'skipped' : check;
}
