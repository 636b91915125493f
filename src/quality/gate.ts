/**
 * The quality gate around an answer: assess it; when it does not pass, make
 * one retry with the hint of the lowest dimension and assess the retry. Best
 * effort: an answer always comes back (the retry's, when there was one), with
 * the scores of every attempt. A validator failure is reported as such and
 * never triggers a retry (there is no score to act on).
 */
import {
  type RetrySkip,
  type ChatMessage,
  type LlmError,
  type LlmPort,
  hintedRetryMessages,
  QUALITY_RETRY_HEAD,
} from '../core';
import type { QualityFailure, QualityInput, QualityValidator, QualityVerdict } from './port';

export interface GateAttempt {
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
  /** Set when the retry was not made because the request had no retry cycle left (RC-08). */
  retrySkipped?: RetrySkip;
}

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
export { QUALITY_RETRY_HEAD };

const DEFAULT_ANSWER_SYSTEM_PROMPT =
  'You answer questions about AVAP, a proprietary API-programming language, using only the documentation provided. Use AVAP command names and argument orders exactly as documented; never use syntax from Python, JavaScript or Go.';

/** Answer messages for callers that do not have the pipeline's own prompt. */
function defaultAnswerMessages(input: QualityInput): ChatMessage[] {
  const context = input.context.map((c, i) => `[${i + 1}] ${c.title}\n${c.text}`).join('\n\n');
  return [
    { role: 'system', content: DEFAULT_ANSWER_SYSTEM_PROMPT },
    { role: 'user', content: `AVAP documentation:\n${context || '(none)'}\n\nQuestion: ${input.question}` },
  ];
}

/**
 * A Regenerate that asks the model again with the hint (streaming pieces to `onToken` when given).
 * @internal Only tests use it: production regenerates through the pipeline's retry budget (RC-08). To be removed
 * with the second retry mechanism.
 */
export function llmRegenerator(
  llm: LlmPort,
  model: string,
  input: QualityInput,
  options: { baseMessages?: readonly ChatMessage[]; onToken?: (piece: string) => void } = {},
): Regenerate {
  const base = options.baseMessages ?? defaultAnswerMessages(input);
  return async (hint, previous, signal) => {
    const reply = await llm.chat({
      model,
      messages: hintedRetryMessages(base, previous, hint),
      ...(options.onToken ? { onToken: options.onToken } : {}),
      ...(signal ? { signal } : {}),
    });
    return reply.ok ? { ok: true, value: reply.value.text } : { ok: false, error: reply.error };
  };
}

/**
 * The failure of the last attempt, if its validator could not assess.
 * @internal
 */
export function gateFailure(result: GateResult): QualityFailure | undefined {
  const last = result.attempts[result.attempts.length - 1]?.verdict;
  return last && !last.ok ? last.error : undefined;
}
