/**
 * The LLM judge over real HTTP: the official ollama client (through the
 * core's Ollama adapter) against the scripted Ollama-compatible server.
 */
import assert from 'node:assert/strict';
import { defaultConfig } from '../../../src/core/config';
import { createOllamaLlm } from '../../../src/core/llm/ollamaLlm';
import type { ChatMessage, LlmPort } from '../../../src/core';
import {
  createLlmJudge,
  dimension,
  hintedRetryMessages,
  JUDGE_JSON_SCHEMA,
  QUALITY_RETRY_HEAD,
  qualityGate,
  gateFailure,
  type QualityInput,
  type Regenerate,
} from '../../../src/quality';
import { JUDGE_SYSTEM_HEADER } from '../../../src/quality/judge';
import {
  lastUser,
  startScriptedOllama,
  systemPrompt,
  type RecordedRequest,
  type ScriptedOllama,
} from '../../support/scriptedOllama';
import { GOOD_ANSWER, SHALLOW_ANSWER, input } from './fixtures';

const MODEL = 'qwen3:1.7b';

/**
 * The hinted retry as the gate sees it, made here straight with the model: the gate is tested alone. In the
 * product the pipeline makes it (quality/assistantRun.ts), within the request's one retry cycle.
 */
function modelRetryForTest(llm: LlmPort, model: string, input: QualityInput): Regenerate {
  const context = input.context.map((c, i) => `[${i + 1}] ${c.title}\n${c.text}`).join('\n\n');
  const base: ChatMessage[] = [
    { role: 'system', content: 'You answer questions about AVAP using only the documentation provided.' },
    { role: 'user', content: `AVAP documentation:\n${context || '(none)'}\n\nQuestion: ${input.question}` },
  ];
  return async (hint, previous, signal) => {
    const reply = await llm.chat({
      model,
      messages: hintedRetryMessages(base, previous, hint),
      ...(signal ? { signal } : {}),
    });
    return reply.ok ? { ok: true, value: reply.value.text } : { ok: false, error: reply.error };
  };
}

const verdict = (g: number, s: number, a: number) =>
  JSON.stringify({
    grounding: { reason: 'grounding reason', score: g },
    specificity: { reason: 'specificity reason', score: s },
    actionability: { reason: 'actionability reason', score: a },
  });

const isJudge = (r: RecordedRequest) => systemPrompt(r).startsWith(JUDGE_SYSTEM_HEADER);
const isRetry = (r: RecordedRequest) => lastUser(r).startsWith(QUALITY_RETRY_HEAD);

