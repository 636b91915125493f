/**
 * `eval [options]` — runs the golden set through the pipeline N times and
 * writes report.json, report.md and report.html. Syntactic validity first:
 * code that fails the parser scores 0 on the judged metrics (and fails its
 * functional cases, which valid code runs in the sandboxed runtime), and an
 * unreachable parser aborts the run (exit 2) instead of scoring unvalidated code.
 * The quality judge is on in evaluation (off by default in the editor, where it
 * costs an LLM call per answer): RETRIEVAL answers go through the gate (LLM
 * judge, one hinted retry) and the report counts what it made of them.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { computeMetrics, createOllamaLlm, memoryTelemetry, prefixedLogger, type LlmPort } from '../../core';
import {
  cassetteLlm,
  emptyCassette,
  loadCassette,
  type CassetteLlm,
  describeIndex,
  writeReports,
  runEvaluation,
  unpinnedModels,
} from '../../eval';
import { loadGoldenSet, loadKnowledgeBase, knowledgeDirectory, type GoldenEntry } from '../../knowledge';
import { parseThreshold, QualityConfigError, DEFAULT_THRESHOLD } from '../../quality';
import { createRunPool } from '../../runtime/host';
import { createAssistantStack } from '../../stack';
import { EXIT, UsageError, type CliCommand, type CliIO } from '../command';
import { createEvalProgress } from '../progress/evalProgress';
import { progressMode, stopOnAbort } from '../progress/output';
import { configFromFlags, PIPELINE_OPTIONS } from './generate';
import { optionLines, PIPELINE_ENV_NOTE, pipelineOptions, VALIDATION_NOTE } from './pipelineUsage';

const USAGE = `Usage: node dist/cli.js eval [--runs N] [--out DIR] [options]
  Runs the golden set through the pipeline and writes DIR/report.{json,md,html}.
  --runs N               runs over the set (default 5); seed from $EVAL_SEED (default 42), temperature 0
  --out DIR              where the reports go (default eval-report)
  --only IDS             comma-separated question ids to run (default: all)
  --judge-model NAME     model for faithfulness / answer relevancy and the quality judge (default: --model)
  --judge-threshold X    pass mark of the quality judge's composite, 0–1 (default $AVAP_JUDGE_THRESHOLD, else ${DEFAULT_THRESHOLD})
  --no-judge             skip the judged metrics and the quality gate (syntactic validity and functional
                         correctness only)
                         (the gate — LLM judge, one hinted retry — is on for RETRIEVAL answers; $AVAP_JUDGE is not read)
  --few-shot K           validated examples injected before code generation (default 5; 0 disables)
  --cassette FILE        record/replay LLM answers (keyed by request) in FILE
  --cassette-mode MODE   record | replay (default replay when FILE exists)
${optionLines(pipelineOptions(['--json', '--telemetry', '--quiet']), 23)}
${PIPELINE_ENV_NOTE}
${VALIDATION_NOTE}
  --quiet               no progress on stderr (errors still print)
Progress goes to stderr: on a terminal one live line (run, question, answered / failed, elapsed, time left,
the current question); otherwise one line per question: run k/N · question i/M · <id> · <verdict> · <elapsed>.
Stdout carries the headline figure and the report paths.
Every model the evaluation calls must be pinned (a tag such as qwen3:1.7b; no tag or 'latest' is refused):
the generation model (--model), the conversational model ($OLLAMA_MODEL_NAME_CONVERSATIONAL), the embedding
model (--embedding-model) and, unless --no-judge, the judge model (--judge-model).
Exit codes: 0 the run completed, 2 aborted (parser unreachable, usage error, missing cassette answer).`;

/** The query of the retrieval probe made before the run (its mode must be the configured one). */
const RETRIEVAL_PROBE = 'addVar addResult';

