/**
 * The evaluation report: its JSON shape and the three renderings written by
 * `eval --out DIR` (report.json, report.md, report.html). The HTML is
 * self-contained (inline SVG charts, no scripts, no remote resources).
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { escapeHtml as esc } from '../html';
import type { ConfusionMatrix, EvalEntry, LeakageAudit, RunMetrics } from './analysis';
import type { MeanStd } from './stats';

export interface EvalConfig {
  seed: number;
  model: string;
  judgeModel: string;
  embeddingModel: string;
  temperature: number;
  parserVersion: string;
  index: { name: string; version: string; pipeline: string };
  retrievalMode: 'hybrid' | 'knn_only' | 'bm25';
  /** `selection`: how the examples were chosen (`lexical` as soon as one answer fell back); absent when none were chosen. */
  fewShot: { status: 'enabled' | 'degraded' | 'disabled'; k: number; selection?: 'embedding' | 'lexical' };
  runs: number;
  goldenVersion: string;
  goldenEntries: number;
  llm: string;
  /** The quality gate of RETRIEVAL answers (LLM judge, one hinted retry); off with --no-judge. */
  judge: { enabled: boolean; model: string; threshold: number };
  startedAt: string;
}

/** Convergence figures from the telemetry, per run. */
export interface ConvergenceFigures {
  first_attempt_invalid_rate: number | undefined;
  convergence_rate: number | undefined;
  mean_attempts_converged: number | undefined;
  non_convergence_rate: number | undefined;
}

export interface EvalReport {
  config: EvalConfig;
  /** What a reader must know before comparing these figures (e.g. fewer than 5 runs); shown first in every rendering. */
  warnings: string[];
  runs: Array<RunMetrics & { convergence: ConvergenceFigures }>;
  syntactic_validity: MeanStd;
  /** Share of answers to questions with cases whose cases all pass in the runtime (invalid or missing code fails). */
  functional_correctness: MeanStd;
  faithfulness: MeanStd;
  answer_relevancy: MeanStd;
  convergence: Record<keyof ConvergenceFigures, MeanStd>;
  judge_failures: number;
  confusion: ConfusionMatrix;
  leakage: LeakageAudit[];
  entries: EvalEntry[];
  finishedAt: string;
}

const pct = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? 'n/a' : `${(100 * v).toFixed(1)} %`);
const ms = (s: MeanStd, asPct = true) =>
  s.n === 0
    ? 'n/a'
    : asPct
      ? `${pct(s.mean)} ± ${(100 * s.std).toFixed(1)}`
      : `${s.mean.toFixed(3)} ± ${s.std.toFixed(3)}`;

function qualityGate(r: EvalReport): string[] {
  const j = r.config.judge;
  const head = ['## Quality gate (RETRIEVAL answers)', ''];
  if (!j.enabled) return [...head, 'Off (--no-judge): RETRIEVAL answers were not judged.', ''];
  const sum = (pick: (run: EvalReport['runs'][number]) => number) => r.runs.reduce((n, run) => n + pick(run), 0);
  const judged = sum((run) => run.quality_judged);
  const lines = [
    ...head,
    `LLM judge ${j.model}, pass mark ${j.threshold} on the composite, one hinted retry for an answer that does not pass. ` +
      `Judged ${judged}, passed ${sum((run) => run.quality_passed)}, retried ${sum((run) => run.quality_retried)}, judge failures (counted, not scored) ${sum((run) => run.quality_failures)}.`,
    '',
    '| Run | Judged | Passed | Retried | Judge failures |',
    '| --- | --- | --- | --- | --- |',
    ...r.runs.map(
      (run) =>
        `| ${run.run} | ${run.quality_judged} | ${run.quality_passed} | ${run.quality_retried} | ${run.quality_failures} |`,
    ),
    '',
  ];
  const gated = r.entries.filter((e) => e.quality);
  if (gated.length > 0) {
    lines.push(
      '| Question | Run | Passed | Composite | Retried | Judge failure |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const e of gated) {
      const q = e.quality;
      if (!q) continue;
      const note = [q.failure, q.retry_error ? `retry not generated: ${q.retry_error}` : undefined]
        .filter(Boolean)
        .join('; ')
        .replace(/\|/g, '\\|');
      lines.push(
        `| ${e.id} | ${e.run} | ${q.passed ? 'yes' : 'no'} | ${q.composite === undefined ? 'n/a' : q.composite.toFixed(3)} | ${q.retried ? 'yes' : 'no'} | ${note || '—'} |`,
      );
    }
    lines.push('');
  }
  return lines;
}

