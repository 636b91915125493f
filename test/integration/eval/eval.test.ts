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
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readEvalReport } from '../../../src/eval/reportRead';
import { runCliProcess } from '../../support/dist';
import { CASSETTE, EVAL_QUESTIONS } from '../../fixtures/eval/record';

interface Stat { mean: number | null; std: number | null; n: number }
interface Entry {
  id: string; run: number; attempts: number; validationStatus: string; codeBearing: boolean; valid: boolean | null;
  faithfulness: number | null; faithfulness_raw: number | null; answer_relevancy: number | null; answer_relevancy_raw: number | null;
  judge_failures: string[]; trace: { category: string; token: string; severity: string }[]; error: string | null;
}
interface Report {
  config: { seed: number; model: string; temperature: number; runs: number; goldenEntries: number; parserVersion: string; retrievalMode: string; fewShot: { status: string; k: number }; index: { name: string } };
  runs: { run: number; codeBearing: number; validCode: number; syntactic_validity: number; judge_failures: number; pipeline_errors: number }[];
  syntactic_validity: Stat; faithfulness: Stat; answer_relevancy: Stat;
  convergence: Record<'first_attempt_invalid_rate' | 'convergence_rate' | 'mean_attempts_converged' | 'non_convergence_rate', Stat>;
  judge_failures: number;
  confusion: { byCategory: Record<string, number>; byQuestion: Record<string, Record<string, number>>; topTokens: [string, number][] };
  leakage: { model: string; avap_commands: number; foreign_keywords: number; unknown_identifiers: number }[];
  entries: Entry[];
}

const BASE = ['eval', '--runs', '2', '--model', 'scripted:1', '--embedding-model', 'scripted-embed:1', '--ollama-url', 'http://127.0.0.1:9'];
const ENV = { EVAL_SEED: '7', AVAP_PARSER_URL: undefined, OLLAMA_HOST: undefined };
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const close = (actual: number | null, expected: number) => assert.ok(actual !== null && Math.abs(actual - expected) < 1e-3, `${actual} ≠ ${expected}`);

describe('eval (replaying the committed cassette)', function () {
  this.timeout(60_000);
  let out: string;
  let report: Report;
  let stdout: string;
  let cassetteBefore: string;

  before(async () => {
    out = mkdtempSync(path.join(os.tmpdir(), 'avap-eval-'));
    cassetteBefore = sha(CASSETTE);
    const run = await runCliProcess([...BASE, '--only', EVAL_QUESTIONS.join(','), '--cassette', CASSETTE, '--cassette-mode', 'replay', '--out', out], { env: ENV, killAfterMs: 50_000 });
    assert.equal(run.code, 0, run.stderr);
    stdout = run.stdout;
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
    assert.ok(back.ok, back.ok ? '' : back.error);
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
    assert.deepEqual(c.fewShot, { status: 'enabled', k: 5 });
    assert.equal(c.index.name, 'embedded');
  });

  it('scores syntactic validity per run and as mean ± std over runs', () => {
    assert.deepEqual(report.runs.map((r) => [r.codeBearing, r.validCode, r.pipeline_errors]), [[3, 2, 0], [3, 2, 0]]);
    close(report.syntactic_validity.mean, 2 / 3);
    assert.equal(report.syntactic_validity.std, 0);
    assert.equal(report.syntactic_validity.n, 2);
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

  it('reports convergence from the telemetry of each run', () => {
    close(report.convergence.first_attempt_invalid_rate.mean, 2 / 3);
    close(report.convergence.convergence_rate.mean, 1 / 2);
    close(report.convergence.mean_attempts_converged.mean, 1.5);
    close(report.convergence.non_convergence_rate.mean, 1 / 3);
    const fixed = report.entries.filter((e) => e.id === 'GD-C-003');
    assert.deepEqual(fixed.map((e) => [e.attempts, e.valid, e.validationStatus]), [[2, true, ''], [2, true, '']]);
  });

  it('builds the confusion matrix and the leakage audit from the final code', () => {
    assert.deepEqual(report.confusion.byCategory, { unknown_token: 2, unexpected_construct: 0, foreign_keyword: 0, syntax_error: 0 });
    assert.deepEqual(Object.keys(report.confusion.byQuestion), ['GD-C-007']);
    assert.deepEqual(report.confusion.topTokens, [['generateToken', 2]]);
    assert.equal(report.leakage.length, 1);
    assert.equal(report.leakage[0]?.unknown_identifiers, 2);
    assert.equal(report.leakage[0]?.foreign_keywords, 0);
  });

  it('leaves the cassette untouched in replay mode', () => {
    assert.equal(sha(CASSETTE), cassetteBefore);
  });
});

describe('eval refusals (exit 2, nothing scored)', function () {
  this.timeout(60_000);
  let out: string;
  beforeEach(() => { out = mkdtempSync(path.join(os.tmpdir(), 'avap-eval-')); });
  afterEach(() => rmSync(out, { recursive: true, force: true }));

  it('aborts when the parser is unreachable instead of scoring unvalidated code', async () => {
    const run = await runCliProcess([...BASE, '--only', 'GD-C-001', '--parser-url', '127.0.0.1:1', '--parser-timeout', '2000', '--cassette', CASSETTE, '--cassette-mode', 'replay', '--out', out], { env: ENV });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /aborted — the AVAP parser is unreachable/);
    assert.ok(!existsSync(path.join(out, 'report.json')));
  });

  it('refuses a moving model tag', async () => {
    const run = await runCliProcess([...BASE.slice(0, 3), '--model', 'qwen3:latest', '--out', out], { env: ENV });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /moving tag 'latest'/);
  });

  it('aborts when the cassette has no answer for a request', async () => {
    const run = await runCliProcess([...BASE, '--only', 'GD-C-002', '--runs', '1', '--cassette', CASSETTE, '--cassette-mode', 'replay', '--out', out], { env: ENV, killAfterMs: 50_000 });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /the cassette had no answer for \d+ request\(s\)/);
    assert.ok(!existsSync(path.join(out, 'report.json')));
  });
});
