/**
 * The slot for a learned quality model. A `LearnedModel` maps the answer's
 * features (the same `answerFeatures` the heuristic uses, as the numeric
 * vector `numericFeatures`, which `export --features` also writes for a
 * training pipeline) to the three dimension scores. The one implementation
 * shipped is a per-dimension logistic model read from a JSON weights file;
 * a better model only has to implement `LearnedModel`.
 */
import { z } from 'zod';
import { defineContract, preValidateJsonText } from '../tools/contract';
import { answerFeatures, type AnswerFeatures } from './features';
import type { DimensionScore, QualityInput, QualityValidator, QualityVerdict } from './port';
import { clampScore, composite, DEFAULT_THRESHOLD, DIMENSIONS, weakestDimension, type DimensionName } from './rubric';

export interface LearnedModel {
  readonly version: string;
  predict(features: Record<string, number>): Record<DimensionName, number>;
}

/** The feature vector, names stable (they are the keys of a weights file). */
export function numericFeatures(f: AnswerFeatures): Record<string, number> {
  return {
    novelty: f.novelty,
    restates_question: f.restatesQuestion ? 1 : 0,
    commands_named: Math.min(5, f.commandsNamed.length) / 5,
    commands_in_context_share: f.commandsNamed.length ? f.commandsInContext.length / f.commandsNamed.length : 0,
    hallucinations: Math.min(3, f.hallucinations.length) / 3,
    context_overlap: f.contextOverlap,
    has_context: f.hasContext ? 1 : 0,
    code_blocks: Math.min(3, f.codeBlocks) / 3,
    commands_called_in_code: Math.min(5, f.commandsCalledInCode.length) / 5,
    foreign_markers: Math.min(3, f.foreignMarkers.length) / 3,
    has_steps: f.hasSteps ? 1 : 0,
  };
}

export const FEATURE_NAMES: readonly string[] = Object.keys(numericFeatures({
  answerTerms: 0, novelty: 0, restatesQuestion: false, commandsNamed: [], hallucinations: [], commandsInContext: [],
  contextOverlap: 0, hasContext: false, codeBlocks: 0, commandsCalledInCode: [], foreignMarkers: [], hasSteps: false,
}));

const LinearDimension = z.strictObject({
  bias: z.number(),
  weights: z.record(z.string(), z.number()),
});

export const LinearModelSchema = z.strictObject({
  kind: z.literal('linear-logistic'),
  version: z.string().min(1),
  dimensions: z.strictObject({ grounding: LinearDimension, specificity: LinearDimension, actionability: LinearDimension }),
});
export type LinearModelSpec = z.infer<typeof LinearModelSchema>;

export const LinearModelContract = defineContract('learned model file', LinearModelSchema, (spec) => {
  const unknown = Object.values(spec.dimensions).flatMap((d) => Object.keys(d.weights)).filter((k) => !FEATURE_NAMES.includes(k));
  return [...new Set(unknown)].map((k) => ({ field: 'dimensions', message: `uses the unknown feature '${k}'`, suggestion: `Known features: ${FEATURE_NAMES.join(', ')}.` }));
});

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export function linearModel(spec: LinearModelSpec): LearnedModel {
  return {
    version: spec.version,
    predict(features) {
      const score = (name: DimensionName) => {
        const d = spec.dimensions[name];
        let sum = d.bias;
        for (const [feature, weight] of Object.entries(d.weights)) sum += weight * (features[feature] ?? 0);
        return sigmoid(sum);
      };
      return { grounding: score('grounding'), specificity: score('specificity'), actionability: score('actionability') };
    },
  };
}

/** Reads a weights file's text; errors come back verbatim. */
export function loadLinearModel(text: string): { ok: true; model: LearnedModel } | { ok: false; error: string } {
  const checked = preValidateJsonText(LinearModelContract, text);
  return checked.valid ? { ok: true, model: linearModel(checked.value) } : { ok: false, error: checked.error };
}

export function createLearnedValidator(model: LearnedModel, options: { threshold?: number } = {}): QualityValidator {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  return {
    name: 'learned',
    assess: (input) => Promise.resolve(learnedVerdict(model, input, threshold)),
  };
}

function learnedVerdict(model: LearnedModel, input: QualityInput, threshold: number): QualityVerdict {
  let raw: Record<DimensionName, number>;
  try {
    raw = model.predict(numericFeatures(answerFeatures(input)));
  } catch (err) {
    return { ok: false, failure: { validator: 'learned', code: 'model-unavailable', message: `the learned model failed: ${err instanceof Error ? err.message : String(err)}` } };
  }
  if (DIMENSIONS.some((d) => !Number.isFinite(raw[d.name]))) {
    return { ok: false, failure: { validator: 'learned', code: 'model-unavailable', message: 'the learned model returned a non-numeric score', detail: JSON.stringify(raw) } };
  }
  const scores = { grounding: clampScore(raw.grounding), specificity: clampScore(raw.specificity), actionability: clampScore(raw.actionability) };
  const total = composite(scores);
  const passed = total >= threshold;
  const dimensions: DimensionScore[] = DIMENSIONS.map((d) => ({ name: d.name, score: scores[d.name], weight: d.weight }));
  return {
    ok: true,
    assessment: {
      validator: 'learned', composite: total, threshold, passed, dimensions, findings: [], model: model.version,
      ...(passed ? {} : { hint: weakestDimension(scores).hint }),
    },
  };
}