const NO_STAT: MeanStd = { mean: Number.NaN, std: Number.NaN, n: 0 };

/** Reports written before functional correctness existed have no figure. */
function functionalOf(r: EvalReport): MeanStd {
  return r.functional_correctness ?? NO_STAT;
}

/** Per question: in how many runs every case passed, and why the last failing run failed. */
function functionalRows(r: EvalReport): { id: string; passed: number; runs: number; why: string }[] {
  const byId = new Map<string, EvalEntry[]>();
  for (const e of r.entries) {
    if (!e.functional) continue;
    const list = byId.get(e.id) ?? [];
    list.push(e);
    byId.set(e.id, list);
  }
  return [...byId.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, list]) => {
      const failed = list.filter((e) => !e.functional?.passed).at(-1)?.functional;
      const firstFailure = failed?.cases.find((c) => !c.passed);
      const why = !failed
        ? ''
        : failed.skipped === 'invalid-code'
          ? 'the code fails the parser'
          : failed.skipped === 'no-code'
            ? 'the answer has no code'
            : `${firstFailure?.name ?? ''}: ${firstFailure?.failures.join('; ') ?? ''}`;
      return { id, passed: list.filter((e) => e.functional?.passed).length, runs: list.length, why };
    });
}

function functionalLines(r: EvalReport): string[] {
  const rows = functionalRows(r);
  const head = ['## Functional correctness', ''];
  if (rows.length === 0)
    return [...head, 'No answer was run against cases (no question with cases was asked, or no runtime).', ''];
  const cell = (text: string) => (text.length > 240 ? `${text.slice(0, 239)}…` : text).replace(/\|/g, '\\|');
  return [
    ...head,
    'Each answer to a question with cases ran in the sandboxed runtime (a fresh database per run, recorded HTTP only); it passes when every case gives the expected status and result.',
    '',
    '| Question | Runs where every case passed | Why the last failing run failed |',
    '| --- | --- | --- |',
    ...rows.map((row) => `| ${row.id} | ${row.passed}/${row.runs} | ${row.why ? cell(row.why) : '—'} |`),
    '',
  ];
}

function warningLines(r: EvalReport): string[] {
  const warnings = r.warnings ?? [];
  return warnings.length === 0 ? [] : ['## Warnings', '', ...warnings.map((w) => `- **${w}**`), ''];
}

function fewShotText(f: EvalConfig['fewShot']): string {
  return `few-shot ${f.status} (K=${f.k}${f.selection ? `, selected by ${f.selection === 'embedding' ? 'embedding similarity' : 'lexical fallback'}` : ''})`;
}

function pipelineErrors(r: EvalReport): string[] {
  const failed = r.entries.filter((e) => e.error);
  if (failed.length === 0) return [];
  return ['Pipeline errors:', '', ...failed.map((e) => `- ${e.id} (run ${e.run}): ${e.error ?? ''}`), ''];
}

