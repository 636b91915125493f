/**
 * The body of the "Validation Metrics" webview: numbers and SVG bar charts
 * drawn here (no chart library, no script). Pure; every text is escaped.
 */
import type { Comparison, Metrics } from '../../core';
import { escapeHtml as esc } from '../../html';

/** A share as a percentage; a dash when it is not defined. */
export const pct = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : `${(value * 100).toFixed(1)} %`;

/** The figure tiles at the top of a metrics page: [label, value] pairs. */
export function tiles(items: readonly (readonly [string, string])[]): string {
  return items
    .map(
      ([label, value]) =>
        `<div class="tile"><div class="value">${esc(value)}</div><div class="label">${esc(label)}</div></div>`,
    )
    .join('');
}

export interface Bar {
  label: string;
  value: number;
  /** Text after the bar; default the value. */
  note?: string;
  kind?: 'valid' | 'invalid' | 'unavailable' | 'neutral';
}

/**
 * A horizontal bar chart that reads from sidebar width up: one row per bar —
 * its label, the bar (an SVG that stretches with the row) and its note — laid
 * out by media/metrics.css as a grid that puts the label on a line of its own
 * when the view is narrow. Nothing is cut: labels and notes wrap, and the
 * label's full text is also its tooltip. `max` defaults to the largest value.
 */
export function barChart(title: string, bars: readonly Bar[], max?: number): string {
  const scale = 1000;
  const top = max ?? Math.max(1, ...bars.map((b) => b.value));
  const rows = bars
    .map((bar) => {
      const w = top > 0 ? Math.min(scale, Math.max(bar.value > 0 ? 4 : 0, Math.round((bar.value / top) * scale))) : 0;
      return (
        `<div class="bar ${bar.kind ?? 'neutral'}">` +
        `<span class="label" title="${esc(bar.label)}">${esc(bar.label)}</span>` +
        `<svg class="track" viewBox="0 0 ${scale} 10" preserveAspectRatio="none" aria-hidden="true"><rect width="${w}" height="10" rx="2"></rect></svg>` +
        `<span class="note">${esc(bar.note ?? String(bar.value))}</span></div>`
      );
    })
    .join('');
  const empty = bars.length === 0 ? '<p class="note">no data yet</p>' : '';
  return `<figure role="group" aria-label="${esc(title)}"><figcaption>${esc(title)}</figcaption><div class="rows">${rows}</div>${empty}</figure>`;
}

/** Change of a rate in percentage points, signed. */
const points = (value: number | null) =>
  value === null ? '—' : `${value >= 0 ? '+' : '−'}${Math.abs(value * 100).toFixed(1)} pts`;

/** A before/after comparison (by parser version or model): one bar per group, the deltas, and what was not controlled. */
function comparisonSection(c: Comparison): string {
  if (c.groups.length < 2) return '';
  const chart = barChart(
    `First-attempt invalid rate by ${c.by} (first seen first)`,
    c.groups.map((g) => ({
      label: g.value,
      value: g.firstAttemptInvalidRate ?? 0,
      note: `${pct(g.firstAttemptInvalidRate)} (${g.validatedGenerations} validated; converged after retry ${pct(g.multiAttemptConvergenceRate)})`,
      kind: 'invalid' as const,
    })),
    1,
  );
  const deltas = c.deltas
    .map(
      (d) =>
        `<li>${esc(d.before)} → ${esc(d.after)}: first-attempt invalid ${points(d.firstAttemptInvalidRate)}, ` +
        `converged after retry ${points(d.multiAttemptConvergenceRate)}, non-convergence ${points(d.nonConvergenceRate)}</li>`,
    )
    .join('');
  const uncontrolled = c.uncontrolled.length
    ? `<p class="note">Not controlled — other settings changed too, so the change is not attributable to ${esc(c.by)} alone: ${esc(c.uncontrolled.join('; '))}</p>`
    : '';
  return `<section class="comparison">${chart}<ul>${deltas}</ul>${uncontrolled}</section>`;
}

