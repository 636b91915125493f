/**
 * The quality gate around the pipeline: runs a request through the core's
 * assistant with a reviewer for RETRIEVAL answers — the validator (the LLM
 * judge) scores the answer against the retrieved documentation, and a failing
 * answer asks for one retry with the weakest dimension's hint. Best effort: an
 * answer comes back either way with its scores; a judge failure is reported,
 * never scored.
 *
 * The pipeline makes the hinted retry (core/pipeline/review.ts): it grants it
 * only while the request's one retry cycle is unused (D1 RC-08; a skipped retry
 * is reported here as `retrySkipped`), streams it as drafts of the next
 * attempt, validates its AVAP code with the parser like any answer's and
 * holds the final message until the review is done, so the final
 * `validation_status` is the earned verdict on the answer handed over.
 */
import type {
  AnswerReviewer,
  PipelineRequest,
  PipelineResult,
  ResponseMessage,
  RetrievedSource,
  RetrySkip,
  LlmError,
} from '../core';
import { qualityGate, type GateResult, type Regenerate } from './gate';
import {
  verdictRecord,
  type ContextPassage,
  type QualityFailure,
  type QualityValidator,
  type QualityVerdictRecord,
} from './port';

export interface AssistantLike {
  run(
    request: PipelineRequest,
    options?: { signal?: AbortSignal; onMessage?: (message: ResponseMessage) => void; review?: AnswerReviewer },
  ): Promise<PipelineResult>;
}

export interface QualityRunDeps {
  assistant: AssistantLike;
  validator: QualityValidator;
  /** The texts of the retrieved sources (by id); sources it cannot resolve are left out. */
  passages: (sources: readonly RetrievedSource[]) => ContextPassage[];
}

export interface QualityReport {
  validator: string;
  passed: boolean;
  retried: boolean;
  /** Every verdict, in attempt order (1 = the pipeline's answer, 2 = the hinted retry). */
  attempts: { attempt: number; verdict: QualityVerdictRecord; hint?: string }[];
  /** The last attempt's failure, when the validator could not assess. */
  failure?: QualityFailure;
  /** The retry could not be generated (the first answer is returned). */
  retryError?: LlmError;
  /** The retry was due but not made: the request had no retry cycle left (D1 RC-08). */
  retrySkipped?: RetrySkip;
}

export interface QualityRunResult {
  result: PipelineResult;
  /** Absent when the gate did not apply (not RETRIEVAL, or the run failed). */
  quality?: QualityReport;
}

/** The report of the gate's outcome, by the validator named `validator`. */
function report(validator: string, gate: GateResult): QualityReport {
  const { attempts, passed, retryError, retrySkipped } = gate;
  const last = attempts[attempts.length - 1]?.verdict;
  return {
    validator,
    passed,
    retried: attempts.length > 1,
    attempts: attempts.map((a, i) => ({
      attempt: i + 1,
      verdict: verdictRecord(a.verdict),
      ...(a.hint ? { hint: a.hint } : {}),
    })),
    ...(last && !last.ok ? { failure: last.error } : {}),
    ...(retryError ? { retryError } : {}),
    ...(retrySkipped ? { retrySkipped } : {}),
  };
}

export async function runWithQuality(
  deps: QualityRunDeps,
  request: PipelineRequest,
  options: { signal?: AbortSignal; onMessage?: (message: ResponseMessage) => void } = {},
): Promise<QualityRunResult> {
  let quality: QualityReport | undefined;
  const review: AnswerReviewer = async (answer, retry, signal) => {
    if (answer.queryType !== 'RETRIEVAL') return;
    const input = {
      question: answer.question,
      answer: answer.answer,
      context: deps.passages(answer.sources),
      queryType: answer.queryType,
    };
    const regenerate: Regenerate = async (hint) => {
      const made = await retry(hint);
      if (made.ok) return { ok: true, value: made.answer };
      return 'skipped' in made ? { ok: false, skipped: made.skipped } : { ok: false, error: made.error };
    };
    const gate = await qualityGate(deps.validator, input, regenerate, signal);
    quality = report(deps.validator.name, gate);
  };
  const result = await deps.assistant.run(request, { ...options, review });
  return result.error || !quality ? { result } : { result, quality };
}
