/**
 * The evaluation run: the golden set through the pipeline N times, every code
 * answer checked by the parser, judged metrics with the override rule, and
 * the report. Editor-free; the CLI `eval` command wires the real pipeline.
 *
 * RETRIEVAL answers go through the quality gate (the LLM judge, one hinted
 * retry) when the judge is on — the judge is on in evaluation, off by default
 * in the editor; the judged metrics then score the answer the gate returned.
 *
 * Evaluation never falls back silently: a parser that is unreachable before
 * or during the run aborts it with an explicit error (production, unlike
 * evaluation, returns unvalidated code), and so does a retrieval mode that
 * cannot be honoured (e.g. `knn_only` with a failing embedding model, which
 * production answers from BM25 alone, tagged `bm25_only`). Every entry
 * records the retrieval mode it really used.
 */
import type { GoldenEntry } from '../knowledge';
import type { ValidationResult } from '../parser';
import { err, fail, ok, type Failure, type Result } from '../result';
import {
  attemptCount,
  type AnswerReviewer,
  type ParserPort,
  type PipelineRequest,
  type PipelineResult,
  type LlmPort,
  type AttemptEvent,
} from '../core';
import { runWithQuality, type QualityReport, type QualityRunDeps } from '../quality';
import {
  acrossRuns,
  applyOverride,
  confusionMatrix,
  fewShotSelection,
  leakageAudit,
  reportWarnings,
  runMetrics,
  type EntryQuality,
  type EvalEntry,
  type RunMetrics,
} from './analysis';
import { checkFunctional, type RuntimePort } from './functional';
import { answerRelevancy, faithfulness, type JudgeModels } from './ragas';
import type { ConvergenceFigures, EvalConfig, EvalReport } from './report';

type RunWithConvergence = RunMetrics & { convergence: ConvergenceFigures };

export interface EvalTarget {
  /** Runs one request through the pipeline (with the quality gate's reviewer when the judge is on). */
  run(request: PipelineRequest, options?: { signal?: AbortSignal; review?: AnswerReviewer }): Promise<PipelineResult>;
  parser: ParserPort;
  /** The LLM the judge uses (the same port as the pipeline, so cassettes cover both). */
  llm: LlmPort;
  /** Text of a retrieved source, for faithfulness; undefined when unknown. */
  sourceText(id: string): string | undefined;
  /** Telemetry events recorded so far (one per attempt). */
  events(): readonly AttemptEvent[];
  /** The retry and convergence figures computed from telemetry events. */
  convergence(events: readonly AttemptEvent[]): ConvergenceFigures;
  /**
   * The quality gate for RETRIEVAL answers: the validator (the LLM judge), the
   * LLM and model of the hinted retry, and the retrieved sources' texts.
   * Applied when the judge is enabled; absent means no gate.
   */
  quality?: Omit<QualityRunDeps, 'assistant'>;
  /**
   * One retrieval before anything is generated: the mode it really ran in and,
   * when that is not the mode asked for, why. Absent = not probed.
   */
  retrievalProbe?(signal?: AbortSignal): Promise<{ mode: string; fallback?: string }>;
  /**
   * The runtime's sandbox (the run pool): each code answer to a question with cases is run against them
   * (functional correctness). Absent = not measured (the report says n/a).
   */
  runtime?: RuntimePort;
}

/**
 * Why a run stopped without a report: the parser unreachable before it began or lost during it, a retrieval mode it
 * cannot honour, or the caller cancelled. `partial` holds what was scored before a mid-run abort.
 */
interface EvalAbort extends Failure<'parser-unavailable' | 'retrieval-mode' | 'cancelled'> {
  partial?: EvalReport;
}
export type EvalOutcome = Result<EvalReport, EvalAbort>;

export interface EvalOptions {
  config: Omit<EvalConfig, 'parserVersion' | 'goldenEntries' | 'startedAt'>;
  golden: readonly GoldenEntry[];
  judge: JudgeModels & { enabled: boolean };
  signal?: AbortSignal;
  /** Progress lines (the CLI prints them to stderr). */
  progress?: (line: string) => void;
  /** Each question as it starts and as it gets its verdict (the CLI's progress display). */
  onProgress?: (event: EvalProgressEvent) => void;
  now?: () => Date;
}

/** Where the run is: question `question` of `questions` in run `run` of `runs`. */
export interface EvalPosition {
  run: number;
  runs: number;
  question: number;
  questions: number;
  id: string;
}

/** A question's verdict in a progress display: its code is valid or invalid, it had no code, or the pipeline failed (error code). */
export type EvalVerdict = { outcome: 'valid' | 'invalid' | 'no-code' } | { outcome: 'failed'; code: string };

