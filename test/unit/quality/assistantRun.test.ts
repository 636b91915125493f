import assert from 'node:assert/strict';
import type { PipelineRequest, PipelineResult, ResponseMessage } from '../../../src/core/contracts';
import type { ChatCall, LlmPort } from '../../../src/core/llm/port';
import { PROMPT_HEADERS } from '../../../src/core/routing/prompts';
import { QUALITY_RETRY_HEAD, runWithQuality, type QualityValidator, type QualityVerdict } from '../../../src/quality';

const verdict = (passed: boolean, hint?: string): QualityVerdict => ({
  ok: true,
  assessment: { validator: 'llm-judge', composite: passed ? 0.9 : 0.3, threshold: 0.6, passed, dimensions: [], findings: [], ...(hint ? { hint } : {}) },
});

function validator(verdicts: QualityVerdict[]): QualityValidator & { inputs: string[] } {
  const inputs: string[] = [];
  return { name: 'llm-judge', inputs, assess: async (i) => { inputs.push(i.answer); return verdicts.shift() as QualityVerdict; } };
}

function assistant(type: PipelineResult['queryType'], text: string, patch: Partial<PipelineResult> = {}) {
  return {
    async run(_request: PipelineRequest, options?: { onMessage?: (m: ResponseMessage) => void }): Promise<PipelineResult> {
      options?.onMessage?.({ text, avap_code: '', is_final: false, validation_status: '', attempt: 1 });
      options?.onMessage?.({ text: '', avap_code: '', is_final: true, validation_status: '' });
      return { queryType: type, text, code: '', validationStatus: '', attempts: [], sources: [{ id: 'c1', title: 'encodeSHA256', score: 1 }], relevanceRetry: false, generationId: 'g', ...patch };
    },
  };
}

function llm(answer: string): LlmPort & { calls: ChatCall[] } {
  const calls: ChatCall[] = [];
  return {
    calls,
    async chat(call) {
      calls.push(call);
      for (const piece of answer.match(/\S+\s*/g) ?? []) call.onToken?.(piece);
      return { ok: true, value: { text: answer } };
    },
    embed: async () => ({ ok: true, value: [] }),
    models: async () => ({ ok: true, value: [] }),
  };
}

const passages = () => [{ id: 'c1', title: 'encodeSHA256', text: 'encodeSHA256(source, target)' }];

describe('quality: the gate around the pipeline', () => {
  it('a failing RETRIEVAL answer is retried from the pipeline\'s own answer prompt; retry pieces stream as attempt 2; one final message', async () => {
    const messages: ResponseMessage[] = [];
    const model = llm('Use it:\n```avap\nencodeSHA256(p, h)\n```');
    const judge = validator([verdict(false, 'HINT-X'), verdict(true)]);
    const run = await runWithQuality(
      { assistant: assistant('RETRIEVAL', 'vague'), validator: judge, llm: model, model: 'm', passages },
      { query: 'how to hash' },
      { onMessage: (m) => messages.push(m) },
    );
    assert.deepEqual(judge.inputs, ['vague', 'Use it:\n```avap\nencodeSHA256(p, h)\n```']);
    assert.equal(run.result.text, 'Use it:\n```avap\nencodeSHA256(p, h)\n```');
    assert.equal(run.result.code, 'encodeSHA256(p, h)');
    assert.equal(run.quality?.retried, true);
    assert.equal(run.quality?.passed, true);
    assert.equal(run.quality?.attempts[1]?.hint, 'HINT-X');
    const [call] = model.calls;
    assert.ok(call?.messages[0]?.content.startsWith(PROMPT_HEADERS.generate), 'the base is the pipeline\'s answer prompt');
    assert.ok(call?.messages[0]?.content.includes('encodeSHA256(source, target)'), 'with the documentation text');
    assert.deepEqual(call?.messages.at(-2), { role: 'assistant', content: 'vague' });
    assert.equal(call?.messages.at(-1)?.content.startsWith(`${QUALITY_RETRY_HEAD} HINT-X`), true);
    const kinds = messages.map((m) => (m.is_final ? 'final' : `attempt ${m.attempt}`));
    assert.equal(kinds[0], 'attempt 1');
    assert.equal(kinds.at(-1), 'final');
    assert.ok(kinds.slice(1, -1).length > 0 && kinds.slice(1, -1).every((k) => k === 'attempt 2'), kinds.join(','));
    assert.equal(messages.filter((m) => m.attempt === 2).map((m) => m.text).join(''), run.result.text);
    assert.equal(messages.at(-1)?.avap_code, 'encodeSHA256(p, h)');
  });

  it('other routes and failed runs pass through unjudged', async () => {
    for (const [type, patch] of [['CODE_GENERATION', {}], ['RETRIEVAL', { error: { code: 'llm-timeout', message: 'slow' } }]] as const) {
      const judge = validator([]);
      const messages: ResponseMessage[] = [];
      const run = await runWithQuality({ assistant: assistant(type, 'text', patch), validator: judge, llm: llm(''), model: 'm', passages }, { query: 'q' }, { onMessage: (m) => messages.push(m) });
      assert.equal(run.quality, undefined);
      assert.deepEqual(judge.inputs, []);
      assert.equal(messages.filter((m) => m.is_final).length, 1);
    }
  });
});
