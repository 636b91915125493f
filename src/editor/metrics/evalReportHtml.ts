/**
 * The body of the "Evaluation Report" webview: a report.json from
 * `eval --out DIR` as tiles and SVG bars (validity and functional correctness per run, parse failures
 * by category and by question, offending tokens, leakage). Pure; every text
 * from the file is escaped.
 */
import type { StoredEvalReport } from '../../eval';
import { escapeHtml as esc } from '../../html';
import { barChart, pct, tiles } from './metricsHtml';

type Stat = StoredEvalReport['syntactic_validity'];
const pctStat = (s: Stat | undefined) =>
  !s || s.n === 0 || s.mean === null ? '—' : `${pct(s.mean)} ± ${((s.std ?? 0) * 100).toFixed(1)}`;
const numStat = (s: Stat | undefined) =>
  !s || s.n === 0 || s.mean === null ? '—' : `${s.mean.toFixed(3)} ± ${(s.std ?? 0).toFixed(3)}`;

export function evalReportBody(r: StoredEvalReport, source: string): string {
  const c = r.config;
  const figures = tiles([
    ['syntactic validity', pctStat(r.syntactic_validity)],
    ['functional correctness', pctStat(r.functional_correctness)],
    ['faithfulness', numStat(r.faithfulness)],
    ['answer relevancy', numStat(r.answer_relevancy)],
    ['first-attempt invalid', pctStat(r.convergence.first_attempt_invalid_rate)],
    ['converged after retry', pctStat(r.convergence.convergence_rate)],
    ['non-convergence', pctStat(r.convergence.non_convergence_rate)],
    ['judge failures (excluded)', String(r.judge_failures)],
  ]);

  const perRun = barChart(
    'Syntactic validity per run',
    r.runs.map((run) => ({
      label: `run ${run.run}`,
      value: run.syntactic_validity ?? 0,
      note: `${pct(run.syntactic_validity)} (${run.validCode}/${run.codeBearing})`,
      kind: 'valid' as const,
    })),
    1,
  );
  const functional = r.functional_correctness
    ? barChart(
        'Functional correctness per run (every case passes in the runtime)',
        r.runs.map((run) => ({
          label: `run ${run.run}`,
          value: run.functional_correctness ?? 0,
          note: `${pct(run.functional_correctness)} (${run.functionalPassed ?? 0}/${run.functionalChecked ?? 0})`,
          kind: 'valid' as const,
        })),
        1,
      )
    : '';
  const byCategory = barChart(
    'Parse failures by category',
    r.confusion.categories.map((cat) => ({
      label: cat,
      value: r.confusion.byCategory[cat] ?? 0,
      kind: 'invalid' as const,
    })),
  );
  const byQuestion = barChart(
    'Parse failures by question',
    Object.entries(r.confusion.byQuestion)
      .map(([id, counts]) => ({ id, total: Object.values(counts).reduce((a, b) => a + b, 0), counts }))
      .sort((a, b) => b.total - a.total || a.id.localeCompare(b.id))
      .slice(0, 15)
      .map((q) => ({
        label: q.id,
        value: q.total,
        kind: 'invalid' as const,
        note: `${q.total} (${Object.entries(q.counts)
          .filter(([, n]) => n > 0)
          .map(([cat, n]) => `${cat} ${n}`)
          .join(', ')})`,
      })),
  );
  const tokens = barChart(
    'Most frequent offending tokens',
    r.confusion.topTokens.slice(0, 10).map(([token, n]) => ({
      label: token.length > 28 ? `${token.slice(0, 27)}…` : token,
      value: n,
      kind: 'invalid' as const,
    })),
  );
  const leakage = r.leakage
    .map((l) => {
      const total = Math.max(1, l.avap_commands + l.foreign_keywords + l.unknown_identifiers);
      return barChart(
        `Tokens in generated code — ${l.model}`,
        [
          {
            label: 'AVAP commands',
            value: l.avap_commands / total,
            note: `${l.avap_commands} (${pct(l.avap_commands / total)})`,
            kind: 'valid',
          },
          {
            label: 'foreign keywords',
            value: l.foreign_keywords / total,
            note: `${l.foreign_keywords} (${pct(l.foreign_keywords / total)})`,
            kind: 'invalid',
          },
          {
            label: 'unknown identifiers',
            value: l.unknown_identifiers / total,
            note: `${l.unknown_identifiers} (${pct(l.unknown_identifiers / total)})`,
            kind: 'unavailable',
          },
        ],
        1,
      );
    })
    .join('');
  const sum = (pick: (run: StoredEvalReport['runs'][number]) => number | undefined) =>
    r.runs.reduce((n, run) => n + (pick(run) ?? 0), 0);
  const judged = sum((run) => run.quality_judged);
  const gate =
    judged === 0
      ? ''
      : barChart('Quality gate on RETRIEVAL answers (all runs)', [
          { label: 'judged', value: judged, kind: 'neutral' },
          { label: 'passed', value: sum((run) => run.quality_passed), kind: 'valid' },
          { label: 'retried with a hint', value: sum((run) => run.quality_retried), kind: 'neutral' },
          { label: 'judge failures (not scored)', value: sum((run) => run.quality_failures), kind: 'unavailable' },
        ]);
  const errors = sum((run) => run.pipeline_errors);
  const note =
    errors > 0
      ? `<p class="note">${errors} question(s) could not be answered by the pipeline and are not scored (see report.md).</p>`
      : '';
  const warnings = r.warnings ?? [];
  const warned =
    warnings.length === 0
      ? ''
      : `<section class="warnings"><h2>Warnings</h2><ul>${warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul></section>`;
  const selection = c.fewShot.selection
    ? `, ${c.fewShot.selection === 'embedding' ? 'by embedding similarity' : 'lexical fallback'}`
    : '';
  return `<h1>AVAP evaluation — ${esc(c.model)}</h1>
<p class="source">From ${esc(source)} · seed ${c.seed} · ${c.runs} run(s) × ${c.goldenEntries} question(s) · parser ${esc(c.parserVersion)} · index ${esc(c.index.name)} ${esc(c.index.version)} · retrieval <b>${esc(c.retrievalMode)}</b> · few-shot ${esc(c.fewShot.status)} (K=${c.fewShot.k}${esc(selection)})</p>${warned}${note}
<section class="tiles">${figures}</section>
<section class="charts">${perRun}${functional}${gate}${byCategory}${byQuestion}${tokens}${leakage}</section>`;
}

/** The page shown when a chosen file is not a readable report. */
export function evalReportError(source: string, error: string): string {
  return `<h1>AVAP evaluation report</h1><p class="note">Cannot show ${esc(source)}: ${esc(error)}</p>`;
}
