/**
 * `eval` end to end: the built CLI replays the committed cassette (recorded
 * by test/fixtures/eval/record.ts against the scripted Ollama server) through
 * the real pipeline and the real bundled parser, and the report's figures are
 * exactly what the script's behaviours imply. No LLM is reachable in replay:
 * --ollama-url points at a closed port, so any request missing from the
 * cassette would fail loudly.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readEvalReport } from '../../../src/eval';
import { runCliProcess } from '../../support/dist';
import { startScriptedOllama, type ScriptedOllama } from '../../support/scriptedOllama';
import { CASSETTE, EVAL_QUESTIONS, reply } from '../../fixtures/eval/record';

interface Stat {
  mean: number | null;
  std: number | null;
  n: number;
}
interface Entry {
  id: string;
  run: number;
  code: string;
  attempts: number;
  validationStatus: string;
  codeBearing: boolean;
  valid: boolean | null;
  faithfulness: number | null;
  faithfulness_raw: number | null;
  answer_relevancy: number | null;
  answer_relevancy_raw: number | null;
  judge_failures: string[];
  trace: { category: string; token: string; severity: string }[];
  error: string | null;
  retrieval_mode: string | null;
  few_shot_injected: number;
  few_shot_selection: string | null;
  quality: { passed: boolean; composite: number | null; retried: boolean; failure: string | null } | null;
  functional: {
    passed: boolean;
    skipped?: string;
    cases: { name: string; passed: boolean; failures: string[] }[];
  } | null;
}
interface QualityCounts {
  quality_judged: number;
  quality_passed: number;
  quality_retried: number;
  quality_failures: number;
}
interface Report {
  config: {
    seed: number;
    model: string;
    temperature: number;
    runs: number;
    goldenEntries: number;
    parserVersion: string;
    retrievalMode: string;
    fewShot: { status: string; k: number; selection?: string };
    index: { name: string };
    judge: { enabled: boolean; model: string; threshold: number };
  };
  warnings: string[];
  runs: ({
    run: number;
    codeBearing: number;
    validCode: number;
    syntactic_validity: number;
    functionalChecked: number;
    functionalPassed: number;
    functional_correctness: number | null;
    judge_failures: number;
    pipeline_errors: number;
  } & QualityCounts)[];
  syntactic_validity: Stat;
  functional_correctness: Stat;
  faithfulness: Stat;
  answer_relevancy: Stat;
  convergence: Record<
    'first_attempt_invalid_rate' | 'convergence_rate' | 'mean_attempts_converged' | 'non_convergence_rate',
    Stat
  >;
  judge_failures: number;
  confusion: {
    byCategory: Record<string, number>;
    byQuestion: Record<string, Record<string, number>>;
    byRule: [string, number][];
    topTokens: [string, number][];
  };
  leakage: { model: string; avap_commands: number; foreign_keywords: number; unknown_identifiers: number }[];
  entries: Entry[];
}

const BASE = [
  'eval',
  '--runs',
  '2',
  '--model',
  'scripted:1',
  '--embedding-model',
  'scripted-embed:1',
  '--ollama-url',
  'http://127.0.0.1:9',
];
/** The cache directory of the replays: fresh, so the few-shot pool's vectors come from the cassette the first time. */
const CACHE_DIR = mkdtempSync(path.join(os.tmpdir(), 'avap-eval-cache-'));
const ENV = {
  EVAL_SEED: '7',
  AVAP_PARSER_URL: undefined,
  OLLAMA_HOST: undefined,
  AVAP_JUDGE_THRESHOLD: undefined,
  AVAP_CACHE_DIR: CACHE_DIR,
  OLLAMA_MODEL_NAME_CONVERSATIONAL: undefined,
};
const FEW_RUNS = 'runs < 5: mean and standard deviation are not comparable (ADR-0007)';
after(() => rmSync(CACHE_DIR, { recursive: true, force: true }));
const counts = (r: Report) =>
  r.runs.map((run) => [run.quality_judged, run.quality_passed, run.quality_retried, run.quality_failures]);
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const close = (actual: number | null, expected: number) =>
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-3, `${actual} ≠ ${expected}`);

