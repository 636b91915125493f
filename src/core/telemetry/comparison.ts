/**
 * Before/after comparison of the telemetry by parser version or by model
 * (the before/after comparison of docs/design.md D4): generations are grouped by the value their
 * first attempt recorded, groups ordered by when they were first seen (before
 * → after), each with its metrics, and the change between consecutive groups.
 * A delta is attributable to the compared field only when everything else
 * was frozen: the other fields that vary (model, parser version, temperature)
 * are named in `uncontrolled`. Pure.
 */
import type { AttemptEvent } from './events';
import { computeMetrics, needsReview } from './metrics';

export const COMPARE_BY = ['parser_version', 'model'] as const;
export type CompareBy = (typeof COMPARE_BY)[number];

interface GroupFigures {
  generations: number;
  validatedGenerations: number;
  firstAttemptInvalidRate: number | null;
  multiAttemptConvergenceRate: number | null;
  meanAttemptsAmongConverged: number | null;
  nonConvergenceRate: number | null;
  needs_review: boolean;
}

interface ComparisonGroup extends GroupFigures {
  /** The parser version or model ('(unknown)' when the events did not record it). */
  value: string;
  /** Timestamps of the first and the last attempt of the group. */
  from: string;
  to: string;
}

type Rate =
  'firstAttemptInvalidRate' | 'multiAttemptConvergenceRate' | 'meanAttemptsAmongConverged' | 'nonConvergenceRate';

/** after − before for each rate; null when either side is undefined. */
interface ComparisonDelta extends Record<Rate, number | null> {
  before: string;
  after: string;
}

export interface Comparison {
  by: CompareBy;
  groups: ComparisonGroup[];
  deltas: ComparisonDelta[];
  /** Other settings that vary across the compared generations, e.g. `model: a, b`; empty when the comparison is controlled. */
  uncontrolled: string[];
}

const RATES: Rate[] = [
  'firstAttemptInvalidRate',
  'multiAttemptConvergenceRate',
  'meanAttemptsAmongConverged',
  'nonConvergenceRate',
];
const UNKNOWN = '(unknown)';

const fieldOf = (event: AttemptEvent, by: CompareBy | 'temperature'): string => {
  const value = event[by];
  return value === undefined || value === null || value === '' ? UNKNOWN : String(value);
};

export function isCompareBy(value: string): value is CompareBy {
  return (COMPARE_BY as readonly string[]).includes(value);
}

export function compareBy(events: readonly AttemptEvent[], by: CompareBy): Comparison {
  const firsts = new Map<string, AttemptEvent>();
  for (const e of events) {
    const seen = firsts.get(e.generation_id);
    if (!seen || e.attempt < seen.attempt) firsts.set(e.generation_id, e);
  }
  const groups = new Map<string, { events: AttemptEvent[]; from: string; to: string }>();
  for (const e of events) {
    const first = firsts.get(e.generation_id) as AttemptEvent;
    const value = fieldOf(first, by);
    const group = groups.get(value) ?? { events: [], from: e.timestamp, to: e.timestamp };
    group.events.push(e);
    if (e.timestamp < group.from) group.from = e.timestamp;
    if (e.timestamp > group.to) group.to = e.timestamp;
    groups.set(value, group);
  }
  const ordered: ComparisonGroup[] = [...groups.entries()]
    .map(([value, g]) => {
      const m = computeMetrics(g.events);
      return {
        value,
        from: g.from,
        to: g.to,
        generations: m.generations,
        validatedGenerations: m.validatedGenerations,
        firstAttemptInvalidRate: m.firstAttemptInvalidRate,
        multiAttemptConvergenceRate: m.multiAttemptConvergenceRate,
        meanAttemptsAmongConverged: m.meanAttemptsAmongConverged,
        nonConvergenceRate: m.nonConvergenceRate,
        needs_review: needsReview(m.firstAttemptInvalidRate),
      };
    })
    .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : a.value.localeCompare(b.value)));
  const deltas = ordered.slice(1).map((after, i) => {
    const before = ordered[i] as ComparisonGroup;
    const delta = { before: before.value, after: after.value } as ComparisonDelta;
    for (const rate of RATES) {
      const a = after[rate];
      const b = before[rate];
      delta[rate] = a === null || b === null ? null : a - b;
    }
    return delta;
  });
  const others = (['parser_version', 'model', 'temperature'] as const).filter((f) => f !== by);
  const uncontrolled = others.flatMap((field) => {
    const values = [...new Set([...firsts.values()].map((e) => fieldOf(e, field)))].sort();
    return ordered.length > 1 && values.length > 1 ? [`${field}: ${values.join(', ')}`] : [];
  });
  return { by, groups: ordered, deltas, uncontrolled };
}

const pct = (value: number | null) => (value === null ? 'n/a' : `${(value * 100).toFixed(1)} %`);
const signedPts = (value: number | null) =>
  value === null ? 'n/a' : `${value >= 0 ? '+' : '−'}${Math.abs(value * 100).toFixed(1)} pts`;
const signed = (value: number | null) =>
  value === null ? 'n/a' : `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)}`;

/** The human rendering of a comparison (appended to `metrics` output with --by). */
export function renderComparison(c: Comparison): string {
  const lines = [`Before/after by ${c.by} (first seen first):`];
  if (c.groups.length === 0) lines.push('  no generations');
  for (const g of c.groups) {
    lines.push(
      `  ${g.value}  ${g.from.slice(0, 10)}…${g.to.slice(0, 10)}  ${g.generations} generation(s), ${g.validatedGenerations} validated`,
    );
    lines.push(
      `    first-attempt invalid ${pct(g.firstAttemptInvalidRate)}, converged after retry ${pct(g.multiAttemptConvergenceRate)}, ` +
        `mean attempts ${g.meanAttemptsAmongConverged === null ? 'n/a' : g.meanAttemptsAmongConverged.toFixed(2)}, non-convergence ${pct(g.nonConvergenceRate)}${g.needs_review ? '  [needs review]' : ''}`,
    );
  }
  for (const d of c.deltas) {
    lines.push(
      `  ${d.before} → ${d.after}: first-attempt invalid ${signedPts(d.firstAttemptInvalidRate)}, converged after retry ${signedPts(d.multiAttemptConvergenceRate)}, ` +
        `mean attempts ${signed(d.meanAttemptsAmongConverged)}, non-convergence ${signedPts(d.nonConvergenceRate)}`,
    );
  }
  if (c.uncontrolled.length) {
    lines.push(
      `  not controlled — other settings changed too, so the delta is not attributable to ${c.by} alone: ${c.uncontrolled.join('; ')}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
