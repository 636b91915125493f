import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PipelineRequest, PipelineResult } from '../../../src/core';
import type { AttemptEvent } from '../../../src/core/telemetry/events';
import type { GoldenEntry } from '../../../src/knowledge/types';
import { renderHtml, renderMarkdown, writeReports } from '../../../src/eval/report';
import type { EvalEntry } from '../../../src/eval/analysis';
import {
  runEvaluation,
  verdictOf,
  type EvalOptions,
  type EvalProgressEvent,
  type EvalTarget,
} from '../../../src/eval/runner';
import { fakeParser, libraryOutcome } from '../../support/fakes/parser';
import { scriptedLlm } from './fakes';

const golden: GoldenEntry[] = [
  {
    id: 'GD-C-001',
    category: 'hashing',
    queryType: 'CODE_GENERATION',
    question: 'hash the password',
    expectedCommands: ['encodeSHA256'],
    referenceAnswer: 'use encodeSHA256',
  },
  {
    id: 'GD-R-001',
    category: 'loops',
    queryType: 'RETRIEVAL',
    question: 'how do loops end',
    expectedCommands: [],
    referenceAnswer: 'endLoop()',
  },
];

/** Answers per question id, per run (index = run − 1). */
const ANSWERS: Record<string, string[]> = {
  'GD-C-001': ['addParam("p", p)\nencodeSHA256(p, h)\naddResult(h)\n', 'getSHA256(p, h)\n'],
  'GD-R-001': ['', ''],
};

function target(parserState = { down: false }, downAfterCalls = Infinity): EvalTarget & { runs: PipelineRequest[] } {
  let answered = 0;
  // Down on demand (parserState), and gone for good after `downAfterCalls` answers.
  const parser = fakeParser((source, filename) => {
    if (answered >= downAfterCalls) return { kind: 'unavailable', reason: 'transport', detail: 'gone' };
    answered += 1;
    return parserState.down
      ? { kind: 'unavailable', reason: 'transport', detail: 'connection refused' }
      : libraryOutcome(source, filename);
  });
  const events: AttemptEvent[] = [];
  const counters: Record<string, number> = {};
  const judge = scriptedLlm((call) => {
    const text =
      call.format && JSON.stringify(call.format).includes('statements')
        ? JSON.stringify({
            statements: [
              { statement: 's1', supported: true },
              { statement: 's2', supported: false },
            ],
          })
        : JSON.stringify({ questions: ['how do loops end'], noncommittal: false });
    return { ok: true, value: { text } };
  });
  const runs: PipelineRequest[] = [];
  return {
    runs,
    parser,
    llm: judge,
    sourceText: (id) => `doc ${id}`,
    events: () => events,
    convergence: (evs) => ({
      first_attempt_invalid_rate: evs.length,
      convergence_rate: 0.5,
      mean_attempts_converged: 2,
      non_convergence_rate: 0,
    }),
    run(request): Promise<PipelineResult> {
      runs.push(request);
      const entry = golden.find((g) => g.question === request.query);
      const id = entry?.id ?? '';
      const n = (counters[id] = (counters[id] ?? 0) + 1);
      const code = ANSWERS[id]?.[n - 1] ?? '';
      events.push({ generation_id: `${id}-${n}` } as AttemptEvent);
      return Promise.resolve({
        queryType: entry?.queryType ?? 'RETRIEVAL',
        text: code ? `Here:\n\`\`\`avap\n${code}\`\`\`` : 'Close a loop with endLoop().',
        code,
        validationStatus: code.startsWith('get') ? 'INVALID_UNRESOLVED' : '',
        attempts: [],
        sources: [{ id: 'chunk-1', title: 'Loops', score: 1 }],
        relevanceRetry: false,
        generationId: `${id}-${n}`,
      });
    },
  };
}

/** Rewrites the pipeline's n-th result (1-based, over all calls) with `patch`. */
function patchRuns(
  t: ReturnType<typeof target>,
  patch: (result: PipelineResult, n: number) => PipelineResult,
): ReturnType<typeof target> {
  const inner = t.run.bind(t);
  let n = 0;
  t.run = async (request, signal) => patch(await inner(request, signal), ++n);
  return t;
}

