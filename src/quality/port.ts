/**
 * The QualityValidator port: anything that can say how good an answer is.
 * The adapter: `llm-judge` (one structured LLM call, judge.ts); tests script
 * their own. A validator that could not assess reports a failure — never a score.
 */
import type { QueryType } from '../core';
import type { Result } from '../result';

export interface ContextPassage {
  id?: string;
  title: string;
  text: string;
}

export interface QualityInput {
  question: string;
  /** The answer to assess (Markdown, possibly with code blocks). */
  answer: string;
  /** The retrieved documentation the answer should be grounded in. */
  context: readonly ContextPassage[];
  queryType?: QueryType;
}

export interface DimensionScore {
  /** A rubric dimension (`DimensionName`) for the judge, heuristic and learned validators; other validators name their own (the parser's `syntax`). */
  name: string;
  /** 0.0–1.0 */
  score: number;
  weight: number;
  /** Why (the judge's words). */
  reason?: string;
}

type ValidatorName = 'llm-judge';

export interface QualityAssessment {
  validator: ValidatorName;
  /** Weighted sum of the dimensions, 0.0–1.0. */
  composite: number;
  threshold: number;
  passed: boolean;
  dimensions: DimensionScore[];
  findings: string[];
  /** The weakest dimension's hint, set when the answer did not pass. */
  hint?: string;
  /** The model that judged. */
  model?: string;
}

type QualityFailureCode =
  'judge-unavailable' | 'judge-malformed' | 'parser-unavailable' | 'model-unavailable' | 'cancelled';

export interface QualityFailure {
  validator: ValidatorName;
  code: QualityFailureCode;
  message: string;
  /** Verbatim details (e.g. the malformed answer and the validation error). */
  detail?: string;
}

/** A validator's answer: the assessment, or why it could not assess (the one Result type; `code` is the failure's kind). */
export type QualityVerdict = Result<QualityAssessment, QualityFailure>;

/**
 * A verdict as it is written out — REST's final `quality.attempts[].verdict`, the training signal — a shape clients
 * already read; in-process code passes QualityVerdict.
 */
export type QualityVerdictRecord = { ok: true; assessment: QualityAssessment } | { ok: false; failure: QualityFailure };

export function verdictRecord(verdict: QualityVerdict): QualityVerdictRecord {
  return verdict.ok ? { ok: true, assessment: verdict.value } : { ok: false, failure: verdict.error };
}

export interface QualityValidator {
  readonly name: ValidatorName;
  assess(input: QualityInput, signal?: AbortSignal): Promise<QualityVerdict>;
}
