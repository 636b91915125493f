import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  cassetteLlm,
  chatKey,
  emptyCassette,
  loadCassette,
  answerRelevancy,
  faithfulness,
  FAITHFULNESS_FORMAT,
  pinnedModelProblem,
  unpinnedModels,
} from '../../../src/eval';
import { scriptedLlm } from './fakes';

const models = { judgeModel: 'judge:1', embeddingModel: 'embed:1' };

describe('eval: RAGAS metrics through a structured judge', () => {
  it('faithfulness is the share of supported statements, asked with a JSON-schema format', async () => {
    const llm = scriptedLlm(() => ({
      ok: true,
      value: {
        text: JSON.stringify({
          statements: [
            { statement: 'encodeSHA256 hashes a variable', supported: true },
            { statement: 'it takes the source then the target', supported: true },
            { statement: 'it returns base64', supported: false },
            { statement: 'addResult adds it to the response', supported: true },
          ],
        }),
      },
    }));
    const out = await faithfulness({ llm, models }, { answer: 'answer', context: 'context' });
    assert.deepEqual(out, { ok: true, value: { score: 0.75, detail: '3/4 statements supported' } });
    assert.deepEqual(llm.chats[0]?.format, FAITHFULNESS_FORMAT);
    assert.equal(llm.chats[0]?.model, 'judge:1');
  });

  it('reports a malformed or failed judge call as a failure, never as a score', async () => {
    for (const [text, kind] of [
      ['not json', 'judge-malformed'],
      ['{"statements": "yes"}', 'judge-malformed'],
      ['{"statements": []}', 'nothing-to-judge'],
    ]) {
      const out = await faithfulness(
        { llm: scriptedLlm(() => ({ ok: true, value: { text: text ?? '' } })), models },
        { answer: 'a', context: 'c' },
      );
      assert.equal(out.ok ? '' : out.error.kind, kind, text);
    }
    const down = await faithfulness(
      { llm: scriptedLlm(() => ({ ok: false, error: { code: 'llm-unreachable', message: 'refused' } })), models },
      { answer: 'a', context: 'c' },
    );
    assert.deepEqual(down, { ok: false, error: { kind: 'judge-failed', message: 'llm-unreachable: refused' } });
  });

  it('answer relevancy is the mean cosine between the question and generated questions, 0 when noncommittal', async () => {
    const same = scriptedLlm(() => ({
      ok: true,
      value: { text: JSON.stringify({ questions: ['how do I hash', 'how do I hash'], noncommittal: false }) },
    }));
    const scored = await answerRelevancy(
      { llm: same, models },
      { question: 'how do I hash', answer: 'use encodeSHA256' },
    );
    assert.ok(scored.ok);
    assert.ok(Math.abs(scored.value.score - 1) < 1e-9);
    const evasive = scriptedLlm(() => ({
      ok: true,
      value: { text: JSON.stringify({ questions: ['how do I hash'], noncommittal: true }) },
    }));
    const out = await answerRelevancy({ llm: evasive, models }, { question: 'how do I hash', answer: 'it depends' });
    assert.deepEqual(out, {
      ok: true,
      value: { score: 0, detail: '1 generated questions, mean cosine 1.000, noncommittal' },
    });
  });
});

describe('eval: record/replay cassettes', () => {
  it('records answers keyed by request and replays them without the model', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'avap-cassette-')), 'c.json');
    const live = scriptedLlm((call) => ({ ok: true, value: { text: `echo ${call.messages.at(-1)?.content}` } }));
    const recorder = cassetteLlm('record', file, emptyCassette('scripted test model'), live);
    const call = { model: 'm:1', messages: [{ role: 'user' as const, content: 'hello' }] };
    assert.deepEqual(await recorder.chat(call), { ok: true, value: { text: 'echo hello' } });
    await recorder.embed('e:1', ['abc']);
    await recorder.models();
    recorder.save();

    const loaded = loadCassette(file);
    assert.ok(loaded.ok);
    const player = cassetteLlm('replay', file, loaded.value);
    const streamed: string[] = [];
    assert.deepEqual(await player.chat({ ...call, onToken: (t) => streamed.push(t) }), {
      ok: true,
      value: { text: 'echo hello' },
    });
    assert.deepEqual(streamed, ['echo hello']);
    assert.deepEqual(await player.embed('e:1', ['abc']), await live.embed('e:1', ['abc']));
    assert.deepEqual(await player.models(), { ok: true, value: ['qwen3:1.7b'] });
    assert.equal(live.chats.length, 1, 'replay never reached the live model');

    const missing = await player.chat({ ...call, messages: [{ role: 'user', content: 'something new' }] });
    assert.equal(missing.ok, false);
    assert.match(!missing.ok ? missing.error.message : '', /no answer for chat m:1: something new/);
    assert.equal(player.misses.length, 1);
  });

  it('keys ignore object key order but not content', () => {
    const a = chatKey({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      format: { type: 'object', required: ['a'] },
    });
    const b = chatKey({
      model: 'm',
      messages: [{ content: 'x', role: 'user' }],
      format: { required: ['a'], type: 'object' },
    });
    const c = chatKey({
      model: 'm',
      messages: [{ role: 'user', content: 'y' }],
      format: { type: 'object', required: ['a'] },
    });
    assert.equal(a, b);
    assert.notEqual(a, c);
  });

  it('refuses a missing or foreign cassette file with a clear error', () => {
    const out = loadCassette('/nonexistent/c.json');
    assert.equal(out.ok, false);
    assert.equal(out.ok ? '' : out.error.kind, 'unreadable');
  });
});

describe('eval: pinned models', () => {
  it('refuses a model without a tag or with latest', () => {
    assert.equal(pinnedModelProblem('qwen3:1.7b'), undefined);
    assert.match(pinnedModelProblem('qwen3') ?? '', /no tag/);
    assert.match(pinnedModelProblem('qwen3:latest') ?? '', /latest/);
    assert.equal(pinnedModelProblem('registry.local:5000/team/qwen3:1.7b'), undefined, 'a registry port is not a tag');
    assert.match(pinnedModelProblem('registry.local:5000/team/qwen3') ?? '', /no tag/);
    assert.match(pinnedModelProblem('qwen3:') ?? '', /not a model name/);
  });

  it('applies the same rule and message to every model the evaluation calls', () => {
    assert.deepEqual(
      unpinnedModels({
        generation: 'qwen3:1.7b',
        conversational: 'qwen3:0.6b',
        embedding: 'emb:0.6b',
        judge: 'judge:2',
      }),
      [],
    );
    assert.deepEqual(
      unpinnedModels({
        generation: 'qwen3:1.7b',
        conversational: 'chat',
        embedding: 'emb:latest',
        judge: 'judge:latest',
      }),
      [
        "the conversational model 'chat' has no tag; evaluation needs every model it calls pinned to a version, such as 'chat:1.7b'",
        "the embedding model 'emb:latest' uses the moving tag 'latest'; evaluation needs every model it calls pinned to a version, such as 'emb:1.7b'",
        "the judge model 'judge:latest' uses the moving tag 'latest'; evaluation needs every model it calls pinned to a version, such as 'judge:1.7b'",
      ],
    );
    assert.deepEqual(
      unpinnedModels({ generation: 'qwen3', conversational: 'qwen3:0.6b', embedding: 'emb:1' }),
      [
        "the generation model 'qwen3' has no tag; evaluation needs every model it calls pinned to a version, such as 'qwen3:1.7b'",
      ],
      'no judge model when the judge is off',
    );
  });
});
