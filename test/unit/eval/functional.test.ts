/**
 * Functional correctness: code answers to golden questions
 * with cases are run against them in the runtime — here the interpreter on
 * the test's thread with the sandbox's own ports (recorded HTTP, a fresh
 * seeded PostgreSQL per run, a fixed clock); the evaluation's CLI uses the
 * worker pool, covered by test/integration/eval — and an answer passes when
 * every case passes. Invalid or missing code fails without running. The
 * report carries the share per run and μ ± σ over runs, in JSON, Markdown and
 * HTML, and the editor's report view shows it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PipelineResult } from '../../../src/core';
import type { AttemptEvent } from '../../../src/core/telemetry/events';
import { evalReportBody } from '../../../src/editor/metrics/evalReportHtml';
import { checkFunctional, type RuntimePort } from '../../../src/eval/functional';
import { readEvalReport } from '../../../src/eval/reportRead';
import { renderHtml, renderMarkdown, writeReports } from '../../../src/eval/report';
import { runEvaluation, type EvalOptions, type EvalTarget } from '../../../src/eval/runner';
import type { GoldenEntry } from '../../../src/knowledge/types';
import type { RunJob } from '../../../src/runtime/host';
import { fakeParser, libraryOutcome } from '../../support/fakes/parser';
import { CaseRunner } from '../knowledge/runCases';
import { scriptedLlm } from './fakes';

const LABEL: GoldenEntry = {
  id: 'GD-C-003',
  category: 'conditionals',
  queryType: 'CODE_GENERATION',
  question: 'Return "adult" when the "age" parameter is 18 or more, otherwise "minor", in the field "label".',
  expectedCommands: ['addParam', 'if', 'addResult'],
  referenceAnswer: 'if(age, 18, >=)',
  cases: [
    { name: '18', request: { query: { age: '18' } }, expect: { status: 200, result: { label: 'adult' } } },
    { name: '15', request: { query: { age: '15' } }, expect: { status: 200, result: { label: 'minor' } } },
  ],
};

const USERS_SQL = "CREATE TABLE users (id INT PRIMARY KEY, name TEXT);\nINSERT INTO users VALUES (1, 'Ana');\n";
const LOOKUP: GoldenEntry = {
  id: 'GD-C-009',
  category: 'database',
  queryType: 'CODE_GENERATION',
  question: 'Return the user with the "id" parameter as "user", or 404.',
  expectedCommands: ['ormDirect'],
  referenceAnswer: 'ormDirect',
  cases: [
    { name: 'found', request: { query: { id: '1' } }, sql: USERS_SQL, expect: { result: { user: { name: 'Ana' } } } },
    { name: 'missing', request: { query: { id: '7' } }, sql: USERS_SQL, expect: { status: 404 } },
  ],
};

const PROSE: GoldenEntry = {
  id: 'GD-R-001',
  category: 'loops',
  queryType: 'RETRIEVAL',
  question: 'how do loops end',
  expectedCommands: [],
  referenceAnswer: 'endLoop()',
};

const RIGHT =
  'addParam(age, years)\nif(years, 18, >=)\n  addVar(label, "adult")\nelse()\n  addVar(label, "minor")\nend()\naddResult(label)\n';
/** Valid, and wrong at the boundary: 18 is a minor here. */
const OFF_BY_ONE = RIGHT.replace('>=', '>');
const LOOKUP_CODE =
  'addParam(id, userId)\normDirect(`SELECT name FROM users WHERE id = ${userId}`, rows)\ngetListLen(rows, n)\n' +
  'if(n, 0, ==)\n  _status = 404\nelse()\n  itemFromList(rows, 0, user)\n  addResult(user)\nend()\n';
/** Writes the row id + 6 first: the "found" case (id 1) writes user 7, which "missing" (id 7) must not see. */
const INSERTS =
  "addParam(id, userId)\nnext = int(userId) + 6\normDirect(`INSERT INTO users VALUES (${next}, 'Zoe')`, done)\n" +
  LOOKUP_CODE.replace('addParam(id, userId)\n', '');

/** The runtime in-process, counting its runs. */
function runtime(runner: CaseRunner): RuntimePort & { jobs: RunJob[] } {
  const jobs: RunJob[] = [];
  return {
    jobs,
    run(job) {
      jobs.push(job);
      return runner.execute(job.source, job.request, job.sandbox ?? {});
    },
  };
}