export type EvalProgressEvent =
  ({ kind: 'question-start' } & EvalPosition) | ({ kind: 'question-done'; verdict: EvalVerdict } & EvalPosition);

/** @internal */
export function verdictOf(entry: EvalEntry): EvalVerdict {
  if (entry.error !== undefined) return { outcome: 'failed', code: entry.error.split(':')[0] ?? entry.error };
  if (!entry.codeBearing) return { outcome: 'no-code' };
  return { outcome: entry.valid ? 'valid' : 'invalid' };
}

const PROBE = 'addVar(probe, 1)\naddResult(probe)\n';

/** Whether retrieval ran in the configured mode (`bm25` is what the retrieval tags `bm25_only`). */
function retrievalHonoured(configured: string, used: string): boolean {
  return used === configured || (configured === 'bm25' && used === 'bm25_only');
}

function retrievalProblem(
  configured: string,
  used: string | undefined,
  fallback: string | undefined,
): string | undefined {
  if (used === undefined && fallback === undefined) return undefined;
  if (used !== undefined && retrievalHonoured(configured, used) && fallback === undefined) return undefined;
  const how = used === 'none' ? 'without any context (the retrieval failed)' : `as ${used ?? 'a fallback'}`;
  return `retrieval ran ${how}, not ${configured}${fallback ? ` — ${fallback}` : ''}`;
}

function requestFor(entry: GoldenEntry): PipelineRequest {
  const history = (entry.history ?? [])
    .map((t) => `${t.role === 'user' ? 'User' : 'Assistant'}: ${t.content}`)
    .join('\n');
  return { query: history ? `${history}\nUser: ${entry.question}` : entry.question };
}

async function checkCode(
  target: EvalTarget,
  entry: GoldenEntry,
  code: string,
  signal?: AbortSignal,
): Promise<Result<ValidationResult, Failure<'parser-unavailable'>>> {
  const outcome = await target.parser.validate(code, `${entry.id}.avap`, signal);
  if (outcome.kind === 'unavailable') return fail('parser-unavailable', `${outcome.reason}: ${outcome.detail}`);
  return ok(outcome.result);
}

/** The pipeline's answer, through the quality gate when there is one and the judge is on. */
async function answer(
  target: EvalTarget,
  options: EvalOptions,
  request: PipelineRequest,
): Promise<{ result: PipelineResult; quality?: QualityReport }> {
  const signal = options.signal ? { signal: options.signal } : {};
  if (!options.judge.enabled || !target.quality) return { result: await target.run(request, signal) };
  const assistant = {
    run: (req: PipelineRequest, o?: { signal?: AbortSignal; review?: AnswerReviewer }) =>
      target.run(req, { ...signal, ...(o?.review ? { review: o.review } : {}) }),
  };
  return runWithQuality({ ...target.quality, assistant }, request, signal);
}

/**
 * The entry's record of the gate: composite of the last assessed attempt; a judge failure is counted, not scored.
 * @internal
 */
export function entryQuality(report: QualityReport): EntryQuality {
  const assessed = report.attempts
    .map((a) => a.verdict)
    .filter((v) => v.ok)
    .at(-1);
  return {
    passed: report.passed,
    composite: assessed?.ok ? assessed.assessment.composite : undefined,
    retried: report.retried,
    failure: report.failure ? `${report.failure.code}: ${report.failure.message}` : undefined,
    ...(report.retryError ? { retry_error: `${report.retryError.code}: ${report.retryError.message}` } : {}),
  };
}

