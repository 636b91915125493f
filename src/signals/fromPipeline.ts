/**
 * Builds a training signal from what the pipeline and the quality gate
 * produced. Pure.
 */
import {
  attemptCount,
  type PipelineRequest,
  type PipelineResult,
  type QueryType,
  type ValidationStatus,
} from '../core';
import type { QualityAssessment, QualityVerdictRecord } from '../quality';
import type { NewSignal } from './store';
import type { SignalType } from './schema';
import { renderEntry } from '../parser';

function signalTypeOf(queryType: QueryType): SignalType {
  switch (queryType) {
    case 'CODE_GENERATION':
      return 'code_generation';
    case 'RETRIEVAL':
      return 'retrieval';
    case 'CONVERSATIONAL':
      return 'conversational';
    case 'PLATFORM':
      return 'platform';
  }
}

function scoreRecord(assessment: QualityAssessment, attempt?: number) {
  return {
    validator: assessment.validator,
    composite: assessment.composite,
    threshold: assessment.threshold,
    passed: assessment.passed,
    dimensions: Object.fromEntries(assessment.dimensions.map((d) => [String(d.name), d.score])),
    ...(attempt !== undefined ? { attempt } : {}),
  };
}

export interface SignalContext {
  source: NewSignal['source'];
  model: string;
  judgeModel?: string;
  parserVersion?: string;
  assistantVersion?: string;
  /** Verdicts of the quality gate, in attempt order. */
  quality?: readonly QualityVerdictRecord[];
  /** Texts of the retrieved passages, when the caller has them. */
  contextTexts?: ReadonlyMap<string, string>;
}

/** A run that ended with an answer: it has a status (failed and cancelled runs are not signals). */
export type AnsweredResult = PipelineResult & { validationStatus: ValidationStatus };

export function isAnswered(result: PipelineResult): result is AnsweredResult {
  return result.validationStatus !== undefined;
}

export function signalFromPipeline(
  request: PipelineRequest,
  result: AnsweredResult,
  context: SignalContext,
): NewSignal {
  const verdicts = context.quality ?? [];
  const history = verdicts.flatMap((v, i) => (v.ok ? [scoreRecord(v.assessment, i + 1)] : []));
  const last = verdicts[verdicts.length - 1];
  return {
    id: result.generationId,
    signal_type: signalTypeOf(result.queryType),
    source: context.source,
    input: {
      query: request.query,
      query_type: result.queryType,
      ...(request.forceType ? { forced: true } : {}),
      context: result.sources.map((s) => {
        const text = context.contextTexts?.get(s.id);
        return { id: s.id, title: s.title, score: s.score, ...(text !== undefined ? { text } : {}) };
      }),
      ...(request.correction
        ? { correction: { code: request.correction.code, trace: request.correction.trace.map((e) => renderEntry(e)) } }
        : {}),
    },
    output: {
      text: result.text,
      code: result.code,
      validation_status: result.validationStatus,
      attempts: attemptCount(result),
      ...(result.repair && result.validationStatus === '' ? { repaired_by: result.repair.by } : {}),
    },
    automated: {
      score: last?.ok ? scoreRecord(last.assessment, verdicts.length) : null,
      history,
      failure:
        last && !last.ok
          ? { validator: last.failure.validator, code: last.failure.code, message: last.failure.message }
          : null,
      parser: result.attempts.map((a) =>
        a.outcome.kind === 'validated' ? (a.outcome.result.valid ? 'valid' : 'invalid') : a.outcome.kind,
      ),
    },
    model: {
      name: context.model,
      ...(context.judgeModel ? { judge: context.judgeModel } : {}),
      ...(context.parserVersion ? { parser_version: context.parserVersion } : {}),
      ...(context.assistantVersion ? { assistant_version: context.assistantVersion } : {}),
    },
  };
}