export function metricsBody(metrics: Metrics, source: string, comparisons: readonly Comparison[] = []): string {
  const status = metrics.statusCounts;
  const figures = tiles([
    ['generations', String(metrics.generations)],
    ['code generations', String(metrics.codeGenerations)],
    ['validated', String(metrics.validatedGenerations)],
    ['first-attempt invalid', pct(metrics.firstAttemptInvalidRate)],
    ['converged after retry', pct(metrics.multiAttemptConvergenceRate)],
    [
      'mean attempts (converged)',
      metrics.meanAttemptsAmongConverged === null ? '—' : metrics.meanAttemptsAmongConverged.toFixed(2),
    ],
    ['non-convergence', pct(metrics.nonConvergenceRate)],
  ]);
  const review = metrics.needs_review
    ? `<section class="warnings"><h2>Needs review</h2><p>The first-attempt invalid rate (${pct(metrics.firstAttemptInvalidRate)}) is above ${pct(metrics.reviewThreshold)}: ` +
      'look at the most rejected values below, and at the prompt, the model and the catalogue.</p></section>'
    : '';

  const statusChart = barChart('Final validation status (CODE_GENERATION)', [
    { label: 'valid', value: status[''] ?? 0, kind: 'valid' },
    { label: 'INVALID_UNRESOLVED', value: status.INVALID_UNRESOLVED ?? 0, kind: 'invalid' },
    { label: 'PARSER_UNAVAILABLE', value: status.PARSER_UNAVAILABLE ?? 0, kind: 'unavailable' },
    {
      label: 'failed / cancelled',
      value: metrics.failed ?? 0,
      note: `${metrics.failed ?? 0} (no answer)`,
      kind: 'neutral',
    },
  ]);
  const rateChart = barChart(
    'Rates',
    [
      {
        label: 'first-attempt invalid',
        value: metrics.firstAttemptInvalidRate ?? 0,
        note: pct(metrics.firstAttemptInvalidRate),
        kind: 'invalid',
      },
      {
        label: 'converged after retry',
        value: metrics.multiAttemptConvergenceRate ?? 0,
        note: pct(metrics.multiAttemptConvergenceRate),
        kind: 'valid',
      },
      {
        label: 'non-convergence',
        value: metrics.nonConvergenceRate ?? 0,
        note: pct(metrics.nonConvergenceRate),
        kind: 'invalid',
      },
    ],
    1,
  );
  const trend = barChart(
    'First-attempt invalid rate per day (UTC)',
    metrics.trend.slice(-31).map((t) => ({
      label: t.day,
      value: t.firstAttemptInvalidRate ?? 0,
      note: `${pct(t.firstAttemptInvalidRate)} (${t.firstAttemptInvalid}/${t.validatedGenerations})`,
      kind: 'invalid' as const,
    })),
    1,
  );
  const top = metrics.rejectedValues.slice(0, 10);
  const rejected = barChart(
    'Most rejected values (occurrences, in how many generations)',
    top.map((r) => ({
      label: r.value,
      value: r.occurrences,
      note: `${r.occurrences} in ${r.generations} generation${r.generations === 1 ? '' : 's'} (${r.code})`,
      kind: 'invalid' as const,
    })),
  );
  const outcomes = barChart(
    'Runs that rejected each value and still converged',
    top.map((r) => ({
      label: r.value,
      value: r.convergenceRate,
      note: `${pct(r.convergenceRate)} (${r.outcomes.converged}/${r.generations}; unresolved ${r.outcomes.unresolved})`,
      kind: 'valid' as const,
    })),
    1,
  );
  const perCommand = barChart(
    'Rejection rate per command (rejected / used)',
    [...metrics.perCommand]
      .filter((c) => c.rejectedInAttempts > 0)
      .sort((a, b) => b.rate - a.rate)
      .slice(0, 10)
      .map((c) => ({
        label: c.command,
        value: c.rate,
        note: `${pct(c.rate)} (${c.rejectedInAttempts}/${c.usedInAttempts})`,
        kind: 'invalid' as const,
      })),
    1,
  );
  const skipped =
    metrics.skippedLines > 0 ? `<p class="note">${metrics.skippedLines} unreadable line(s) skipped.</p>` : '';
  return `<h1>AVAP validation metrics</h1>
<p class="source">From ${esc(source)} · ${metrics.events} event(s)</p>${skipped}${review}
<section class="tiles">${figures}</section>
<section class="charts">${statusChart}${rateChart}${trend}${rejected}${outcomes}${perCommand}${comparisons.map(comparisonSection).join('')}</section>`;
}
