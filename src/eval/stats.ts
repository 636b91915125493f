/** Summary statistics for evaluation metrics. Pure. */

export interface MeanStd {
  mean: number;
  /** Sample standard deviation (n − 1); 0 for a single run. */
  std: number;
  /** How many values went in (runs where the metric was defined). */
  n: number;
}

export function meanStd(values: readonly number[]): MeanStd {
  const n = values.length;
  if (n === 0) return { mean: Number.NaN, std: Number.NaN, n: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { mean, std: 0, n };
  const variance = values.reduce((acc, v) => acc + (v - mean) ** 2, 0) / (n - 1);
  return { mean, std: Math.sqrt(variance), n };
}

/** Mean of the defined values, or undefined when none is defined. */
export function meanOf(values: readonly (number | undefined)[]): number | undefined {
  const defined = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  return defined.length === 0 ? undefined : defined.reduce((a, b) => a + b, 0) / defined.length;
}

/** The retrieval's cosine similarity (0 when either vector is all zeros). */
export { cosine } from '../core';

/** Fixed-precision rounding for reports (keeps JSON diffs stable). */
export function round(value: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