function positive(name: string, raw: string | undefined, fallback: number, min = 1): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${name} must be an integer ≥ ${min}, got '${raw}'`);
  return n;
}

/** --judge-threshold, else $AVAP_JUDGE_THRESHOLD, else the default pass mark. */
function judgeThreshold(flag: string | undefined, env: string | undefined): number {
  try {
    if (flag !== undefined) return parseThreshold('--judge-threshold', flag);
    if (env?.trim()) return parseThreshold('AVAP_JUDGE_THRESHOLD', env.trim());
    return DEFAULT_THRESHOLD;
  } catch (err) {
    if (err instanceof QualityConfigError) throw new UsageError(err.message);
    throw err;
  }
}

function selectEntries(all: readonly GoldenEntry[], only: string | undefined): GoldenEntry[] {
  if (!only) return [...all];
  const ids = only
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = ids.filter((id) => !all.some((e) => e.id === id));
  if (unknown.length) throw new UsageError(`unknown question id(s): ${unknown.join(', ')}`);
  return all.filter((e) => ids.includes(e.id));
}

function openCassette(
  file: string | undefined,
  mode: string | undefined,
  inner: LlmPort,
  model: string,
): CassetteLlm | undefined {
  if (!file) {
    if (mode) throw new UsageError('--cassette-mode needs --cassette FILE');
    return undefined;
  }
  const loaded = loadCassette(file);
  const effective = mode ?? (loaded.ok ? 'replay' : 'record');
  if (effective === 'replay') {
    if (!loaded.ok) throw new UsageError(loaded.error.message);
    return cassetteLlm('replay', file, loaded.value);
  }
  if (effective !== 'record') throw new UsageError(`--cassette-mode must be record or replay, got '${effective}'`);
  return cassetteLlm('record', file, loaded.ok ? loaded.value : emptyCassette(`model ${model}`), inner);
}

async function run(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...PIPELINE_OPTIONS,
      runs: { type: 'string' },
      out: { type: 'string' },
      only: { type: 'string' },
      'judge-model': { type: 'string' },
      'judge-threshold': { type: 'string' },
      'no-judge': { type: 'boolean', default: false },
      'few-shot': { type: 'string' },
      cassette: { type: 'string' },
      'cassette-mode': { type: 'string' },
    },
    strict: true,
  });
  const config = configFromFlags(values, io.env);
  const judgeOn = !values['no-judge'];
  const judgeModel = values['judge-model'] ?? config.ollama.model;
  // Every model the evaluation calls is pinned, by the same rule: generation, conversation, embedding, judge.
  const unpinned = unpinnedModels({
    generation: config.ollama.model,
    conversational: config.ollama.conversationalModel,
    embedding: config.ollama.embeddingModel,
    ...(judgeOn ? { judge: judgeModel } : {}),
  });
  if (unpinned.length) throw new UsageError(unpinned.join('; '));
  const runs = positive('--runs', values.runs, 5);
  const seed = positive('$EVAL_SEED', io.env.EVAL_SEED, 42, 0);
  config.ollama.temperature = 0;
  config.ollama.seed = seed;
  config.pipeline.fewShotExamples = positive('--few-shot', values['few-shot'], 5, 0);
  config.telemetry.file = undefined;
  const threshold = judgeThreshold(values['judge-threshold'], io.env.AVAP_JUDGE_THRESHOLD);

  const dir = knowledgeDirectory();
  if (!dir.ok) throw new UsageError(dir.error.message);
  const golden = loadGoldenSet(dir.value);
  if (!golden.ok) throw new UsageError(golden.error.message);
  const entries = selectEntries(golden.value.entries, values.only);
  const kb = loadKnowledgeBase();
  if (!kb.ok) throw new UsageError(kb.error.message);

  const live = createOllamaLlm(config.ollama);
  const cassette = openCassette(values.cassette, values['cassette-mode'], live, config.ollama.model);
  const llm = cassette ?? live;
  const telemetry = memoryTelemetry();
  const described = await describeIndex(config.retrieval, kb.value.fingerprint);
  if (!described.ok) throw new UsageError(described.error.message);
  const index = described.value;
  const created = await createAssistantStack(
    { core: config, quality: { judge: { enabled: judgeOn, threshold, model: judgeModel } } },
    {
      llm,
      telemetry,
      logger: prefixedLogger(() => undefined),
      knowledge: kb.value,
      bundled: { onLog: () => undefined },
      // The evaluation records no training signals; its runs go through the judge by the runner's gate.
      caller: { source: 'eval', log: () => undefined },
    },
  );
  if (!created.ok) throw new UsageError(created.error.message);
  const stack = created.value;
  const assistant = stack.assistant;
  // Functional correctness: answers run against their question's cases in the sandbox (fresh database per run).
  const pool = createRunPool({ size: 1 });
  if (!pool.ok) {
    await stack.dispose();
    throw new UsageError(pool.error.message);
  }
  const runtime = pool.value;
  const fewShotK = config.pipeline.fewShotExamples;
  const display = createEvalProgress({
    mode: progressMode(io, Boolean(values.quiet)),
    write: io.stderr,
    columns: io.stderrTerminal?.columns,
    ids: entries.map((e) => e.id),
  });
  const releaseAbort = stopOnAbort(display, io.signal);
  try {
    const outcome = await runEvaluation(
      {
        run: (request, options) => assistant.run(request, options),
        parser: assistant.parser,
        llm,
        sourceText: (id) => kb.value.chunk(id)?.text,
        events: () => telemetry.events,
        convergence: (events) => {
          const m = computeMetrics(events);
          const opt = (v: number | null) => (v === null ? undefined : v);
          return {
            first_attempt_invalid_rate: opt(m.firstAttemptInvalidRate),
            convergence_rate: opt(m.multiAttemptConvergenceRate),
            mean_attempts_converged: opt(m.meanAttemptsAmongConverged),
            non_convergence_rate: opt(m.nonConvergenceRate),
          };
        },
        retrievalProbe: async (signal) => {
          const probe = await assistant.retrieval.retrieve(RETRIEVAL_PROBE, { topK: 1, signal });
          return probe.ok
            ? { mode: probe.value.mode, ...(probe.value.fallback ? { fallback: probe.value.fallback } : {}) }
            : { mode: 'none', fallback: probe.error.message };
        },
        ...(stack.quality ? { quality: { validator: stack.quality.validator, passages: stack.passages } } : {}),
        runtime,
      },
      {
        config: {
          seed,
          model: config.ollama.model,
          judgeModel,
          embeddingModel: config.ollama.embeddingModel,
          temperature: 0,
          index,
          retrievalMode: config.retrieval.mode,
          fewShot: { status: fewShotK > 0 ? 'enabled' : 'disabled', k: fewShotK },
          runs,
          goldenVersion: golden.value.goldenVersion,
          llm: cassette
            ? `${values['cassette-mode'] ?? 'replay'} cassette ${path.basename(values.cassette ?? '')}`
            : `ollama ${config.ollama.host}`,
          judge: { enabled: judgeOn, model: judgeModel, threshold },
        },
        golden: entries,
        judge: { enabled: judgeOn, judgeModel, embeddingModel: config.ollama.embeddingModel },
        signal: io.signal,
        progress: display.note,
        onProgress: display.onEvent,
      },
    );
    display.stop();
    const out = path.resolve(values.out ?? 'eval-report');
    if (!outcome.ok) {
      if (outcome.error.partial) writeReports(path.join(out, 'partial'), outcome.error.partial);
      io.stderr(`avap eval: aborted — ${outcome.error.message}\n`);
      return EXIT.usage;
    }
    if (cassette && cassette.misses.length > 0) {
      io.stderr(
        `avap eval: aborted — the cassette had no answer for ${cassette.misses.length} request(s), first: ${cassette.misses[0]}\n`,
      );
      return EXIT.usage;
    }
    const files = writeReports(out, outcome.value);
    const v = outcome.value.syntactic_validity;
    const figure = v.n === 0 ? 'n/a (no code answers)' : `${(100 * v.mean).toFixed(1)} % ± ${(100 * v.std).toFixed(1)}`;
    const errors = outcome.value.runs.reduce((n, r) => n + r.pipeline_errors, 0);
    io.stdout(
      `syntactic_validity ${figure} over ${runs} run(s)${errors ? `; ${errors} question(s) unanswered (see the report)` : ''}\n${files.json}\n${files.md}\n${files.html}\n`,
    );
    return EXIT.ok;
  } finally {
    display.stop();
    releaseAbort();
    cassette?.save();
    await runtime.close();
    await stack.dispose();
  }
}

export const evalCommand: CliCommand = {
  name: 'eval',
  summary:
    'run the golden set N times and report syntactic validity, functional correctness, judged metrics and failures',
  usage: USAGE,
  run,
};
