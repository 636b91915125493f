/**
 * The quality dimensions for AVAP help answers, their weights, the written
 * rubric per score band (what the judge reads) and the hint a retry gets when
 * a dimension is the weakest. The composite is the weighted sum, computed
 * here — never taken from a model.
 *
 * The design's dimensions (causal depth 0.5, specificity 0.3, actionability
 * 0.2) were written for incident analyses; for AVAP answers the first is
 * grounding in the retrieved documentation, with the same weight — the README
 * ("Why these three dimensions") gives the mapping.
 */

export type DimensionName = 'grounding' | 'specificity' | 'actionability';

interface RubricBand {
  /** Inclusive lower and upper bound of the band. */
  min: number;
  max: number;
  description: string;
}

export interface Dimension {
  name: DimensionName;
  weight: number;
  question: string;
  bands: RubricBand[];
  /** Told to the model when this is the lowest dimension of a failing answer. */
  hint: string;
}

export const DIMENSIONS: readonly Dimension[] = [
  {
    name: 'grounding',
    weight: 0.5,
    question: 'Is every claim supported by the retrieved AVAP documentation?',
    bands: [
      {
        min: 0.9,
        max: 1.0,
        description:
          'Every command, argument and behaviour stated appears in the retrieved documentation; nothing is invented.',
      },
      {
        min: 0.6,
        max: 0.89,
        description:
          'Nearly everything is supported; at most one minor detail goes beyond the documentation without contradicting it.',
      },
      {
        min: 0.3,
        max: 0.59,
        description:
          'Some claims are unsupported, or a command/argument is used in a way the documentation does not show.',
      },
      {
        min: 0.0,
        max: 0.29,
        description:
          'Invents commands or behaviour (e.g. getSHA256 instead of encodeSHA256), borrows syntax from Python/JavaScript/Go, or contradicts the documentation.',
      },
    ],
    hint: 'Only state what the retrieved AVAP documentation supports: use the command names exactly as documented and drop any claim or syntax the documentation does not show.',
  },
  {
    name: 'specificity',
    weight: 0.3,
    question: 'Does it name the exact AVAP commands, their argument order and concrete values?',
    bands: [
      {
        min: 0.9,
        max: 1.0,
        description:
          'Names the exact commands with their arguments in the documented order and concrete values or variable names.',
      },
      {
        min: 0.6,
        max: 0.89,
        description: 'Names the right commands, but argument order or values are only partly given.',
      },
      { min: 0.3, max: 0.59, description: 'Mentions the topic or a command family without exact names or arguments.' },
      { min: 0.0, max: 0.29, description: 'Generic or restates the question; no AVAP command is named.' },
    ],
    hint: 'Cite the exact AVAP command and its argument order (for example encodeSHA256(source, target)), with concrete values or variable names.',
  },
  {
    name: 'actionability',
    weight: 0.2,
    question: 'Can the user act on it: runnable AVAP code or exact steps?',
    bands: [
      {
        min: 0.9,
        max: 1.0,
        description: 'Gives a complete, runnable AVAP snippet (or exact numbered steps) that does what was asked.',
      },
      { min: 0.6, max: 0.89, description: 'Gives code or steps that need small additions to run.' },
      { min: 0.3, max: 0.59, description: 'Describes what to do in prose, without code or exact steps.' },
      { min: 0.0, max: 0.29, description: 'Nothing the user could act on.' },
    ],
    hint: 'Give a short runnable AVAP snippet or exact numbered steps the user can follow.',
  },
];

export const DEFAULT_THRESHOLD = 0.6;

/** @internal */
export function dimension(name: DimensionName): Dimension {
  const found = DIMENSIONS.find((d) => d.name === name);
  if (!found) throw new Error(`unknown quality dimension ${name}`);
  return found;
}

/** Clamps to [0, 1] and rounds to 3 decimals (stable JSON, stable comparisons). */
export function clampScore(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.round(Math.min(1, Math.max(0, value)) * 1000) / 1000;
}

/** The weighted sum of the dimension scores. */
export function composite(scores: Record<DimensionName, number>): number {
  return clampScore(DIMENSIONS.reduce((sum, d) => sum + d.weight * scores[d.name], 0));
}

/**
 * The dimension a retry should work on: the lowest score; on a tie the one
 * with the larger weight (it moves the composite most).
 */
export function weakestDimension(scores: Record<DimensionName, number>): Dimension {
  let weakest = DIMENSIONS[0] as Dimension;
  for (const d of DIMENSIONS) {
    const score = scores[d.name];
    const best = scores[weakest.name];
    if (score < best || (score === best && d.weight > weakest.weight)) weakest = d;
  }
  return weakest;
}

/** The rubric as prompt text. */
export function rubricText(): string {
  return DIMENSIONS.map((d) =>
    [
      `${d.name} (weight ${d.weight}): ${d.question}`,
      ...d.bands.map((b) => `  ${b.min.toFixed(1)}–${b.max === 1 ? '1.0' : b.max.toFixed(2)}: ${b.description}`),
    ].join('\n'),
  ).join('\n\n');
}
