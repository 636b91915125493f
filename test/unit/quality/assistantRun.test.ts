/**
 * The quality gate on the real pipeline (fakes behind its ports): the judge
 * reviews RETRIEVAL answers before the final message; its hinted retry is made
 * by the pipeline within the request's one retry cycle, streamed as drafts of
 * the next attempt, and its code is validated like any answer's.
 */
import assert from 'node:assert/strict';
import { runPipeline, type PipelineRequest, type ResponseMessage, type RunOptions } from '../../../src/core';
import type { RelevancePort } from '../../../src/core/relevance/port';
import { PROMPT_HEADERS, promptTask } from '../../../src/core/routing/prompts';
import { QUALITY_RETRY_HEAD, runWithQuality, type QualityValidator, type QualityVerdict } from '../../../src/quality';
import { taskLlm, type TaskScript } from '../../support/fakes/llm';
import { fakeParser } from '../../support/fakes/parser';
import { deps } from '../core/pipelineFakes';

const verdict = (passed: boolean, hint?: string): QualityVerdict => ({
  ok: true,
  value: {
    validator: 'llm-judge',
    composite: passed ? 0.9 : 0.3,
    threshold: 0.6,
    passed,
    dimensions: [],
    findings: [],
    ...(hint ? { hint } : {}),
  },
});

function validator(verdicts: QualityVerdict[]): QualityValidator & { inputs: string[] } {
  const inputs: string[] = [];
  return {
    name: 'llm-judge',
    inputs,
    assess: (i) => {
      inputs.push(i.answer);
      return Promise.resolve(verdicts.shift() as QualityVerdict);
    },
  };
}

const passages = () => [{ id: 'c1', title: 'encodeSHA256', text: 'encodeSHA256(source, target)' }];
const DOCS = { classify: ['{"type":"RETRIEVAL"}'], reformulate: ['encodeSHA256'] };
const no: RelevancePort = {
  mode: 'llm',
  judge: () => Promise.resolve({ ok: true, value: { relevant: false, detail: 'no' } }),
};

/** The real pipeline behind the gate. */
function pipeline(
  script: TaskScript,
  patch: { relevance?: RelevancePort; parser?: ReturnType<typeof fakeParser> } = {},
) {
  const llm = taskLlm(script);
  const { deps: d, telemetry } = deps(llm, patch.parser ?? fakeParser());
  const assistant = {
    run: (request: PipelineRequest, options?: RunOptions) =>
      runPipeline({ ...d, ...(patch.relevance ? { relevance: patch.relevance } : {}) }, request, options),
  };
  return { assistant, llm, telemetry };
}

const generations = (llm: ReturnType<typeof taskLlm>) =>
  llm.calls.filter((c) => promptTask(c.messages[0]?.content ?? '') === 'generate');