async function evaluateEntry(
  target: EvalTarget,
  options: EvalOptions,
  entry: GoldenEntry,
  run: number,
): Promise<EvalEntry | { abort: EvalAbort }> {
  const { result, quality } = await answer(target, options, requestFor(entry));
  const base = {
    id: entry.id,
    category: entry.category,
    queryType: entry.queryType,
    run,
    model: options.config.model,
    code: result.code,
    attempts: attemptCount(result),
    validationStatus: result.validationStatus ?? null,
    judge_failures: [] as string[],
    retrieval_mode: result.retrievalMode,
    few_shot_injected: result.fewShot?.injected ?? 0,
    few_shot_selection: result.fewShot?.selection,
    ...(result.fewShot?.status === 'degraded' ? { few_shot_injection: 'degraded' as const } : {}),
    // Always present (null in JSON) so every entry has the key.
    quality: quality ? entryQuality(quality) : undefined,
  };
  if (result.validationStatus === 'PARSER_UNAVAILABLE') {
    return {
      abort: {
        kind: 'parser-unavailable',
        message: `the parser became unavailable during ${entry.id} (run ${run}); evaluation does not score unvalidated code`,
      },
    };
  }
  const retrieval = retrievalProblem(options.config.retrievalMode, result.retrievalMode, result.retrievalFallback);
  if (retrieval)
    return {
      abort: {
        kind: 'retrieval-mode',
        message: `${entry.id} (run ${run}): ${retrieval}; evaluation never mixes retrieval modes`,
      },
    };
  if (result.error) {
    return applyOverride({
      ...base,
      codeBearing: false,
      valid: undefined,
      trace: [],
      faithfulness_raw: undefined,
      answer_relevancy_raw: undefined,
      error: `${result.error.code}: ${result.error.message}`,
    });
  }
  const codeBearing = result.code.trim().length > 0;
  let valid: boolean | undefined;
  let trace: EvalEntry['trace'] = [];
  if (codeBearing) {
    const checked = await checkCode(target, entry, result.code, options.signal);
    if (!checked.ok)
      return {
        abort: {
          kind: 'parser-unavailable',
          message: `the parser became unavailable while checking ${entry.id} (run ${run}): ${checked.error.message}`,
        },
      };
    valid = checked.value.valid;
    trace = checked.value.trace;
  }
  const functional = target.runtime
    ? await checkFunctional(target.runtime, entry, { code: result.code, valid }, options.signal)
    : undefined;
  let faith: number | undefined;
  let relevancy: number | undefined;
  if (options.judge.enabled) {
    const context = result.sources
      .map((s) => target.sourceText(s.id))
      .filter((t): t is string => Boolean(t))
      .join('\n\n---\n\n');
    const judge = { llm: target.llm, models: options.judge, signal: options.signal };
    const [f, r] = [
      await faithfulness(judge, { answer: result.text, context }),
      await answerRelevancy(judge, { question: entry.question, answer: result.text }),
    ];
    if (f.ok) faith = f.value.score;
    else base.judge_failures.push(`faithfulness: ${f.error.message}`);
    if (r.ok) relevancy = r.value.score;
    else base.judge_failures.push(`answer_relevancy: ${r.error.message}`);
  }
  return applyOverride({
    ...base,
    codeBearing,
    valid,
    trace,
    faithfulness_raw: faith,
    answer_relevancy_raw: relevancy,
    functional,
  });
}

/** What a report says about the evaluation whatever its runs gave: how it was set up and when it started. */
interface ReportHead {
  options: EvalOptions;
  /** The version the parser service answered the probe with. */
  parserVersion: string;
  /** ISO time. */
  startedAt: string;
  /** The clock that stamps `finishedAt`. */
  now: () => Date;
}

/** The report of the runs and entries evaluated so far (all of them, or those before an abort). */
function summarize(head: ReportHead, runs: RunWithConvergence[], entries: EvalEntry[]): EvalReport {
  const { options, parserVersion, startedAt, now } = head;
  const conv = (key: keyof ConvergenceFigures) => acrossRuns(runs, (r) => r.convergence[key]);
  const selection = fewShotSelection(entries);
  return {
    config: {
      ...options.config,
      // One degraded injection taints the run's few-shot status: the report must not claim K examples it did not use.
      fewShot: {
        ...options.config.fewShot,
        ...(entries.some((e) => e.few_shot_injection === 'degraded') ? { status: 'degraded' as const } : {}),
        ...(selection ? { selection } : {}),
      },
      parserVersion,
      goldenEntries: options.golden.length,
      startedAt,
    },
    warnings: reportWarnings(options.config.runs, entries),
    runs,
    syntactic_validity: acrossRuns(runs, (r) => r.syntactic_validity),
    functional_correctness: acrossRuns(runs, (r) => r.functional_correctness),
    faithfulness: acrossRuns(runs, (r) => r.faithfulness),
    answer_relevancy: acrossRuns(runs, (r) => r.answer_relevancy),
    convergence: {
      first_attempt_invalid_rate: conv('first_attempt_invalid_rate'),
      convergence_rate: conv('convergence_rate'),
      mean_attempts_converged: conv('mean_attempts_converged'),
      non_convergence_rate: conv('non_convergence_rate'),
    },
    judge_failures: entries.reduce((n, e) => n + e.judge_failures.length, 0),
    confusion: confusionMatrix(entries),
    leakage: leakageAudit(entries),
    entries,
    finishedAt: now().toISOString(),
  };
}

