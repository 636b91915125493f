/**
 * Pure analysis of evaluation entries: the override rule, per-run metrics
 * (quality-gate counts included), the syntactic confusion matrix and the
 * leakage audit.
 */
import { catalogue, ruleOf, type TraceCategory, type TraceEntry } from '../parser';
import { calledNames } from '../core';
import type { FunctionalOutcome } from './functional';
import { meanOf, meanStd, round, type MeanStd } from './stats';

export interface EvalEntry {
  id: string;
  category: string;
  queryType: string;
  run: number;
  model: string;
  /** The answer carried AVAP code. */
  codeBearing: boolean;
  /** Parser verdict on the final code (undefined when there is no code). */
  valid: boolean | undefined;
  trace: TraceEntry[];
  code: string;
  attempts: number;
  /** The pipeline's status; `null` when the run failed before a verdict (see `error`). */
  validationStatus: string | null;
  /** After the override rule: 0.0 when the code fails the parser. */
  faithfulness: number | undefined;
  faithfulness_raw: number | undefined;
  answer_relevancy: number | undefined;
  answer_relevancy_raw: number | undefined;
  /** Judge calls that failed for this entry (excluded from the means, counted). */
  judge_failures: string[];
  /** Set when the pipeline itself failed for this entry (e.g. LLM error). */
  error?: string;
  /** Set when the few-shot example retrieval failed and the code was generated without examples. */
  few_shot_injection?: 'degraded';
  /** Validated examples that went into the code prompt (0 for answers that are not code generation). */
  few_shot_injected: number;
  /** How they were chosen: by embedding similarity, or the flagged lexical fallback; undefined when none were chosen. */
  few_shot_selection?: 'embedding' | 'lexical';
  /** The retrieval mode the answer really used (undefined, null in JSON, when it retrieved nothing). */
  retrieval_mode?: string;
  /** The quality gate's outcome for a RETRIEVAL answer that went through it; undefined (null in JSON) otherwise. */
  quality?: EntryQuality;
  /**
   * The answer's code run against the question's cases (functional.ts); undefined (null in JSON) for a question
   * without cases, or when the evaluation has no runtime.
   */
  functional?: FunctionalOutcome;
}

/**
 * What the quality gate (the LLM judge with one hinted retry) made of a
 * RETRIEVAL answer. A judge that could not assess is a failure: it is counted,
 * never scored (the answer did not pass, and only an assessed verdict gives
 * a composite).
 */
export interface EntryQuality {
  /** The last attempt was assessed and reached the threshold. */
  passed: boolean;
  /** Composite score (0–1) of the last assessed attempt; undefined when no attempt was assessed. */
  composite: number | undefined;
  /** The first answer failed and a hinted retry was generated and assessed. */
  retried: boolean;
  /** `code: message` when the last attempt could not be assessed (judge unavailable or malformed). */
  failure: string | undefined;
  /** `code: message` when the hinted retry could not be generated (the first answer was kept). */
  retry_error?: string;
}

/** The override rule: code that fails the parser scores 0.0 on both judged metrics; raw scores are kept. */
export function applyOverride(entry: Omit<EvalEntry, 'faithfulness' | 'answer_relevancy'>): EvalEntry {
  const failsParser = entry.codeBearing && entry.valid === false;
  return {
    ...entry,
    faithfulness: failsParser ? 0 : entry.faithfulness_raw,
    answer_relevancy: failsParser ? 0 : entry.answer_relevancy_raw,
  };
}

export interface RunMetrics {
  run: number;
  entries: number;
  codeBearing: number;
  validCode: number;
  /** Share of code-bearing responses that pass the parser. */
  syntactic_validity: number | undefined;
  /** Answers to questions with cases (scored for functional correctness). */
  functionalChecked: number;
  /** … whose cases all passed. */
  functionalPassed: number;
  /** Share of answers to questions with cases whose cases all pass (invalid or missing code fails). */
  functional_correctness: number | undefined;
  faithfulness: number | undefined;
  answer_relevancy: number | undefined;
  judge_failures: number;
  pipeline_errors: number;
  /** RETRIEVAL answers that went through the quality gate. */
  quality_judged: number;
  /** … whose last attempt passed. */
  quality_passed: number;
  /** … that got a hinted retry. */
  quality_retried: number;
  /** … whose last attempt the judge could not assess (counted, not scored). */
  quality_failures: number;
}

