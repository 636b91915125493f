/**
 * The quality gate inside the evaluation run: RETRIEVAL answers go through the
 * real `runWithQuality` with a fake validator (scripted verdicts) and a
 * scripted retry LLM; the runner records the gate per entry and counts it per
 * run. A judge failure is counted, never scored.
 */
import assert from 'node:assert/strict';
import type { PipelineRequest, PipelineResult } from '../../../src/core';
import type { LlmResult } from '../../../src/core/llm/port';
import type { GoldenEntry } from '../../../src/knowledge/types';
import {
  verdictRecord,
  type QualityInput,
  type QualityValidator,
  type QualityVerdict,
} from '../../../src/quality/port';
import { qualityCounts, type EvalEntry } from '../../../src/eval/analysis';
import { renderHtml, renderMarkdown } from '../../../src/eval/report';
import { entryQuality, runEvaluation, type EvalOptions, type EvalTarget } from '../../../src/eval/runner';
import { fakeParser } from '../../support/fakes/parser';
import { reviewed, scriptedLlm } from './fakes';

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

const FIRST = 'Loops end somehow.';
const RETRY = 'Close a loop with endLoop(), after the startLoop(i, 1, 10) it belongs to.';

const assessed = (composite: number, threshold = 0.6): QualityVerdict => ({
  ok: true,
  value: {
    validator: 'llm-judge',
    composite,
    threshold,
    passed: composite >= threshold,
    dimensions: [],
    findings: [],
    ...(composite >= threshold ? {} : { hint: 'Cite the exact AVAP command.' }),
  },
});
const malformed: QualityVerdict = {
  ok: false,
  error: { validator: 'llm-judge', code: 'judge-malformed', message: 'not JSON', detail: '{' },
};

/** A validator answering from a script: `verdicts[n]` for its n-th call. */
function fakeValidator(verdicts: QualityVerdict[]): QualityValidator & { inputs: QualityInput[] } {
  const inputs: QualityInput[] = [];
  return {
    name: 'llm-judge',
    inputs,
    assess(input) {
      inputs.push(input);
      const verdict = verdicts[inputs.length - 1];
      if (!verdict)
        return Promise.reject(
          new Error(`the validator was called ${inputs.length} times, scripted for ${verdicts.length}`),
        );
      return Promise.resolve(verdict);
    },
  };
}

function target(
  validator: QualityValidator,
  retry: LlmResult<{ text: string }> = { ok: true, value: { text: RETRY } },
) {
  const ragas = scriptedLlm((call) => ({
    ok: true,
    value: {
      text:
        call.format && JSON.stringify(call.format).includes('statements')
          ? JSON.stringify({ statements: [{ statement: 's1', supported: true }] })
          : JSON.stringify({ questions: ['how do loops end'], noncommittal: false }),
    },
  }));
  const retryLlm = scriptedLlm(() => retry);
  const requests: PipelineRequest[] = [];
  const t: EvalTarget = {
    parser: fakeParser(),
    llm: ragas,
    sourceText: (id) => `doc ${id}`,
    events: () => [],
    convergence: () => ({
      first_attempt_invalid_rate: undefined,
      convergence_rate: undefined,
      mean_attempts_converged: undefined,
      non_convergence_rate: undefined,
    }),
    async run(request, runOptions): Promise<PipelineResult> {
      requests.push(request);
      const entry = golden.find((g) => g.question === request.query);
      const code = entry?.queryType === 'CODE_GENERATION' ? 'addParam("p", p)\nencodeSHA256(p, h)\naddResult(h)\n' : '';
      // The pipeline reviews RETRIEVAL answers with the gate's reviewer before its final message.
      return reviewed(
        {
          queryType: entry?.queryType ?? 'RETRIEVAL',
          text: code ? `\`\`\`avap\n${code}\`\`\`` : FIRST,
          code,
          validationStatus: '',
          attempts: [],
          sources: [{ id: 'chunk-1', title: 'Loops', score: 1 }],
          relevanceRetry: false,
          generationId: 'g',
        },
        request,
        runOptions,
        retryLlm,
      );
    },
    quality: {
      validator,
      passages: (sources) => sources.map((s) => ({ id: s.id, title: s.title, text: `doc ${s.id}` })),
    },
  };
  return { target: t, ragas, retryLlm, requests };
}