describe('eval (replaying the committed cassette)', function () {
  this.timeout(60_000);
  let out: string;
  let report: Report;
  let stdout: string;
  let stderr: string;
  let cassetteBefore: string;

  before(async () => {
    out = mkdtempSync(path.join(os.tmpdir(), 'avap-eval-'));
    cassetteBefore = sha(CASSETTE);
    const run = await runCliProcess(
      [...BASE, '--only', EVAL_QUESTIONS.join(','), '--cassette', CASSETTE, '--cassette-mode', 'replay', '--out', out],
      { env: ENV, killAfterMs: 50_000 },
    );
    assert.equal(run.code, 0, run.stderr);
    stdout = run.stdout;
    stderr = run.stderr;
    report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as Report;
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it('prints the headline figure and writes the three reports', () => {
    assert.match(stdout, /^syntactic_validity 66\.7 % ± 0\.0 over 2 run\(s\)$/m);
    for (const name of ['report.json', 'report.md', 'report.html']) assert.ok(existsSync(path.join(out, name)), name);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    assert.match(md, /\| syntactic_validity \| 66\.7 % ± 0\.0 \|/);
    assert.match(md, /Judge calls that failed \(excluded, not scored\): 2\./);
    const html = readFileSync(path.join(out, 'report.html'), 'utf8');
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
    assert.doesNotMatch(html, /<script/i);
    const back = readEvalReport(readFileSync(path.join(out, 'report.json'), 'utf8'));
    assert.ok(back.ok, back.ok ? '' : back.error.message);
  });

  it('shows progress on stderr (not a terminal: one plain line per question) and keeps stdout for the results', () => {
    assert.ok(
      !stderr.includes('\r') && !stderr.includes('\u001b'),
      'no carriage returns or escape sequences in a pipe',
    );
    const ELAPSED = / · (\d+\.\ds|\d+s|\d+m\d\ds|\d+h\d\dm)$/;
    const perQuestion = stderr.split('\n').filter((l) => l.startsWith('run ') && l.includes(' · '));
    assert.ok(
      perQuestion.every((l) => ELAPSED.test(l)),
      perQuestion.join('\n'),
    );
    assert.deepEqual(
      perQuestion.map((l) => l.replace(ELAPSED, '')),
      [
        'run 1/2 · question 1/4 · GD-C-001 · valid',
        'run 1/2 · question 2/4 · GD-C-003 · valid',
        'run 1/2 · question 3/4 · GD-C-007 · invalid',
        'run 1/2 · question 4/4 · GD-R-001 · no code',
        'run 2/2 · question 1/4 · GD-C-001 · valid',
        'run 2/2 · question 2/4 · GD-C-003 · valid',
        'run 2/2 · question 3/4 · GD-C-007 · invalid',
        'run 2/2 · question 4/4 · GD-R-001 · no code',
      ],
    );
    // The elapsed time counts from the start of the evaluation: it never goes back.
    const seconds = perQuestion.map((l) => {
      const [, value] = ELAPSED.exec(l) ?? [];
      const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:([\d.]+)s)?$/.exec(value ?? '') ?? [];
      return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
    });
    assert.deepEqual(
      [...seconds].sort((a, b) => a - b),
      seconds,
    );
    assert.match(stderr, /^run 1: syntactic_validity 0\.6667 \(2\/3\)/m, 'the run summaries stay');
    assert.equal(stdout.split('\n').filter(Boolean).length, 4, stdout);
  });

  it('records the configuration that makes the run reproducible', () => {
    const c = report.config;
    assert.equal(c.seed, 7);
    assert.equal(c.temperature, 0);
    assert.equal(c.model, 'scripted:1');
    assert.equal(c.runs, 2);
    assert.equal(c.goldenEntries, 4);
    assert.match(c.parserVersion, /^avap-parser\/\d+\.\d+\.\d+\+catalogue\./);
    assert.equal(c.retrievalMode, 'hybrid');
    assert.deepEqual(c.fewShot, { status: 'enabled', k: 5, selection: 'embedding' });
    assert.equal(c.index.name, 'embedded');
    assert.deepEqual(c.judge, { enabled: true, model: 'scripted:1', threshold: 0.6 });
  });

  it('warns that 2 runs are too few to compare, in report.json, report.md and report.html', () => {
    assert.deepEqual(report.warnings, [FEW_RUNS]);
    assert.match(
      readFileSync(path.join(out, 'report.md'), 'utf8'),
      /## Warnings\n\n- \*\*runs < 5: mean and standard deviation are not comparable \(ADR-0007\)\*\*/,
    );
    assert.match(
      readFileSync(path.join(out, 'report.html'), 'utf8'),
      /<section class="warnings"><h2>Warnings<\/h2><ul><li>runs &lt; 5: mean and standard deviation are not comparable \(ADR-0007\)<\/li>/,
    );
  });

  it('records per entry the retrieval mode used and the few-shot examples injected, chosen by embedding similarity', () => {
    for (const e of report.entries) {
      assert.equal(e.retrieval_mode, 'hybrid', `${e.id} run ${e.run}`);
      const code = e.id.startsWith('GD-C-');
      assert.deepEqual(
        [e.few_shot_injected, e.few_shot_selection],
        code ? [5, 'embedding'] : [0, null],
        `${e.id} run ${e.run}`,
      );
    }
    // The pool's vectors were embedded once (from the cassette) and cached under the cache directory, keyed by corpus and model.
    const cached = readdirSync(path.join(CACHE_DIR, 'few-shot'));
    assert.equal(cached.length, 1);
    assert.match(cached[0] ?? '', /^pool-[0-9a-f]{16}-scripted-embed_1-[0-9a-f]{8}\.json$/);
  });

  it('scores syntactic validity per run and as mean ± std over runs', () => {
    assert.deepEqual(
      report.runs.map((r) => [r.codeBearing, r.validCode, r.pipeline_errors]),
      [
        [3, 2, 0],
        [3, 2, 0],
      ],
    );
    close(report.syntactic_validity.mean, 2 / 3);
    assert.equal(report.syntactic_validity.std, 0);
    assert.equal(report.syntactic_validity.n, 2);
  });

  it('scores functional correctness in the runtime: the right program passes, the valid retry fails at the boundary, the random token has no cases', () => {
    assert.deepEqual(
      report.runs.map((r) => [r.functionalPassed, r.functionalChecked, r.functional_correctness]),
      [
        [1, 2, 0.5],
        [1, 2, 0.5],
      ],
    );
    assert.deepEqual(report.functional_correctness, { mean: 0.5, std: 0, n: 2 });
    for (const e of report.entries) {
      if (e.id === 'GD-C-001') assert.equal(e.functional?.passed, true, JSON.stringify(e.functional));
      else if (e.id === 'GD-C-003') {
        assert.equal(e.valid, true);
        assert.equal(e.functional?.passed, false);
        assert.deepEqual(
          e.functional?.cases.map((c) => [c.name, c.passed]),
          [
            ['over 18', true],
            ['exactly 18', false],
            ['under 18', true],
          ],
        );
        assert.deepEqual(e.functional?.cases[1]?.failures, ['result.label: expected "adult", got "minor"']);
      } else assert.equal(e.functional, null, `${e.id} has no cases`);
    }
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    assert.match(
      md,
      /\| functional_correctness \(every case passes in the runtime; invalid or missing code fails\) \| 50\.0 % ± 0\.0 \|/,
    );
    assert.match(md, /\| GD-C-003 \| 0\/2 \| exactly 18: result\.label: expected "adult", got "minor" \|/);
    assert.match(readFileSync(path.join(out, 'report.html'), 'utf8'), /<h2>Functional correctness per run<\/h2>/);
    assert.match(stderr, /^run 1: syntactic_validity 0\.6667 \(2\/3\), functional_correctness 0\.5 \(1\/2\)/m);
  });

  it('sets faithfulness and relevancy to 0 for code that fails the parser and keeps the raw scores', () => {
    const invalid = report.entries.filter((e) => e.id === 'GD-C-007');
    assert.equal(invalid.length, 2);
    for (const e of invalid) {
      assert.equal(e.validationStatus, 'INVALID_UNRESOLVED');
      assert.equal(e.attempts, 2);
      assert.equal(e.valid, false);
      assert.equal(e.faithfulness, 0);
      assert.equal(e.answer_relevancy, 0);
      close(e.faithfulness_raw, 2 / 3);
      assert.ok((e.answer_relevancy_raw ?? 0) > 0);
    }
    // (2/3 + 2/3 + 0) / 3: the prose answer's faithfulness is a judge failure, not a score.
    close(report.faithfulness.mean, 4 / 9);
  });

  it('counts a malformed judge answer as a judge failure instead of a score', () => {
    const prose = report.entries.filter((e) => e.id === 'GD-R-001');
    assert.equal(prose.length, 2);
    for (const e of prose) {
      assert.equal(e.codeBearing, false);
      assert.equal(e.faithfulness, null);
      assert.equal(e.judge_failures.length, 1);
      assert.match(e.judge_failures[0] ?? '', /^faithfulness: judge answer is not JSON/);
    }
    assert.equal(report.judge_failures, 2);
  });

  it('puts RETRIEVAL answers through the quality gate: a vague answer fails, the hinted retry passes', () => {
    // The judge scores the first answer 0.5·0.8 + 0.3·0.3 + 0.2·0.4 = 0.57 (< 0.6, specificity weakest);
    // the retry with the specificity hint scores 0.5·0.9 + 0.3·0.9 + 0.2·0.7 = 0.86.
    assert.deepEqual(counts(report), [
      [1, 1, 1, 0],
      [1, 1, 1, 0],
    ]);
    for (const e of report.entries) {
      if (e.id === 'GD-R-001')
        assert.deepEqual(e.quality, { passed: true, composite: 0.86, retried: true, failure: null });
      else assert.equal(e.quality, null, `${e.id} is code generation: no gate`);
    }
    // The retry is prose too: still no code to validate. The judged metrics score the retried answer: the
    // cassette holds the faithfulness/relevancy requests of the retry only, so scoring the first answer would miss.
    assert.ok(report.entries.filter((e) => e.id === 'GD-R-001').every((e) => !e.codeBearing && e.code === ''));
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    assert.match(md, /## Quality gate \(RETRIEVAL answers\)/);
    assert.match(
      md,
      /LLM judge scripted:1, pass mark 0\.6 .*Judged 2, passed 2, retried 2, judge failures \(counted, not scored\) 0\./,
    );
    assert.match(md, /\| 1 \| 1 \| 1 \| 1 \| 0 \|\n\| 2 \| 1 \| 1 \| 1 \| 0 \|/);
    assert.match(md, /\| GD-R-001 \| 1 \| yes \| 0\.860 \| yes \| — \|/);
    assert.match(readFileSync(path.join(out, 'report.html'), 'utf8'), /<h2>Quality gate \(RETRIEVAL answers\)<\/h2>/);
  });

  it('reports convergence from the telemetry of each run', () => {
    close(report.convergence.first_attempt_invalid_rate.mean, 2 / 3);
    close(report.convergence.convergence_rate.mean, 1 / 2);
    close(report.convergence.mean_attempts_converged.mean, 1.5);
    close(report.convergence.non_convergence_rate.mean, 1 / 3);
    const fixed = report.entries.filter((e) => e.id === 'GD-C-003');
    assert.deepEqual(
      fixed.map((e) => [e.attempts, e.valid, e.validationStatus]),
      [
        [2, true, ''],
        [2, true, ''],
      ],
    );
  });

  it('builds the confusion matrix and the leakage audit from the final code', () => {
    assert.deepEqual(report.confusion.byCategory, {
      unknown_token: 2,
      unexpected_construct: 0,
      foreign_keyword: 0,
      syntax_error: 0,
    });
    assert.deepEqual(report.confusion.byRule, [['unknown-command', 2]]);
    assert.deepEqual(Object.keys(report.confusion.byQuestion), ['GD-C-007']);
    assert.deepEqual(report.confusion.topTokens, [['makeToken', 2]]);
    assert.equal(report.leakage.length, 1);
    assert.equal(report.leakage[0]?.unknown_identifiers, 2);
    assert.equal(report.leakage[0]?.foreign_keywords, 0);
  });

  it('leaves the cassette untouched in replay mode', () => {
    assert.equal(sha(CASSETTE), cassetteBefore);
  });
});

describe('eval: the quality gate settings (replaying the committed cassette)', function () {
  this.timeout(60_000);
  let out: string;
  beforeEach(() => {
    out = mkdtempSync(path.join(os.tmpdir(), 'avap-eval-'));
  });
  afterEach(() => rmSync(out, { recursive: true, force: true }));
  const replay = (extra: string[], env: Record<string, string | undefined> = {}) =>
    runCliProcess(
      [
        ...BASE,
        '--runs',
        '1',
        '--only',
        'GD-R-001',
        '--cassette',
        CASSETTE,
        '--cassette-mode',
        'replay',
        '--out',
        out,
        ...extra,
      ],
      { env: { ...ENV, ...env }, killAfterMs: 50_000 },
    );
  const read = () => JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as Report;

  it('takes the pass mark from $AVAP_JUDGE_THRESHOLD: at 0.9 neither attempt passes', async () => {
    const run = await replay([], { AVAP_JUDGE_THRESHOLD: '0.9' });
    assert.equal(run.code, 0, run.stderr);
    const r = read();
    assert.deepEqual(r.config.judge, { enabled: true, model: 'scripted:1', threshold: 0.9 });
    assert.deepEqual(counts(r), [[1, 0, 1, 0]]);
    assert.deepEqual(r.entries[0]?.quality, { passed: false, composite: 0.86, retried: true, failure: null });
  });

  it('--judge-threshold wins over the environment', async () => {
    const run = await replay(['--judge-threshold', '0.9'], { AVAP_JUDGE_THRESHOLD: '0.5' });
    assert.equal(run.code, 0, run.stderr);
    const r = read();
    assert.equal(r.config.judge.threshold, 0.9);
    assert.deepEqual(counts(r), [[1, 0, 1, 0]]);
  });

  it('--no-judge turns off both the judged metrics and the quality gate', async () => {
    const run = await replay(['--no-judge']);
    assert.equal(run.code, 0, run.stderr);
    const r = read();
    assert.equal(r.config.judge.enabled, false);
    assert.deepEqual(counts(r), [[0, 0, 0, 0]]);
    assert.equal(r.entries[0]?.quality, null);
    assert.equal(r.entries[0]?.faithfulness_raw, null);
    assert.equal(r.judge_failures, 0);
    assert.match(
      readFileSync(path.join(out, 'report.md'), 'utf8'),
      /## Quality gate \(RETRIEVAL answers\)\n\nOff \(--no-judge\)/,
    );
  });

  it('--quiet silences the progress; stdout is unchanged', async () => {
    const run = await replay(['--quiet']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
    assert.match(run.stdout, /^syntactic_validity .* over 1 run\(s\)\n.*report\.json\n.*report\.md\n.*report\.html\n$/);
  });

  it('refuses an unreadable pass mark', async () => {
    const run = await replay(['--judge-threshold', '1.5']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--judge-threshold must be a number between 0 and 1, got '1\.5'/);
  });
});

describe('eval refusals (exit 2, nothing scored)', function () {
  this.timeout(60_000);
  let out: string;
  beforeEach(() => {
    out = mkdtempSync(path.join(os.tmpdir(), 'avap-eval-'));
  });
  afterEach(() => rmSync(out, { recursive: true, force: true }));

  it('aborts when the parser is unreachable instead of scoring unvalidated code', async () => {
    const run = await runCliProcess(
      [
        ...BASE,
        '--only',
        'GD-C-001',
        '--parser-url',
        '127.0.0.1:1',
        '--parser-timeout',
        '2',
        '--cassette',
        CASSETTE,
        '--cassette-mode',
        'replay',
        '--out',
        out,
      ],
      { env: ENV },
    );
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /aborted — the AVAP parser is unreachable/);
    assert.ok(!existsSync(path.join(out, 'report.json')));
  });

  it('refuses a moving model tag', async () => {
    const run = await runCliProcess([...BASE.slice(0, 3), '--model', 'qwen3:latest', '--out', out], { env: ENV });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /moving tag 'latest'/);
  });

  it('pins every model it calls by the same rule: the judge and the embedding model too', async () => {
    const judge = await runCliProcess([...BASE, '--judge-model', 'judge:latest', '--out', out], { env: ENV });
    assert.equal(judge.code, 2);
    assert.match(
      judge.stderr,
      /the judge model 'judge:latest' uses the moving tag 'latest'; evaluation needs every model it calls pinned to a version, such as 'judge:1\.7b'/,
    );
    const embedding = await runCliProcess([...BASE, '--embedding-model', 'embedder', '--out', out], { env: ENV });
    assert.equal(embedding.code, 2);
    assert.match(
      embedding.stderr,
      /the embedding model 'embedder' has no tag; evaluation needs every model it calls pinned to a version/,
    );
    const conversational = await runCliProcess([...BASE, '--out', out], {
      env: { ...ENV, OLLAMA_MODEL_NAME_CONVERSATIONAL: 'chat:latest' },
    });
    assert.equal(conversational.code, 2);
    assert.match(conversational.stderr, /the conversational model 'chat:latest' uses the moving tag 'latest'/);
    // The judge model is not called with --no-judge, so it is not checked then.
    const off = await runCliProcess(
      [
        ...BASE,
        '--runs',
        '1',
        '--only',
        'GD-R-001',
        '--no-judge',
        '--judge-model',
        'judge:latest',
        '--cassette',
        CASSETTE,
        '--cassette-mode',
        'replay',
        '--out',
        out,
        '--quiet',
      ],
      { env: ENV, killAfterMs: 50_000 },
    );
    assert.equal(off.code, 0, off.stderr);
    assert.equal(
      (JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as Report).config.judge.enabled,
      false,
    );
  });

  it('aborts when the cassette has no answer for a request', async () => {
    const run = await runCliProcess(
      [...BASE, '--only', 'GD-C-002', '--runs', '1', '--cassette', CASSETTE, '--cassette-mode', 'replay', '--out', out],
      { env: ENV, killAfterMs: 50_000 },
    );
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /the cassette had no answer for \d+ request\(s\)/);
    assert.ok(!existsSync(path.join(out, 'report.json')));
  });
});