export function runMetrics(run: number, entries: readonly EvalEntry[]): RunMetrics {
  const code = entries.filter((e) => e.codeBearing && e.valid !== undefined);
  const valid = code.filter((e) => e.valid === true).length;
  const checked = entries.filter((e) => e.functional !== undefined);
  const passed = checked.filter((e) => e.functional?.passed === true).length;
  return {
    run,
    entries: entries.length,
    codeBearing: code.length,
    validCode: valid,
    syntactic_validity: code.length === 0 ? undefined : round(valid / code.length),
    functionalChecked: checked.length,
    functionalPassed: passed,
    functional_correctness: checked.length === 0 ? undefined : round(passed / checked.length),
    faithfulness: roundOpt(meanOf(entries.map((e) => e.faithfulness))),
    answer_relevancy: roundOpt(meanOf(entries.map((e) => e.answer_relevancy))),
    judge_failures: entries.reduce((n, e) => n + e.judge_failures.length, 0),
    pipeline_errors: entries.filter((e) => e.error).length,
    ...qualityCounts(entries),
  };
}

/** @internal */
export function qualityCounts(
  entries: readonly EvalEntry[],
): Pick<RunMetrics, 'quality_judged' | 'quality_passed' | 'quality_retried' | 'quality_failures'> {
  const gated = entries.map((e) => e.quality).filter((q): q is EntryQuality => q !== undefined);
  return {
    quality_judged: gated.length,
    quality_passed: gated.filter((q) => q.passed).length,
    quality_retried: gated.filter((q) => q.retried).length,
    quality_failures: gated.filter((q) => q.failure !== undefined).length,
  };
}

function roundOpt(v: number | undefined): number | undefined {
  return v === undefined ? undefined : round(v);
}

export function acrossRuns<R>(runs: readonly R[], pick: (r: R) => number | undefined): MeanStd {
  const s = meanStd(runs.map(pick).filter((v): v is number => v !== undefined));
  return { mean: round(s.mean), std: round(s.std), n: s.n };
}

/** D2 (docs/design.md; the design's ADR-0007, which the warning names): fewer runs than this leave the mean and the standard deviation without comparable meaning. */
const MIN_COMPARABLE_RUNS = 5;

const FEW_RUNS_WARNING = `runs < ${MIN_COMPARABLE_RUNS}: mean and standard deviation are not comparable (ADR-0007)`;

/** What a reader must know before comparing the report's figures: too few runs, few-shot fallbacks. Pure. */
export function reportWarnings(runs: number, entries: readonly EvalEntry[]): string[] {
  const warnings: string[] = [];
  if (runs < MIN_COMPARABLE_RUNS) warnings.push(FEW_RUNS_WARNING);
  const selected = entries.filter((e) => e.few_shot_selection !== undefined);
  const lexical = selected.filter((e) => e.few_shot_selection === 'lexical').length;
  if (lexical > 0) {
    warnings.push(
      `few-shot examples were chosen lexically (BM25 fallback), not by embedding similarity, for ${lexical} of ${selected.length} code answer(s) (few_shot_selection: lexical)`,
    );
  }
  const degraded = entries.filter((e) => e.few_shot_injection === 'degraded').length;
  if (degraded > 0)
    warnings.push(
      `few-shot injection degraded for ${degraded} code answer(s): generated without examples (few_shot_injection: degraded)`,
    );
  return warnings;
}

/** The run's few-shot selection: lexical as soon as one answer fell back, embedding when every selection used it. */
export function fewShotSelection(entries: readonly EvalEntry[]): 'embedding' | 'lexical' | undefined {
  const kinds = new Set(entries.map((e) => e.few_shot_selection).filter((k) => k !== undefined));
  return kinds.has('lexical') ? 'lexical' : kinds.has('embedding') ? 'embedding' : undefined;
}

