/**
 * The cheap adapter: scores the three dimensions from patterns, without a
 * model. Catches the common failures — code borrowed from other languages,
 * invented command names, answers that restate the question, answers that
 * name no AVAP command — and passes on concrete, documented answers.
 */
import { answerFeatures, type AnswerFeatures } from './features';
import type { DimensionScore, QualityAssessment, QualityInput, QualityValidator, QualityVerdict } from './port';
import { clampScore, composite, DEFAULT_THRESHOLD, DIMENSIONS, weakestDimension, type DimensionName } from './rubric';

interface Scored {
  score: number;
  reason: string;
}

function grounding(f: AnswerFeatures): Scored {
  if (f.restatesQuestion) return { score: 0.1, reason: 'restates the question' };
  let score: number;
  let reason: string;
  if (f.commandsNamed.length === 0) {
    score = f.hasContext ? Math.min(0.6, f.contextOverlap) : 0.4;
    reason = 'names no AVAP command';
  } else if (f.hasContext) {
    score = 0.4 + 0.6 * (f.commandsInContext.length / f.commandsNamed.length);
    reason = `${f.commandsInContext.length}/${f.commandsNamed.length} named commands appear in the retrieved documentation`;
  } else {
    score = 0.7;
    reason = 'names catalogue commands (no retrieved documentation to compare with)';
  }
  if (f.hallucinations.length) {
    score -= 0.5;
    reason += `; uses invented names ${f.hallucinations.join(', ')}`;
  }
  if (f.foreignMarkers.length) {
    score -= 0.3;
    reason += `; code borrows other languages (${f.foreignMarkers.join(', ')})`;
  }
  return { score: clampScore(score), reason };
}

function specificity(f: AnswerFeatures): Scored {
  if (f.restatesQuestion) return { score: 0, reason: 'restates the question' };
  if (f.commandsNamed.length === 0) return { score: f.hallucinations.length ? 0.1 : 0.2, reason: 'no AVAP command named' };
  const called = f.commandsCalledInCode.length > 0;
  return {
    score: clampScore(0.6 + 0.1 * Math.min(2, f.commandsNamed.length) + (called ? 0.2 : 0)),
    reason: `names ${f.commandsNamed.join(', ')}${called ? ' and shows the calls with arguments' : ''}`,
  };
}

function actionability(f: AnswerFeatures): Scored {
  if (f.restatesQuestion) return { score: 0, reason: 'restates the question' };
  if (f.codeBlocks > 0) {
    if (f.foreignMarkers.length) return { score: 0.3, reason: 'has code, but not runnable AVAP' };
    if (f.commandsCalledInCode.length === 0) return { score: 0.5, reason: 'has code without AVAP command calls' };
    return { score: 1, reason: 'gives AVAP code' };
  }
  if (f.hasSteps) return { score: 0.7, reason: 'gives steps, no code' };
  return { score: 0.3, reason: 'prose only' };
}

export interface HeuristicOptions {
  threshold?: number;
}

export function heuristicAssessment(input: QualityInput, threshold = DEFAULT_THRESHOLD): QualityAssessment {
  const f = answerFeatures(input);
  const scored: Record<DimensionName, Scored> = { grounding: grounding(f), specificity: specificity(f), actionability: actionability(f) };
  const scores = { grounding: scored.grounding.score, specificity: scored.specificity.score, actionability: scored.actionability.score };
  const total = composite(scores);
  const passed = total >= threshold;
  const dimensions: DimensionScore[] = DIMENSIONS.map((d) => ({ name: d.name, score: scores[d.name], weight: d.weight, reason: scored[d.name].reason }));
  const findings: string[] = [];
  if (f.restatesQuestion) findings.push('the answer restates the question');
  if (f.hallucinations.length) findings.push(`invented command names: ${f.hallucinations.join(', ')}`);
  if (f.foreignMarkers.length) findings.push(`foreign syntax in code: ${f.foreignMarkers.join(', ')}`);
  if (!f.restatesQuestion && f.commandsNamed.length === 0) findings.push('no concrete AVAP command named');
  return {
    validator: 'heuristic',
    composite: total,
    threshold,
    passed,
    dimensions,
    findings,
    ...(passed ? {} : { hint: weakestDimension(scores).hint }),
  };
}

export function createHeuristicValidator(options: HeuristicOptions = {}): QualityValidator {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  return {
    name: 'heuristic',
    assess(input): Promise<QualityVerdict> {
      return Promise.resolve({ ok: true, assessment: heuristicAssessment(input, threshold) });
    },
  };
}