describe('quality: the gate on the pipeline', () => {
  it("a failing answer is retried from the pipeline's own answer prompt; the retry streams as attempt 2, its code is validated; one final message", async () => {
    const retryAnswer = 'Use it:\n```avap\nencodeSHA256(p, h)\n```';
    const { assistant, llm } = pipeline({ ...DOCS, generate: ['vague', retryAnswer] });
    const judge = validator([verdict(false, 'HINT-X'), verdict(true)]);
    const messages: ResponseMessage[] = [];
    const run = await runWithQuality(
      { assistant, validator: judge, passages },
      { query: 'how to hash' },
      { onMessage: (m) => messages.push(m) },
    );
    assert.deepEqual(judge.inputs, ['vague', retryAnswer]);
    assert.equal(run.result.text, retryAnswer);
    assert.equal(run.result.code, 'encodeSHA256(p, h)');
    assert.equal(run.result.validationStatus, '', "the parser validated the retry's code");
    assert.equal(run.result.retry?.usedBy, 'judge-hint');
    assert.equal(run.quality?.retried, true);
    assert.equal(run.quality?.passed, true);
    assert.equal(run.quality?.attempts[1]?.hint, 'HINT-X');
    const call = generations(llm)[1];
    assert.ok(
      call?.messages[0]?.content.startsWith(PROMPT_HEADERS.generate),
      "the base is the pipeline's answer prompt",
    );
    assert.ok(call?.messages[0]?.content.includes('encodeSHA256(source, target)'), 'with the documentation text');
    assert.deepEqual(call?.messages.at(-2), { role: 'assistant', content: 'vague' });
    assert.equal(call?.messages.at(-1)?.content.startsWith(`${QUALITY_RETRY_HEAD} HINT-X`), true);
    const drafts = messages.filter((m) => !m.is_final);
    assert.ok(
      drafts.every((m) => !m.is_final && m.draft === true && m.avap_code === '' && !('validation_status' in m)),
    );
    assert.deepEqual([...new Set(drafts.map((m) => (m.is_final ? 0 : m.attempt)))], [1, 2]);
    assert.equal(
      drafts
        .filter((m) => !m.is_final && m.attempt === 2)
        .map((m) => m.text)
        .join(''),
      run.result.text,
    );
    assert.equal(messages.filter((m) => m.is_final).length, 1);
    assert.deepEqual(messages.at(-1), {
      text: 'Use it:\n```avap\nencodeSHA256(p, h)\n```',
      avap_code: 'encodeSHA256(p, h)',
      is_final: true,
      validation_status: '',
    });
  });

  it("the judge's retry with invalid code ends INVALID_UNRESOLVED: the cycle is used, no further retry", async () => {
    const { assistant, llm } = pipeline({ ...DOCS, generate: ['vague', 'Like this:\n```avap\ngetSHA256(p, h)\n```'] });
    const run = await runWithQuality(
      { assistant, validator: validator([verdict(false, 'be concrete'), verdict(true)]), passages },
      { query: 'how to hash' },
    );
    assert.equal(run.result.validationStatus, 'INVALID_UNRESOLVED');
    assert.equal(generations(llm).length, 2, 'no parser retry after the judge used the cycle');
  });

  it("no judge retry when the relevance reformulation used the request's one retry (D1 RC-08); the skip is reported", async () => {
    const { assistant, llm, telemetry } = pipeline({ ...DOCS, generate: ['vague'] }, { relevance: no });
    const judge = validator([verdict(false, 'HINT')]);
    const run = await runWithQuality({ assistant, validator: judge, passages }, { query: 'how to hash' });
    assert.equal(run.result.relevanceRetry, true);
    assert.equal(generations(llm).length, 1);
    assert.equal(run.quality?.retried, false);
    assert.deepEqual(run.quality?.retrySkipped, { trigger: 'judge-hint', reason: 'cycle-used', usedBy: 'relevance' });
    assert.deepEqual(run.result.retry?.skipped, [{ trigger: 'judge-hint', reason: 'cycle-used', usedBy: 'relevance' }]);
    assert.equal(telemetry.events.at(-1)?.stop_reason, 'retry-cycle-used-by-relevance');
  });

  it("no judge retry after the parser's trace-guided retry of the answer's code", async () => {
    // An error without a proven fix (a fixable one would be repaired by the parser's fixes, no retry).
    const { assistant, llm } = pipeline({
      ...DOCS,
      generate: ['```avap\nhashPassword(p, h)\n```', '```avap\nencodeSHA256(p, h)\n```'],
    });
    const run = await runWithQuality(
      { assistant, validator: validator([verdict(false, 'HINT')]), passages },
      { query: 'how to hash' },
    );
    assert.equal(run.result.validationStatus, '');
    assert.equal(run.result.retry?.usedBy, 'parser-trace');
    assert.equal(generations(llm).length, 2);
    assert.equal(run.quality?.retrySkipped?.usedBy, 'parser-trace');
  });

  it('other routes and failed runs pass through unjudged', async () => {
    const code = pipeline({ reformulate: ['q'], generate_code: ['```avap\naddVar(a, 1)\n```'] });
    const failed = pipeline({ ...DOCS, generate: [{ ok: false, error: { code: 'llm-timeout', message: 'slow' } }] });
    for (const [assistant, request] of [
      [code.assistant, { query: 'q', forceType: 'CODE_GENERATION' as const }],
      [failed.assistant, { query: 'q' }],
    ] as const) {
      const judge = validator([]);
      const messages: ResponseMessage[] = [];
      const run = await runWithQuality({ assistant, validator: judge, passages }, request, {
        onMessage: (m) => messages.push(m),
      });
      assert.equal(run.quality, undefined);
      assert.deepEqual(judge.inputs, []);
      assert.equal(messages.filter((m) => m.is_final).length, 1);
    }
  });
});