describe('eval: functional correctness', function () {
  this.timeout(120_000);
  const runner = new CaseRunner();
  after(() => runner.close());

  describe('checkFunctional', () => {
    it('scores nothing for a question without cases', async () => {
      const rt = runtime(runner);
      assert.equal(await checkFunctional(rt, PROSE, { code: RIGHT, valid: true }), undefined);
      assert.equal(rt.jobs.length, 0);
    });

    it('passes code whose every case passes, and names the case and the difference when one does not', async () => {
      const rt = runtime(runner);
      assert.deepEqual(await checkFunctional(rt, LABEL, { code: RIGHT, valid: true }), {
        passed: true,
        cases: [
          { name: '18', passed: true, failures: [] },
          { name: '15', passed: true, failures: [] },
        ],
      });
      const wrong = await checkFunctional(rt, LABEL, { code: OFF_BY_ONE, valid: true });
      assert.deepEqual(wrong, {
        passed: false,
        cases: [
          { name: '18', passed: false, failures: ['result.label: expected "adult", got "minor"'] },
          { name: '15', passed: true, failures: [] },
        ],
      });
      assert.equal(rt.jobs.length, 4);
      assert.deepEqual(rt.jobs[0]?.request.query, { age: '18' });
    });

    it('fails invalid code and an answer without code without running them', async () => {
      const rt = runtime(runner);
      assert.deepEqual(await checkFunctional(rt, LABEL, { code: 'getSHA256(p, h)\n', valid: false }), {
        passed: false,
        skipped: 'invalid-code',
        cases: [],
      });
      assert.deepEqual(await checkFunctional(rt, LABEL, { code: '', valid: undefined }), {
        passed: false,
        skipped: 'no-code',
        cases: [],
      });
      assert.equal(rt.jobs.length, 0);
    });

    it("runs each case on a fresh database seeded with the case's SQL", async () => {
      const rt = runtime(runner);
      const right = await checkFunctional(rt, LOOKUP, { code: LOOKUP_CODE, valid: true });
      assert.equal(right?.passed, true, JSON.stringify(right));
      // The first run inserts id 7; the second must not see it, or "missing" would find Zoe.
      const inserting = await checkFunctional(rt, LOOKUP, { code: INSERTS, valid: true });
      assert.equal(inserting?.cases[1]?.passed, true, JSON.stringify(inserting));
      assert.equal(rt.jobs[0]?.sandbox?.sql, USERS_SQL);
    });

    it('a run that ends on an uncaught error fails its case with the error', async () => {
      const rt = runtime(runner);
      const out = await checkFunctional(rt, LOOKUP, {
        code: 'itemFromList(nothing, 0, user)\naddResult(user)\n',
        valid: true,
      });
      assert.equal(out?.passed, false);
      assert.match(out?.cases[0]?.failures[0] ?? '', /result\.user: missing/);
      assert.match(out?.cases[0]?.failures[1] ?? '', /^the run stopped on line 1 \(itemFromList\): .+ \[\w[\w-]*\]$/);
    });
  });

  describe('in the evaluation and its reports', () => {
    /** Per question, the answer of run 1 and run 2. */
    const ANSWERS: Record<string, [string, string]> = {
      'GD-C-003': [RIGHT, OFF_BY_ONE],
      'GD-C-009': [LOOKUP_CODE, 'addResult(user\n'],
      'GD-R-001': ['', ''],
    };
    const golden = [LABEL, LOOKUP, PROSE];

    function target(withRuntime: boolean): EvalTarget {
      const counters: Record<string, number> = {};
      const events: AttemptEvent[] = [];
      return {
        parser: fakeParser((source, filename) => libraryOutcome(source, filename)),
        llm: scriptedLlm(() => ({ ok: true, value: { text: '{}' } })),
        sourceText: () => undefined,
        events: () => events,
        convergence: () => ({
          first_attempt_invalid_rate: 0,
          convergence_rate: undefined,
          mean_attempts_converged: undefined,
          non_convergence_rate: 0,
        }),
        run(request): Promise<PipelineResult> {
          const entry = golden.find((g) => g.question === request.query);
          const id = entry?.id ?? '';
          const n = (counters[id] = (counters[id] ?? 0) + 1);
          const code = ANSWERS[id]?.[n - 1] ?? '';
          return Promise.resolve({
            queryType: entry?.queryType ?? 'RETRIEVAL',
            text: code ? `\`\`\`avap\n${code}\`\`\`` : 'endLoop() closes it.',
            code,
            validationStatus: '',
            attempts: [],
            sources: [],
            relevanceRetry: false,
            generationId: `${id}-${n}`,
          });
        },
        ...(withRuntime ? { runtime: runtime(runner) } : {}),
      };
    }

    const options: EvalOptions = {
      config: {
        seed: 7,
        model: 'scripted:1',
        judgeModel: 'scripted:1',
        embeddingModel: 'emb:1',
        temperature: 0,
        index: { name: 'embedded', version: 'kb-1', pipeline: 'bm25' },
        retrievalMode: 'hybrid',
        fewShot: { status: 'enabled', k: 5 },
        runs: 2,
        goldenVersion: 'g1',
        llm: 'scripted',
        judge: { enabled: false, model: 'scripted:1', threshold: 0.6 },
      },
      golden,
      judge: { enabled: false, judgeModel: 'scripted:1', embeddingModel: 'emb:1' },
      now: () => new Date('2026-11-23T10:00:00Z'),
    };

    it('scores the share of answers whose cases all pass per run, and μ ± σ over runs; invalid code fails', async () => {
      const out = await runEvaluation(target(true), options);
      assert.ok(out.ok, out.ok ? '' : out.error.message);
      const r = out.value;
      // Run 1: both right. Run 2: the boundary is wrong, and the lookup does not parse.
      assert.deepEqual(
        r.runs.map((x) => [x.functionalPassed, x.functionalChecked, x.functional_correctness]),
        [
          [2, 2, 1],
          [0, 2, 0],
        ],
      );
      assert.deepEqual(r.functional_correctness, { mean: 0.5, std: 0.7071, n: 2 });
      const byRun = (id: string, run: number) => r.entries.find((e) => e.id === id && e.run === run);
      assert.equal(byRun('GD-C-009', 2)?.valid, false);
      assert.deepEqual(byRun('GD-C-009', 2)?.functional, { passed: false, skipped: 'invalid-code', cases: [] });
      assert.equal(byRun('GD-R-001', 1)?.functional, undefined, 'a question without cases is not scored');
      // Syntactic validity is unchanged by the runtime: 2/2, then 1/2.
      assert.deepEqual(r.syntactic_validity, { mean: 0.75, std: 0.3536, n: 2 });
    });

    it('writes the figure and the failing cases into report.json, report.md and report.html, and the editor view reads it', async () => {
      const out = await runEvaluation(target(true), options);
      assert.ok(out.ok);
      const md = renderMarkdown(out.value);
      assert.match(
        md,
        /\| functional_correctness \(every case passes in the runtime; invalid or missing code fails\) \| 50\.0 % ± 70\.7 \|/,
      );
      assert.match(md, /\| 1 \| 2 \| 2 \| 100\.0 % \| 2\/2 \| 100\.0 % \|/);
      assert.match(md, /\| 2 \| 2 \| 1 \| 50\.0 % \| 0\/2 \| 0\.0 % \|/);
      assert.match(md, /## Functional correctness/);
      assert.match(md, /\| GD-C-003 \| 1\/2 \| 18: result\.label: expected "adult", got "minor" \|/);
      assert.match(md, /\| GD-C-009 \| 1\/2 \| the code fails the parser \|/);
      const html = renderHtml(out.value);
      assert.match(
        html,
        /<td>functional_correctness \(every case passes in the runtime; invalid or missing code fails\)<\/td><td>50\.0 % ± 70\.7<\/td>/,
      );
      assert.match(html, /<h2>Functional correctness per run<\/h2>/);
      assert.match(
        html,
        /<td>GD-C-003<\/td><td>1\/2<\/td><td>18: result\.label: expected &quot;adult&quot;, got &quot;minor&quot;<\/td>/,
      );
      const dir = mkdtempSync(path.join(tmpdir(), 'avap-functional-'));
      try {
        const files = writeReports(dir, out.value);
        const json = JSON.parse(readFileSync(files.json, 'utf8')) as {
          functional_correctness: unknown;
          runs: { functional_correctness: number }[];
          entries: { id: string; functional: unknown }[];
        };
        assert.deepEqual(json.functional_correctness, { mean: 0.5, std: 0.7071, n: 2 });
        assert.deepEqual(
          json.runs.map((x) => x.functional_correctness),
          [1, 0],
        );
        assert.equal(json.entries.find((e) => e.id === 'GD-R-001')?.functional, null);
        const read = readEvalReport(readFileSync(files.json, 'utf8'));
        assert.ok(read.ok, read.ok ? '' : read.error.message);
        const body = evalReportBody(read.value, files.json);
        assert.match(body, /functional correctness<\/div>/);
        assert.match(body, /50\.0 % ± 70\.7/);
        assert.match(body, /Functional correctness per run/);
        assert.match(body, /100\.0 % \(2\/2\)/);
        assert.match(body, /0\.0 % \(0\/2\)/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('without a runtime the figure is n/a, never 0', async () => {
      const out = await runEvaluation(target(false), options);
      assert.ok(out.ok);
      assert.deepEqual(out.value.functional_correctness.n, 0);
      assert.ok(out.value.entries.every((e) => e.functional === undefined));
      const md = renderMarkdown(out.value);
      assert.match(
        md,
        /\| functional_correctness \(every case passes in the runtime; invalid or missing code fails\) \| n\/a \|/,
      );
      assert.match(md, /No answer was run against cases/);
    });
  });
});