/** @internal */
export function renderMarkdown(r: EvalReport): string {
  const c = r.config;
  const lines = [
    `# AVAP evaluation — ${c.model}`,
    '',
    `Seed ${c.seed}, temperature ${c.temperature}, ${c.runs} run(s) over ${c.goldenEntries} questions (golden set ${c.goldenVersion}).`,
    `Parser ${c.parserVersion}; index ${c.index.name} ${c.index.version} (${c.index.pipeline}); retrieval **${c.retrievalMode}**; ${fewShotText(c.fewShot)}; LLM ${c.llm}.`,
    '',
    ...warningLines(r),
    '| Metric | Mean ± std over runs |',
    '| --- | --- |',
    `| syntactic_validity | ${ms(r.syntactic_validity)} |`,
    `| functional_correctness (every case passes in the runtime; invalid or missing code fails) | ${ms(functionalOf(r))} |`,
    `| faithfulness (0 when the code fails the parser) | ${ms(r.faithfulness, false)} |`,
    `| answer_relevancy (0 when the code fails the parser) | ${ms(r.answer_relevancy, false)} |`,
    `| first-attempt invalid rate | ${ms(r.convergence.first_attempt_invalid_rate)} |`,
    `| convergence rate (invalid first, valid after retry) | ${ms(r.convergence.convergence_rate)} |`,
    `| mean attempts among converged | ${ms(r.convergence.mean_attempts_converged, false)} |`,
    `| non-convergence rate | ${ms(r.convergence.non_convergence_rate)} |`,
    '',
    `Judge calls that failed (excluded, not scored): ${r.judge_failures}. Questions the pipeline could not answer (listed below, not scored): ${r.runs.reduce((n, run) => n + run.pipeline_errors, 0)}.`,
    '',
    '## Runs',
    '',
    '| Run | Code answers | Valid | syntactic_validity | Cases all pass | functional_correctness | faithfulness | answer_relevancy | Judge failures | Pipeline errors |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...r.runs.map(
      (run) =>
        `| ${run.run} | ${run.codeBearing} | ${run.validCode} | ${pct(run.syntactic_validity)} | ${run.functionalPassed ?? 0}/${run.functionalChecked ?? 0} | ${pct(run.functional_correctness)} | ${run.faithfulness?.toFixed(3) ?? 'n/a'} | ${run.answer_relevancy?.toFixed(3) ?? 'n/a'} | ${run.judge_failures} | ${run.pipeline_errors} |`,
    ),
    '',
    ...pipelineErrors(r),
    ...functionalLines(r),
    ...qualityGate(r),
    '## Parse failures',
    '',
    '| Category | Errors |',
    '| --- | --- |',
    ...r.confusion.categories.map((cat) => `| ${cat} | ${r.confusion.byCategory[cat]} |`),
    '',
  ];
  const questions = Object.keys(r.confusion.byQuestion).sort();
  if (questions.length > 0) {
    lines.push(
      `| Question | ${r.confusion.categories.join(' | ')} |`,
      `| --- |${' --- |'.repeat(r.confusion.categories.length)}`,
    );
    for (const q of questions)
      lines.push(
        `| ${q} | ${r.confusion.categories.map((cat) => r.confusion.byQuestion[q]?.[cat] ?? 0).join(' | ')} |`,
      );
    lines.push('');
  }
  if (r.confusion.byRule.length > 0) {
    lines.push('Errors by rule: ' + r.confusion.byRule.map(([code, n]) => `\`${code}\` (${n})`).join(', '), '');
  }
  if (r.confusion.topTokens.length > 0) {
    lines.push(
      'Most frequent offending tokens: ' +
        r.confusion.topTokens.map(([t, n]) => `\`${t.replace(/`/g, "'")}\` (${n})`).join(', '),
      '',
    );
  }
  lines.push(
    '## Leakage audit',
    '',
    '| Model | AVAP commands | Foreign keywords | Unknown identifiers |',
    '| --- | --- | --- | --- |',
  );
  for (const l of r.leakage) {
    lines.push(
      `| ${l.model} | ${l.avap_commands} (${pct(l.shares.avap_commands)}) | ${l.foreign_keywords} (${pct(l.shares.foreign_keywords)}) | ${l.unknown_identifiers} (${pct(l.shares.unknown_identifiers)}) |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function validityChart(
  r: EvalReport,
  pick: (run: EvalReport['runs'][number]) => number | undefined = (run) => run.syntactic_validity,
  label = 'syntactic validity per run',
): string {
  const w = 60;
  const h = 160;
  const bars = r.runs
    .map((run, i) => {
      const v = pick(run) ?? 0;
      const bh = Math.round(v * h);
      return (
        `<rect x="${40 + i * (w + 10)}" y="${10 + h - bh}" width="${w}" height="${bh}" fill="#2e7d32"><title>run ${run.run}: ${pct(pick(run))}</title></rect>` +
        `<text x="${40 + i * (w + 10) + w / 2}" y="${h + 28}" text-anchor="middle">run ${run.run}</text>` +
        `<text x="${40 + i * (w + 10) + w / 2}" y="${10 + h - bh - 4}" text-anchor="middle">${pct(pick(run))}</text>`
      );
    })
    .join('');
  const width = 60 + r.runs.length * (w + 10);
  return (
    `<svg role="img" aria-label="${label}" width="${width}" height="${h + 40}" font-size="11">` +
    `<line x1="35" y1="10" x2="35" y2="${h + 10}" stroke="#999"/><text x="0" y="16">100%</text><text x="8" y="${h + 12}">0%</text>${bars}</svg>`
  );
}

function heatMap(m: ConfusionMatrix): string {
  const questions = Object.keys(m.byQuestion).sort();
  if (questions.length === 0) return '<p>No parse failures.</p>';
  const max = Math.max(1, ...questions.flatMap((q) => m.categories.map((c) => m.byQuestion[q]?.[c] ?? 0)));
  const cw = 130;
  const ch = 22;
  const left = 110;
  const cells = questions.flatMap((q, row) =>
    m.categories.map((c, col) => {
      const n = m.byQuestion[q]?.[c] ?? 0;
      const alpha = n === 0 ? 0.04 : 0.15 + 0.85 * (n / max);
      return (
        `<rect x="${left + col * cw}" y="${30 + row * ch}" width="${cw - 2}" height="${ch - 2}" fill="rgba(198,40,40,${alpha.toFixed(2)})"><title>${esc(q)} · ${c}: ${n}</title></rect>` +
        `<text x="${left + col * cw + cw / 2}" y="${30 + row * ch + 15}" text-anchor="middle">${n}</text>`
      );
    }),
  );
  const header = m.categories
    .map((c, col) => `<text x="${left + col * cw + cw / 2}" y="20" text-anchor="middle">${c}</text>`)
    .join('');
  const labels = questions.map((q, row) => `<text x="4" y="${30 + row * ch + 15}">${esc(q)}</text>`).join('');
  return `<svg role="img" aria-label="parse failures by question and category" width="${left + m.categories.length * cw}" height="${40 + questions.length * ch}" font-size="11">${header}${labels}${cells.join('')}</svg>`;
}

function qualityHtml(r: EvalReport, table: (rows: string[][]) => string): string {
  const j = r.config.judge;
  if (!j.enabled) return '<p>Off (--no-judge): RETRIEVAL answers were not judged.</p>';
  return (
    `<p>LLM judge ${esc(j.model)}, pass mark ${j.threshold}, one hinted retry; judge failures are counted, not scored.</p>` +
    table([
      ['Run', 'Judged', 'Passed', 'Retried', 'Judge failures'],
      ...r.runs.map((run) =>
        [run.run, run.quality_judged, run.quality_passed, run.quality_retried, run.quality_failures].map(String),
      ),
    ])
  );
}

function functionalHtml(r: EvalReport, table: (rows: string[][]) => string): string {
  const rows = functionalRows(r);
  if (rows.length === 0) return '<p>No answer was run against cases.</p>';
  return table([
    ['Question', 'Runs where every case passed', 'Why the last failing run failed'],
    ...rows.map((row) => [row.id, `${row.passed}/${row.runs}`, row.why || '—']),
  ]);
}

function warningsHtml(warnings: readonly string[]): string {
  if (warnings.length === 0) return '';
  return `<section class="warnings"><h2>Warnings</h2><ul>${warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul></section>\n`;
}

/** @internal */
export function renderHtml(r: EvalReport): string {
  const md = renderMarkdown(r);
  const table = (rows: string[][]) =>
    `<table>${rows.map((row, i) => `<tr>${row.map((cell) => (i === 0 ? `<th>${esc(cell)}</th>` : `<td>${esc(cell)}</td>`)).join('')}</tr>`).join('')}</table>`;
  // The summary is the first table of the Markdown (the metrics), and only that table.
  const mdLines = md.split('\n');
  const first = mdLines.findIndex((l) => l.startsWith('| '));
  const end = mdLines.findIndex((l, i) => i > first && !l.startsWith('| '));
  const summary = mdLines
    .slice(first, end)
    .filter((l) => !l.startsWith('| ---'))
    .map((l) => l.slice(2, -2).split(' | '));
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>AVAP evaluation — ${esc(r.config.model)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}th{background:#f3f3f3}code{background:#f6f6f6}.warnings{border:1px solid #e0a800;background:#fff8e1;padding:0 1em;margin:1em 0}</style>
</head><body>
<h1>AVAP evaluation — ${esc(r.config.model)}</h1>
<p>Seed ${r.config.seed}, ${r.config.runs} run(s), ${r.config.goldenEntries} questions; parser ${esc(r.config.parserVersion)}; index ${esc(r.config.index.name)} ${esc(r.config.index.version)}; retrieval <b>${esc(r.config.retrievalMode)}</b>; ${esc(fewShotText(r.config.fewShot))}.</p>
${warningsHtml(r.warnings ?? [])}${table(summary)}
<h2>Quality gate (RETRIEVAL answers)</h2>
${qualityHtml(r, table)}
<h2>Syntactic validity per run</h2>
${validityChart(r)}
<h2>Functional correctness per run</h2>
${validityChart(r, (run) => run.functional_correctness, 'functional correctness per run')}
${functionalHtml(r, table)}
<h2>Parse failures by question and category</h2>
${heatMap(r.confusion)}
<h2>Errors by rule</h2>
${table([['Rule', 'Errors'], ...r.confusion.byRule.map(([code, n]) => [code, String(n)])])}
<h2>Most frequent offending tokens</h2>
${table([['Token', 'Count'], ...r.confusion.topTokens.map(([t, n]) => [t, String(n)])])}
<h2>Leakage audit</h2>
${table([['Model', 'AVAP commands', 'Foreign keywords', 'Unknown identifiers'], ...r.leakage.map((l) => [l.model, `${l.avap_commands} (${pct(l.shares.avap_commands)})`, `${l.foreign_keywords} (${pct(l.shares.foreign_keywords)})`, `${l.unknown_identifiers} (${pct(l.shares.unknown_identifiers)})`])])}
</body></html>
`;
}

function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

export function writeReports(dir: string, report: EvalReport): { json: string; md: string; html: string } {
  mkdirSync(dir, { recursive: true });
  const files = {
    json: path.join(dir, 'report.json'),
    md: path.join(dir, 'report.md'),
    html: path.join(dir, 'report.html'),
  };
  // Undefined (no code, judge failed) is written as null so every entry has every key.
  writeAtomic(
    files.json,
    `${JSON.stringify(report, (_key, value: unknown) => (value === undefined ? null : value), 2)}\n`,
  );
  writeAtomic(files.md, renderMarkdown(report));
  writeAtomic(files.html, renderHtml(report));
  return files;
}