function options(judge = true, runs = 2): EvalOptions {
  return {
    config: {
      seed: 42,
      model: 'qwen3:1.7b',
      judgeModel: 'qwen3:1.7b',
      embeddingModel: 'emb:1',
      temperature: 0,
      index: { name: 'embedded', version: 'kb-1', pipeline: 'bm25' },
      retrievalMode: 'hybrid',
      fewShot: { status: 'enabled', k: 5 },
      runs,
      goldenVersion: 'g1',
      llm: 'scripted',
      judge: { enabled: judge, model: 'qwen3:1.7b', threshold: 0.6 },
    },
    golden,
    judge: { enabled: judge, judgeModel: 'qwen3:1.7b', embeddingModel: 'emb:1' },
    now: () => new Date('2026-11-23T10:00:00Z'),
  };
}

const retrieval = (entries: readonly EvalEntry[]) => entries.filter((e) => e.id === 'GD-R-001');

describe('eval: the quality gate on RETRIEVAL answers', () => {
  it('records the gate per entry and counts it per run; a judge failure is counted, not scored', async () => {
    // Run 1: the first answer fails (0.4), the hinted retry passes (0.8). Run 2: the judge answers malformed JSON.
    const validator = fakeValidator([assessed(0.4), assessed(0.8), malformed]);
    const { target: t, ragas, retryLlm } = target(validator);
    const out = await runEvaluation(t, options());
    assert.ok(out.ok, !out.ok ? out.error.message : '');
    const r = out.value;

    assert.deepEqual(
      retrieval(r.entries).map((e) => e.quality),
      [
        { passed: true, composite: 0.8, retried: true, failure: undefined },
        { passed: false, composite: undefined, retried: false, failure: 'judge-malformed: not JSON' },
      ],
    );
    assert.ok(
      r.entries.filter((e) => e.id === 'GD-C-001').every((e) => 'quality' in e && e.quality === undefined),
      'code generation does not go through the gate',
    );
    assert.deepEqual(
      r.runs.map((run) => [run.quality_judged, run.quality_passed, run.quality_retried, run.quality_failures]),
      [
        [1, 1, 1, 0],
        [1, 0, 0, 1],
      ],
    );
    // A judge failure of the gate is not a RAGAS judge failure.
    assert.equal(r.judge_failures, 0);

    // The gate judged the pipeline's answer against the retrieved passages, then the retry.
    assert.deepEqual(
      validator.inputs.map((i) => i.answer),
      [FIRST, RETRY, FIRST],
    );
    assert.deepEqual(validator.inputs[0]?.context, [{ id: 'chunk-1', title: 'Loops', text: 'doc chunk-1' }]);
    assert.equal(retryLlm.chats.length, 1, 'one hinted retry, only for the failing answer');
    assert.match(retryLlm.chats[0]?.messages.at(-1)?.content ?? '', /Cite the exact AVAP command\./);
    // The judged metrics score the answer the gate returned.
    const faithfulnessAnswers = ragas.chats
      .filter((c) => JSON.stringify(c.format).includes('statements'))
      .map((c) => c.messages.at(-1)?.content ?? '');
    assert.ok(faithfulnessAnswers.some((m) => m.endsWith(`ANSWER:\n${RETRY}`)));
    assert.ok(faithfulnessAnswers.some((m) => m.endsWith(`ANSWER:\n${FIRST}`)));

    const md = renderMarkdown(r);
    assert.match(
      md,
      /## Quality gate \(RETRIEVAL answers\)\n\nLLM judge qwen3:1\.7b, pass mark 0\.6 .*Judged 2, passed 1, retried 1, judge failures \(counted, not scored\) 1\./,
    );
    assert.match(
      md,
      /\| Run \| Judged \| Passed \| Retried \| Judge failures \|\n\| --- \| --- \| --- \| --- \| --- \|\n\| 1 \| 1 \| 1 \| 1 \| 0 \|\n\| 2 \| 1 \| 0 \| 0 \| 1 \|/,
    );
    assert.match(md, /\| GD-R-001 \| 1 \| yes \| 0\.800 \| yes \| — \|/);
    assert.match(md, /\| GD-R-001 \| 2 \| no \| n\/a \| no \| judge-malformed: not JSON \|/);
    const html = renderHtml(r);
    assert.match(html, /<h2>Quality gate \(RETRIEVAL answers\)<\/h2>/);
    // The summary table is the metrics table only (not the first row of the runs table).
    const summary = html.slice(html.indexOf('<table>'), html.indexOf('</table>'));
    assert.doesNotMatch(summary, /Code answers/);
    assert.match(summary, /non-convergence rate/);
  });

  it('keeps the composite of the last assessed attempt when the judge fails on the retry', async () => {
    const { target: t } = target(fakeValidator([assessed(0.4), malformed]));
    const out = await runEvaluation(t, options(true, 1));
    assert.ok(out.ok);
    assert.deepEqual(retrieval(out.value.entries)[0]?.quality, {
      passed: false,
      composite: 0.4,
      retried: true,
      failure: 'judge-malformed: not JSON',
    });
    assert.deepEqual(qualityCounts(out.value.entries), {
      quality_judged: 1,
      quality_passed: 0,
      quality_retried: 1,
      quality_failures: 1,
    });
  });

  it('records a retry that could not be generated and keeps the first answer', async () => {
    const { target: t, ragas } = target(fakeValidator([assessed(0.5)]), {
      ok: false,
      error: { code: 'llm-timeout', message: 'sent nothing' },
    });
    const out = await runEvaluation(t, options(true, 1));
    assert.ok(out.ok);
    assert.deepEqual(retrieval(out.value.entries)[0]?.quality, {
      passed: false,
      composite: 0.5,
      retried: false,
      failure: undefined,
      retry_error: 'llm-timeout: sent nothing',
    });
    assert.ok(ragas.chats.some((c) => c.messages.at(-1)?.content.endsWith(`ANSWER:\n${FIRST}`)));
    assert.match(
      renderMarkdown(out.value),
      /\| GD-R-001 \| 1 \| no \| 0\.500 \| no \| retry not generated: llm-timeout: sent nothing \|/,
    );
  });

  it('runs no gate with the judge off (--no-judge)', async () => {
    const validator = fakeValidator([]);
    const { target: t, retryLlm } = target(validator);
    const out = await runEvaluation(t, options(false));
    assert.ok(out.ok);
    assert.equal(validator.inputs.length, 0);
    assert.equal(retryLlm.chats.length, 0);
    assert.ok(out.value.entries.every((e) => e.quality === undefined));
    assert.deepEqual(
      out.value.runs.map((run) => run.quality_judged),
      [0, 0],
    );
    assert.match(
      renderMarkdown(out.value),
      /## Quality gate \(RETRIEVAL answers\)\n\nOff \(--no-judge\): RETRIEVAL answers were not judged\./,
    );
    assert.match(renderHtml(out.value), /Off \(--no-judge\)/);
  });

  it('runs no gate when the target has none', async () => {
    const { target: t } = target(fakeValidator([]));
    delete t.quality;
    const out = await runEvaluation(t, options(true, 1));
    assert.ok(out.ok);
    assert.deepEqual(qualityCounts(out.value.entries), {
      quality_judged: 0,
      quality_passed: 0,
      quality_retried: 0,
      quality_failures: 0,
    });
  });
});

describe('eval: the entry record of a quality report', () => {
  it('takes the composite of the last assessed attempt and names the failure', () => {
    assert.deepEqual(
      entryQuality({
        validator: 'llm-judge',
        passed: true,
        retried: false,
        attempts: [{ attempt: 1, verdict: verdictRecord(assessed(0.7)) }],
      }),
      { passed: true, composite: 0.7, retried: false, failure: undefined },
    );
    assert.deepEqual(
      entryQuality({
        validator: 'llm-judge',
        passed: false,
        retried: false,
        attempts: [{ attempt: 1, verdict: verdictRecord(malformed) }],
        failure: { validator: 'llm-judge', code: 'judge-unavailable', message: 'down' },
      }),
      { passed: false, composite: undefined, retried: false, failure: 'judge-unavailable: down' },
    );
  });
});