/** The pipeline fails on the loops question (an LLM timeout). */
function unansweredLoops(t: ReturnType<typeof target>): ReturnType<typeof target> {
  const inner = t.run.bind(t);
  t.run = async (request, signal) => {
    const result = await inner(request, signal);
    return request.query === 'how do loops end'
      ? { ...result, text: '', code: '', error: { code: 'llm-timeout', message: 'sent nothing for 120 s' } }
      : result;
  };
  return t;
}

const options: EvalOptions = {
  config: {
    seed: 42,
    model: 'qwen3:1.7b',
    judgeModel: 'qwen3:1.7b',
    embeddingModel: 'emb:1',
    temperature: 0,
    index: { name: 'embedded', version: 'kb-1', pipeline: 'bm25' },
    retrievalMode: 'hybrid',
    fewShot: { status: 'enabled', k: 5 },
    runs: 2,
    goldenVersion: 'g1',
    llm: 'scripted',
    judge: { enabled: true, model: 'qwen3:1.7b', threshold: 0.6 },
  },
  golden,
  judge: { enabled: true, judgeModel: 'qwen3:1.7b', embeddingModel: 'emb:1' },
  now: () => new Date('2026-11-23T10:00:00Z'),
};

describe('eval: the run', () => {
  it('runs every question N times and reports validity, judged metrics with the override, and convergence', async () => {
    const t = target();
    const out = await runEvaluation(t, options);
    assert.ok(out.ok, !out.ok ? out.error.message : '');
    const r = out.value;
    assert.equal(t.runs.length, 4);
    assert.deepEqual(
      r.runs.map((x) => x.syntactic_validity),
      [1, 0],
    );
    assert.deepEqual(r.syntactic_validity, { mean: 0.5, std: 0.7071, n: 2 });
    assert.equal(r.config.parserVersion.startsWith('avap-parser/'), true);
    const failing = r.entries.find((e) => e.id === 'GD-C-001' && e.run === 2);
    assert.equal(failing?.valid, false);
    assert.equal(failing?.faithfulness, 0);
    assert.equal(failing?.faithfulness_raw, 0.5);
    assert.equal(failing?.trace[0]?.token, 'getSHA256');
    assert.deepEqual(
      r.runs.map((x) => x.convergence.first_attempt_invalid_rate),
      [2, 2],
      'convergence is computed on each run’s own events',
    );
    assert.equal(r.confusion.byQuestion['GD-C-001']?.unknown_token, 1);
    assert.equal(r.judge_failures, 0);
  });

  it('marks the few-shot status degraded when any run generated without its examples', async () => {
    const t = patchRuns(target(), (result, n) =>
      n === 3 ? { ...result, fewShot: { status: 'degraded', k: 5, injected: 0, detail: 'pool gone' } } : result,
    );
    const out = await runEvaluation(t, options);
    assert.ok(out.ok);
    assert.deepEqual(out.value.config.fewShot, { status: 'degraded', k: 5 });
    assert.deepEqual(
      out.value.entries.map((e) => e.few_shot_injection),
      [undefined, undefined, 'degraded', undefined],
    );
    assert.match(renderMarkdown(out.value), /few-shot degraded \(K=5\)/);
  });

  it('reports questions the pipeline could not answer instead of scoring them', async () => {
    const t = unansweredLoops(target());
    const out = await runEvaluation(t, options);
    assert.ok(out.ok);
    assert.deepEqual(
      out.value.runs.map((r) => r.pipeline_errors),
      [1, 1],
    );
    const md = renderMarkdown(out.value);
    assert.match(md, /Questions the pipeline could not answer \(listed below, not scored\): 2\./);
    assert.match(md, /- GD-R-001 \(run 1\): llm-timeout: sent nothing for 120 s/);
  });

  it('tells a progress display where it is and what each question got', async () => {
    const t = unansweredLoops(target());
    const events: EvalProgressEvent[] = [];
    const out = await runEvaluation(t, { ...options, onProgress: (e) => events.push(e) });
    assert.ok(out.ok);
    const brief = events.map(
      (e) =>
        `${e.kind} ${e.run}/${e.runs} ${e.question}/${e.questions} ${e.id}${e.kind === 'question-done' ? ` ${JSON.stringify(e.verdict)}` : ''}`,
    );
    assert.deepEqual(brief, [
      'question-start 1/2 1/2 GD-C-001',
      'question-done 1/2 1/2 GD-C-001 {"outcome":"valid"}',
      'question-start 1/2 2/2 GD-R-001',
      'question-done 1/2 2/2 GD-R-001 {"outcome":"failed","code":"llm-timeout"}',
      'question-start 2/2 1/2 GD-C-001',
      'question-done 2/2 1/2 GD-C-001 {"outcome":"invalid"}',
      'question-start 2/2 2/2 GD-R-001',
      'question-done 2/2 2/2 GD-R-001 {"outcome":"failed","code":"llm-timeout"}',
    ]);
  });

  it('gives no verdict to the question an abort interrupted', async () => {
    const events: EvalProgressEvent[] = [];
    const out = await runEvaluation(target({ down: false }, 2), { ...options, onProgress: (e) => events.push(e) });
    assert.equal(out.ok, false);
    assert.deepEqual(
      events.map((e) => `${e.kind} ${e.run} ${e.id}`),
      [
        'question-start 1 GD-C-001',
        'question-done 1 GD-C-001',
        'question-start 1 GD-R-001',
        'question-done 1 GD-R-001',
        'question-start 2 GD-C-001',
      ],
    );
    assert.deepEqual(verdictOf({ codeBearing: false, valid: undefined } as EvalEntry), { outcome: 'no-code' });
  });

  it('aborts before generating anything when the parser is unreachable', async () => {
    const t = target({ down: true });
    const out = await runEvaluation(t, options);
    assert.equal(out.ok, false);
    assert.match(!out.ok ? out.error.message : '', /parser is unreachable.*never falls back/);
    assert.equal(!out.ok && out.error.kind, 'parser-unavailable');
    assert.equal(t.runs.length, 0);
  });

  it('aborts, with a partial report, when the parser goes away during the run', async () => {
    const out = await runEvaluation(target({ down: false }, 2), options);
    assert.equal(out.ok, false);
    assert.match(!out.ok ? out.error.message : '', /parser became unavailable/);
    assert.equal(!out.ok && out.error.kind, 'parser-unavailable');
  });

  it('aborts before generating anything when the retrieval mode cannot be honoured, with the reason', async () => {
    const t = target();
    t.retrievalProbe = () =>
      Promise.resolve({
        mode: 'bm25_only',
        fallback: 'knn_only needs embeddings: the embedding model failed (model-missing: not pulled)',
      });
    const out = await runEvaluation(t, { ...options, config: { ...options.config, retrievalMode: 'knn_only' } });
    assert.equal(out.ok, false);
    assert.equal(
      !out.ok && out.error.message,
      'the retrieval mode knn_only cannot be honoured: retrieval ran as bm25_only, not knn_only — knn_only needs embeddings: the embedding model failed (model-missing: not pulled); evaluation never falls back',
    );
    assert.equal(!out.ok && out.error.kind, 'retrieval-mode');
    assert.equal(t.runs.length, 0);
    t.retrievalProbe = () => Promise.resolve({ mode: 'knn_only' });
    assert.ok(
      (await runEvaluation(t, { ...options, config: { ...options.config, retrievalMode: 'knn_only' } })).ok,
      'a probe in the configured mode lets the run start',
    );
  });

  it('aborts, with a partial report, when an answer was retrieved in another mode than the configured one', async () => {
    const t = patchRuns(target(), (result, n) =>
      n === 2
        ? {
            ...result,
            retrievalMode: 'bm25_only',
            retrievalFallback: 'hybrid needs embeddings: the embedding model failed (llm-unreachable: refused)',
          }
        : { ...result, retrievalMode: 'hybrid' },
    );
    const out = await runEvaluation(t, options);
    assert.equal(out.ok, false);
    assert.equal(
      !out.ok && out.error.message,
      'GD-R-001 (run 1): retrieval ran as bm25_only, not hybrid — hybrid needs embeddings: the embedding model failed (llm-unreachable: refused); evaluation never mixes retrieval modes',
    );
    assert.equal(!out.ok && out.error.kind, 'retrieval-mode');
    assert.deepEqual(!out.ok && out.error.partial?.entries.map((e) => [e.id, e.retrieval_mode]), [
      ['GD-C-001', 'hybrid'],
    ]);
  });

  it('records per entry the retrieval mode used and the few-shot examples injected, and how they were chosen', async () => {
    const t = patchRuns(target(), (result, n) =>
      result.queryType !== 'CODE_GENERATION'
        ? { ...result, retrievalMode: 'hybrid' }
        : {
            ...result,
            retrievalMode: 'hybrid',
            fewShot: {
              status: 'enabled',
              k: 5,
              injected: 5 - n,
              selection: n === 1 ? 'embedding' : 'lexical',
              ...(n === 1 ? {} : { selectionDetail: 'model gone' }),
            },
          },
    );
    const out = await runEvaluation(t, options);
    assert.ok(out.ok);
    assert.deepEqual(
      out.value.entries.map((e) => [e.id, e.run, e.retrieval_mode, e.few_shot_injected, e.few_shot_selection]),
      [
        ['GD-C-001', 1, 'hybrid', 4, 'embedding'],
        ['GD-R-001', 1, 'hybrid', 0, undefined],
        ['GD-C-001', 2, 'hybrid', 2, 'lexical'],
        ['GD-R-001', 2, 'hybrid', 0, undefined],
      ],
    );
    assert.deepEqual(
      out.value.config.fewShot,
      { status: 'enabled', k: 5, selection: 'lexical' },
      'one fallback flags the run',
    );
    assert.ok(
      out.value.warnings.includes(
        'few-shot examples were chosen lexically (BM25 fallback), not by embedding similarity, for 1 of 2 code answer(s) (few_shot_selection: lexical)',
      ),
    );
    assert.match(renderMarkdown(out.value), /few-shot enabled \(K=5, selected by lexical fallback\)/);
  });

  it('warns in report.json, report.md and report.html when there are fewer than 5 runs', async () => {
    const few = await runEvaluation(target(), options);
    assert.ok(few.ok);
    assert.deepEqual(few.value.warnings, ['runs < 5: mean and standard deviation are not comparable (ADR-0007)']);
    assert.match(
      renderMarkdown(few.value),
      /## Warnings\n\n- \*\*runs < 5: mean and standard deviation are not comparable \(ADR-0007\)\*\*\n/,
    );
    assert.match(
      renderHtml(few.value),
      /<section class="warnings"><h2>Warnings<\/h2><ul><li>runs &lt; 5: mean and standard deviation are not comparable \(ADR-0007\)<\/li><\/ul><\/section>/,
    );

    const golden5 = Array.from({ length: 5 }, () => 'addVar(a, 1)\naddResult(a)\n');
    ANSWERS['GD-C-001'] = golden5;
    ANSWERS['GD-R-001'] = golden5.map(() => '');
    try {
      const five = await runEvaluation(target(), { ...options, config: { ...options.config, runs: 5 } });
      assert.ok(five.ok);
      assert.deepEqual(five.value.warnings, []);
      assert.doesNotMatch(renderMarkdown(five.value), /Warnings/);
      assert.doesNotMatch(renderHtml(five.value), /class="warnings"/);
    } finally {
      ANSWERS['GD-C-001'] = ['addParam("p", p)\nencodeSHA256(p, h)\naddResult(h)\n', 'getSHA256(p, h)\n'];
      ANSWERS['GD-R-001'] = ['', ''];
    }
  });

  it('writes report.json, report.md and a script-free report.html', async () => {
    const out = await runEvaluation(target(), options);
    assert.ok(out.ok);
    const dir = mkdtempSync(path.join(tmpdir(), 'avap-report-'));
    const files = writeReports(dir, out.value);
    const json = JSON.parse(readFileSync(files.json, 'utf8')) as Record<string, unknown>;
    for (const key of ['config', 'warnings', 'runs', 'syntactic_validity', 'entries']) assert.ok(key in json, key);
    for (const entry of json.entries as Record<string, unknown>[]) {
      for (const key of [
        'id',
        'category',
        'valid',
        'trace',
        'faithfulness',
        'faithfulness_raw',
        'answer_relevancy',
        'answer_relevancy_raw',
        'quality',
        'retrieval_mode',
        'few_shot_injected',
      ])
        assert.ok(key in entry, key);
    }
    assert.equal((json.entries as Record<string, unknown>[]).find((e) => e.id === 'GD-R-001')?.valid, null);
    assert.match(renderMarkdown(out.value), /\| syntactic_validity \| 50\.0 % ± 70\.7 \|/);
    const html = renderHtml(out.value);
    assert.ok(!/<script/i.test(html));
    assert.match(html, /aria-label="syntactic validity per run"/);
    assert.match(html, /aria-label="parse failures by question and category"/);
  });
});