export interface ConfusionMatrix {
  categories: TraceCategory[];
  /** question id → category → count of error entries over all runs. */
  byQuestion: Record<string, Record<TraceCategory, number>>;
  byCategory: Record<TraceCategory, number>;
  /** Error entries per rule code: [code, count], most frequent first. */
  byRule: Array<[string, number]>;
  /** Most frequent offending tokens: [token, count], most frequent first. */
  topTokens: Array<[string, number]>;
}

const CATEGORIES: TraceCategory[] = ['unknown_token', 'unexpected_construct', 'foreign_keyword', 'syntax_error'];

function zeroCounts(): Record<TraceCategory, number> {
  return { unknown_token: 0, unexpected_construct: 0, foreign_keyword: 0, syntax_error: 0 };
}

function sortedCounts(counts: Map<string, number>, limit: number): Array<[string, number]> {
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, limit);
}

export function confusionMatrix(entries: readonly EvalEntry[], topN = 15): ConfusionMatrix {
  const byQuestion: Record<string, Record<TraceCategory, number>> = {};
  const byCategory = zeroCounts();
  const rules = new Map<string, number>();
  const tokens = new Map<string, number>();
  for (const e of entries) {
    if (!e.codeBearing || e.valid !== false) continue;
    const row = (byQuestion[e.id] ??= zeroCounts());
    for (const t of e.trace) {
      if (t.severity !== 'error') continue;
      const { category } = ruleOf(t.code);
      row[category]++;
      byCategory[category]++;
      rules.set(t.code, (rules.get(t.code) ?? 0) + 1);
      const token = t.token.length > 40 ? `${t.token.slice(0, 39)}…` : t.token;
      if (token) tokens.set(token, (tokens.get(token) ?? 0) + 1);
    }
  }
  return {
    categories: CATEGORIES,
    byQuestion,
    byCategory,
    byRule: sortedCounts(rules, Number.MAX_SAFE_INTEGER),
    topTokens: sortedCounts(tokens, topN),
  };
}

export interface LeakageAudit {
  model: string;
  /** Token counts over all generated code of this model. */
  avap_commands: number;
  foreign_keywords: number;
  unknown_identifiers: number;
  /** Shares of the three, summing to 1 (0 when there is no code). */
  shares: { avap_commands: number; foreign_keywords: number; unknown_identifiers: number };
  topForeign: Array<[string, number]>;
  topUnknown: Array<[string, number]>;
}

const COMMAND_NAMES = new Set(catalogue.COMMANDS.map((c) => c.name));

/** Per model: how the tokens of generated code split between AVAP commands, foreign keywords and unknown names. */
export function leakageAudit(entries: readonly EvalEntry[]): LeakageAudit[] {
  const models = [...new Set(entries.map((e) => e.model))].sort();
  return models.map((model) => {
    let commands = 0;
    const foreign = new Map<string, number>();
    const unknown = new Map<string, number>();
    for (const e of entries) {
      if (e.model !== model || !e.codeBearing) continue;
      commands += calledNames(e.code).filter((n) => COMMAND_NAMES.has(n)).length;
      for (const t of e.trace) {
        if (t.severity !== 'error') continue;
        const { category } = ruleOf(t.code);
        if (category === 'foreign_keyword') foreign.set(t.token, (foreign.get(t.token) ?? 0) + 1);
        if (category === 'unknown_token') unknown.set(t.token, (unknown.get(t.token) ?? 0) + 1);
      }
    }
    const f = [...foreign.values()].reduce((a, b) => a + b, 0);
    const u = [...unknown.values()].reduce((a, b) => a + b, 0);
    const total = commands + f + u;
    const share = (n: number) => (total === 0 ? 0 : round(n / total));
    return {
      model,
      avap_commands: commands,
      foreign_keywords: f,
      unknown_identifiers: u,
      shares: { avap_commands: share(commands), foreign_keywords: share(f), unknown_identifiers: share(u) },
      topForeign: sortedCounts(foreign, 10),
      topUnknown: sortedCounts(unknown, 10),
    };
  });
}