describe('eval against a live scripted model server: embedding failures (exit 2 or flagged, never silent)', function () {
  this.timeout(60_000);
  let out: string;
  let ollama: ScriptedOllama;
  beforeEach(() => {
    out = mkdtempSync(path.join(os.tmpdir(), 'avap-eval-'));
  });
  afterEach(async () => {
    rmSync(out, { recursive: true, force: true });
    await ollama.close();
  });
  const live = (extra: string[]) =>
    runCliProcess(
      [
        'eval',
        '--runs',
        '1',
        '--model',
        'scripted:1',
        '--embedding-model',
        'scripted-embed:1',
        '--ollama-url',
        ollama.url,
        '--out',
        out,
        ...extra,
      ],
      { env: { ...ENV, AVAP_CACHE_DIR: out }, killAfterMs: 50_000 },
    );

  it('knn_only with a missing embedding model aborts before generating anything, with the reason', async () => {
    ollama = await startScriptedOllama({ models: ['scripted:1'] });
    ollama.on({ endpoint: 'chat' }, reply);
    const run = await live(['--retrieval', 'knn_only', '--only', 'GD-C-001']);
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /avap eval: aborted — the retrieval mode knn_only cannot be honoured: retrieval ran as bm25_only, not knn_only — knn_only needs embeddings: the embedding model failed \(model-missing: [^)]*scripted-embed:1[^)]*\); evaluation never falls back/,
    );
    assert.equal(ollama.calls('chat').length, 0, 'nothing was generated');
    assert.ok(!existsSync(path.join(out, 'report.json')));
  });

  it('hybrid with an embedding model that fails aborts too: the report would claim hybrid', async () => {
    ollama = await startScriptedOllama();
    ollama.on({ endpoint: 'chat' }, reply);
    ollama.on({ endpoint: 'embed' }, { status: 500, error: 'embedding backend crashed' });
    const run = await live(['--only', 'GD-C-001']);
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /aborted — the retrieval mode hybrid cannot be honoured: retrieval ran as bm25_only, not hybrid — hybrid needs embeddings: the embedding model failed \(llm-failed: .*embedding backend crashed\)/,
    );
    assert.equal(ollama.calls('chat').length, 0);
  });

  it('a few-shot pool the embedding model cannot embed falls back to lexical selection, flagged in the report', async () => {
    ollama = await startScriptedOllama();
    ollama.on({ endpoint: 'chat' }, reply);
    // Retrieval embeds fine; only the example pool (description + commands) fails.
    ollama.on(
      { endpoint: 'embed', when: (r) => JSON.stringify(r.body.input ?? '').includes('\\nCommands: ') },
      { status: 500, error: 'pool too large' },
    );
    const run = await live(['--only', 'GD-C-001', '--no-judge', '--quiet']);
    assert.equal(run.code, 0, run.stderr);
    const r = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as Report;
    assert.deepEqual(r.config.fewShot, { status: 'enabled', k: 5, selection: 'lexical' });
    const [entry] = r.entries;
    assert.deepEqual(
      [entry?.retrieval_mode, entry?.few_shot_selection, entry?.few_shot_injected],
      ['hybrid', 'lexical', 5],
    );
    assert.deepEqual(r.warnings, [
      FEW_RUNS,
      'few-shot examples were chosen lexically (BM25 fallback), not by embedding similarity, for 1 of 1 code answer(s) (few_shot_selection: lexical)',
    ]);
    assert.match(
      readFileSync(path.join(out, 'report.md'), 'utf8'),
      /few-shot enabled \(K=5, selected by lexical fallback\)/,
    );
  });
});