describe('quality: LLM judge over HTTP (scripted Ollama)', function () {
  let ollama: ScriptedOllama;

  before(async () => {
    ollama = await startScriptedOllama({ models: [MODEL] });
  });
  after(async () => {
    await ollama.close();
  });
  beforeEach(() => ollama.reset());

  function llm(host = ollama.url) {
    return createOllamaLlm({ ...defaultConfig().ollama, host, ttfbTimeoutMs: 5000 });
  }

  it('a good answer passes; the weighted composite is computed, the shape is enforced through format', async () => {
    ollama.on({ endpoint: 'chat', when: isJudge }, { content: verdict(0.9, 0.8, 1) });
    const result = await createLlmJudge({ llm: llm(), model: MODEL }).assess(input(GOOD_ANSWER));
    assert.ok(result.ok, JSON.stringify(result));
    if (!result.ok) return;
    assert.equal(result.value.composite, 0.89); // 0.5*0.9 + 0.3*0.8 + 0.2*1
    assert.equal(result.value.passed, true);
    assert.equal(result.value.threshold, 0.6);
    assert.equal(result.value.model, MODEL);
    assert.deepEqual(
      result.value.dimensions.map((d) => [d.name, d.weight]),
      [
        ['grounding', 0.5],
        ['specificity', 0.3],
        ['actionability', 0.2],
      ],
    );
    const [request] = ollama.calls('chat');
    assert.deepEqual(request?.body.format, JUDGE_JSON_SCHEMA);
    assert.equal(request?.body.options?.temperature, 0);
    assert.match(systemPrompt(request), /grounding \(weight 0\.5\)/);
    assert.match(lastUser(request), /RETRIEVED DOCUMENTATION:\n\[1\] encodeSHA256/);
  });

  it("a shallow answer fails, is retried once with the lowest dimension's hint, and the retry passes", async () => {
    ollama.on({ endpoint: 'chat', when: isJudge, times: 1 }, { content: verdict(0.7, 0.1, 0.4) });
    ollama.on({ endpoint: 'chat', when: isRetry, times: 1 }, { content: GOOD_ANSWER });
    ollama.on({ endpoint: 'chat', when: isJudge, times: 1 }, { content: verdict(0.9, 0.9, 0.9) });
    const judge = createLlmJudge({ llm: llm(), model: MODEL });
    const q = input(SHALLOW_ANSWER);
    const gate = await qualityGate(judge, q, modelRetryForTest(llm(), MODEL, q));

    assert.equal(gate.attempts.length, 2);
    const first = gate.attempts[0]?.verdict;
    assert.ok(first?.ok && !first.value.passed);
    if (first?.ok) {
      assert.equal(first.value.composite, 0.46);
      assert.equal(first.value.hint, dimension('specificity').hint);
    }
    const retry = ollama.calls('chat').find(isRetry);
    assert.ok(retry, 'a retry request was made');
    assert.ok(lastUser(retry).includes('Cite the exact AVAP command and its argument order'), lastUser(retry));
    assert.deepEqual(retry.body.messages?.[2], { role: 'assistant', content: SHALLOW_ANSWER });
    assert.equal(gate.answer, GOOD_ANSWER);
    assert.equal(gate.passed, true);
    assert.equal(gate.attempts[1]?.hint, dimension('specificity').hint);
    assert.equal(ollama.calls('chat').length, 3, 'judge, retry, judge — no more');
  });

  it('a retry that still fails is returned anyway, with its scores, and not retried again', async () => {
    ollama.on({ endpoint: 'chat', when: isJudge }, { content: verdict(0.2, 0.9, 0.9) });
    ollama.on({ endpoint: 'chat', when: isRetry }, { content: 'Still vague.' });
    const judge = createLlmJudge({ llm: llm(), model: MODEL });
    const q = input(SHALLOW_ANSWER);
    const gate = await qualityGate(judge, q, modelRetryForTest(llm(), MODEL, q));
    assert.equal(gate.passed, false);
    assert.equal(gate.answer, 'Still vague.');
    assert.equal(gate.attempts.length, 2);
    assert.ok(lastUser(ollama.calls('chat').find(isRetry) as RecordedRequest).includes(dimension('grounding').hint));
    const last = gate.attempts[1]?.verdict;
    assert.ok(last?.ok && last.value.composite === 0.55 && last.value.hint === dimension('grounding').hint);
  });

  const MALFORMED: { name: string; content: string; error: RegExp }[] = [
    { name: 'prose instead of JSON', content: 'The answer looks fine, 8/10.', error: /not JSON/ },
    {
      name: 'a missing dimension',
      content: JSON.stringify({ grounding: { reason: 'r', score: 1 }, specificity: { reason: 'r', score: 1 } }),
      error: /missing required parameter 'actionability'/,
    },
    {
      name: 'a score out of range',
      content: verdict(1.5, 0.5, 0.5),
      error: /'grounding.score' must be at most 1, got 1.5/,
    },
    {
      name: 'a score as text',
      content: verdict(0.5, 0.5, 0.5).replace('"score":0.5', '"score":"high"'),
      error: /'grounding.score' must be a number, got string/,
    },
    {
      name: 'an extra composite field',
      content: JSON.stringify({ ...JSON.parse(verdict(1, 1, 1)), composite: 1 }),
      error: /unknown parameter 'composite'/,
    },
  ];
  for (const c of MALFORMED) {
    it(`a malformed judge answer (${c.name}) is a reported failure, never a score, and is not retried`, async () => {
      ollama.on({ endpoint: 'chat', when: isJudge }, { content: c.content });
      const judge = createLlmJudge({ llm: llm(), model: MODEL });
      const q = input(SHALLOW_ANSWER);
      const gate = await qualityGate(judge, q, modelRetryForTest(llm(), MODEL, q));
      assert.equal(gate.attempts.length, 1);
      assert.equal(gate.answer, SHALLOW_ANSWER, 'the answer is returned either way');
      assert.equal(gate.passed, false);
      const failure = gateFailure(gate);
      assert.ok(failure, 'reported as a failure');
      assert.equal(failure.code, 'judge-malformed');
      assert.match(failure.message, c.error);
      assert.equal(failure.detail, c.content, 'the malformed answer is kept verbatim');
      assert.equal('assessment' in (gate.attempts[0]?.verdict ?? {}), false, 'no score');
      assert.equal(ollama.calls('chat').length, 1);
    });
  }

  it('an unreachable judge is a failure', async () => {
    const down = await startScriptedOllama();
    const url = down.url;
    await down.close();
    const result = await createLlmJudge({ llm: llm(url), model: MODEL }).assess(input(GOOD_ANSWER));
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.equal(result.error.code, 'judge-unavailable');
      assert.equal(result.error.detail, 'llm-unreachable');
    }
  });

  it('a judge model that is not pulled is a failure naming the model', async () => {
    const result = await createLlmJudge({ llm: llm(), model: 'judge:missing' }).assess(input(GOOD_ANSWER));
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.equal(result.error.code, 'judge-unavailable');
      assert.match(result.error.message, /ollama pull judge:missing/);
    }
  });

  it('a configurable threshold decides the pass', async () => {
    ollama.on({ endpoint: 'chat', when: isJudge }, { content: verdict(0.9, 0.8, 1) });
    const result = await createLlmJudge({ llm: llm(), model: MODEL, threshold: 0.95 }).assess(input(GOOD_ANSWER));
    assert.ok(result.ok && !result.value.passed && result.value.threshold === 0.95);
  });
});