export async function runEvaluation(target: EvalTarget, options: EvalOptions): Promise<EvalOutcome> {
  const now = options.now ?? (() => new Date());
  const progress = options.progress ?? (() => undefined);
  const onProgress = options.onProgress ?? (() => undefined);
  const startedAt = now().toISOString();

  // Before anything is generated: the parser must answer, and its version goes in the report.
  const probe = await target.parser.validate(PROBE, 'probe.avap', options.signal);
  if (probe.kind === 'unavailable') {
    return fail(
      'parser-unavailable',
      `the AVAP parser is unreachable (${probe.reason}: ${probe.detail}); evaluation needs it and never falls back`,
    );
  }
  const parserVersion = probe.result.parserVersion;
  // The retrieval mode must be honoured too, before anything is generated (knn_only exists to compare embedding models).
  if (target.retrievalProbe) {
    const used = await target.retrievalProbe(options.signal);
    if (options.signal?.aborted) return fail('cancelled', 'cancelled');
    const problem = retrievalProblem(options.config.retrievalMode, used.mode, used.fallback);
    if (problem)
      return fail(
        'retrieval-mode',
        `the retrieval mode ${options.config.retrievalMode} cannot be honoured: ${problem}; evaluation never falls back`,
      );
  }
  progress(
    `parser ${parserVersion}; model ${options.config.model}; retrieval ${options.config.retrievalMode}; ${options.golden.length} questions × ${options.config.runs} run(s)`,
  );

  const head: ReportHead = { options, parserVersion, startedAt, now };
  const entries: EvalEntry[] = [];
  const runs: RunWithConvergence[] = [];
  for (let run = 1; run <= options.config.runs; run++) {
    const eventsBefore = target.events().length;
    const runEntries: EvalEntry[] = [];
    for (const [i, entry] of options.golden.entries()) {
      if (options.signal?.aborted) return fail('cancelled', 'cancelled');
      const position: EvalPosition = {
        run,
        runs: options.config.runs,
        question: i + 1,
        questions: options.golden.length,
        id: entry.id,
      };
      onProgress({ kind: 'question-start', ...position });
      const evaluated = await evaluateEntry(target, options, entry, run);
      // A question cut short by cancellation (its runs or judge calls stopped) is not scored.
      if (options.signal?.aborted) return fail('cancelled', 'cancelled');
      if ('abort' in evaluated) {
        return err({ ...evaluated.abort, partial: summarize(head, runs, entries) });
      }
      onProgress({ kind: 'question-done', ...position, verdict: verdictOf(evaluated) });
      runEntries.push(evaluated);
      entries.push(evaluated);
    }
    const metrics = runMetrics(run, runEntries);
    const convergence = target.convergence(target.events().slice(eventsBefore));
    runs.push({ ...metrics, convergence });
    const gate = metrics.quality_judged
      ? `; quality gate ${metrics.quality_passed}/${metrics.quality_judged} passed, ${metrics.quality_retried} retried, ${metrics.quality_failures} judge failure(s)`
      : '';
    const functional = metrics.functionalChecked
      ? `, functional_correctness ${metrics.functional_correctness ?? 'n/a'} (${metrics.functionalPassed}/${metrics.functionalChecked})`
      : '';
    progress(
      `run ${run}: syntactic_validity ${metrics.syntactic_validity ?? 'n/a'} (${metrics.validCode}/${metrics.codeBearing})${functional}, judge failures ${metrics.judge_failures}${gate}`,
    );
  }
  return ok(summarize(head, runs, entries));
}

/** The models an evaluation calls, by role (`judge` only when the judge is on). Each must be pinned. */
export interface EvalModels {
  generation: string;
  conversational: string;
  embedding: string;
  judge?: string;
}

/**
 * A pinned model name has an explicit tag that is not `latest` (e.g.
 * `qwen3:1.7b`); the tag is what follows the last `:` after the last `/`
 * (a registry host may carry a port). One rule and one message for every
 * model the evaluation calls; `role` names the model in the message.
 * @internal
 */
export function pinnedModelProblem(model: string, role = 'model'): string | undefined {
  const slash = model.lastIndexOf('/');
  const colon = model.lastIndexOf(':');
  const name = colon > slash ? model.slice(0, colon) : model;
  const tag = colon > slash ? model.slice(colon + 1) : undefined;
  const what = `the ${role} '${model}'`;
  const pin = `evaluation needs every model it calls pinned to a version, such as '${name || 'qwen3'}:1.7b'`;
  if (!name.trim() || tag === '' || /\s/.test(model)) return `${what} is not a model name`;
  if (tag === undefined) return `${what} has no tag; ${pin}`;
  if (tag === 'latest') return `${what} uses the moving tag 'latest'; ${pin}`;
  return undefined;
}

/** Every pinning problem of the evaluation's models, generation model first. */
export function unpinnedModels(models: EvalModels): string[] {
  const roles: [string, string | undefined][] = [
    ['generation model', models.generation],
    ['conversational model', models.conversational],
    ['embedding model', models.embedding],
    ['judge model', models.judge],
  ];
  return roles.flatMap(([role, name]) => {
    const problem = name === undefined ? undefined : pinnedModelProblem(name, role);
    return problem ? [problem] : [];
  });
}
