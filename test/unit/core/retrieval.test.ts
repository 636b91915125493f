import assert from 'node:assert/strict';
import {
  createCosineRelevance,
  createEmbeddedRetrieval,
  type KnowledgeSource,
  createLlmRelevance,
  cosine,
} from '../../../src/core';
// internal-import: how a YES/NO answer is read, tested without a model
import { readYesNo } from '../../../src/core/relevance/llmRelevance';
// internal-import: the fusion arithmetic, tested on hand-made rankings
import { meanVector, reciprocalRankFusion } from '../../../src/core/retrieval/rrf';
import { memoryLogger } from '../../support/fakes/ports';
import { fakeLlm, type LlmScript } from '../../support/fakes/llm';

const kb: KnowledgeSource = {
  chunks: [
    { id: 'a', title: 'A', heading: 'H', text: 'alpha' },
    { id: 'b', title: 'B', text: 'beta' },
    { id: 'c', title: 'C', text: 'gamma' },
  ],
  search: (query) =>
    query.includes('beta')
      ? [
          { id: 'b', score: 2 },
          { id: 'a', score: 1 },
        ]
      : [{ id: 'a', score: 1 }],
  chunk(id) {
    return this.chunks.find((c) => c.id === id);
  },
};

/** An LLM whose embeddings come from `embed` and whose every chat answer is `answer`. */
const llmWith = (embed: LlmScript['embed'], answer = 'YES') =>
  fakeLlm({ embed, chat: () => ({ ok: true, value: { text: answer } }), models: () => ({ ok: true, value: [] }) });

const axis = (text: string) => (text.includes('gamma') ? [0, 0, 1] : text.includes('beta') ? [0, 1, 0] : [1, 0, 0]);

describe('core/retrieval and relevance', () => {
  it('RRF: score = Σ 1/(k + rank), deterministic ties, top N', () => {
    const fused = reciprocalRankFusion(
      [
        ['x', 'y', 'z'],
        ['y', 'w'],
      ],
      60,
      3,
    );
    assert.deepEqual(
      fused.map((f) => f.id),
      ['y', 'x', 'w'],
    );
    assert.ok(Math.abs((fused[0]?.score ?? 0) - (1 / 62 + 1 / 61)) < 1e-12);
    assert.deepEqual(fused[0]?.ranks, [2, 1]);
    assert.deepEqual(
      reciprocalRankFusion([['p', 'p', 'q']]).map((f) => f.id),
      ['p', 'q'],
      'duplicates count once',
    );
  });

  it('cosine and mean vectors', () => {
    assert.equal(cosine([1, 0], [1, 0]), 1);
    assert.equal(cosine([1, 0], [0, 1]), 0);
    assert.equal(cosine([0, 0], [1, 1]), 0);
    assert.deepEqual(
      meanVector([
        [1, 0],
        [0, 1],
      ]),
      [0.5, 0.5],
    );
  });

  it('embedded: BM25 only without an embedding model, tagged bm25_only', async () => {
    const retrieval = createEmbeddedRetrieval(kb);
    const out = await retrieval.retrieve('beta', { topK: 8 });
    assert.ok(out.ok);
    assert.equal(out.value.mode, 'bm25_only');
    assert.deepEqual(
      out.value.chunks.map((c) => c.id),
      ['b', 'a'],
    );
    assert.equal(out.value.chunks[1]?.title, 'A — H');
    assert.equal(out.value.fallback, 'hybrid needs embeddings: no embedding model is configured');
  });

  it('embedded: a mode the embedding model cannot serve falls back to BM25, tagged with the reason and logged each time', async () => {
    const logger = memoryLogger();
    const llm = llmWith(() => ({ ok: false, error: { code: 'llm-unreachable', message: 'connection refused' } }));
    const retrieval = createEmbeddedRetrieval(kb, { embed: (t, s) => llm.embed('e', t, s), mode: 'knn_only', logger });
    for (let i = 0; i < 2; i += 1) {
      const out = await retrieval.retrieve('beta', { topK: 8 });
      assert.ok(out.ok);
      assert.equal(out.value.mode, 'bm25_only');
      assert.equal(
        out.value.fallback,
        'knn_only needs embeddings: the embedding model failed (llm-unreachable: connection refused)',
      );
    }
    assert.equal(llm.embeds.length, 2, 'a transient failure is tried again');
    assert.deepEqual(
      logger.lines,
      Array(2).fill(
        '[ptvl] embedded retrieval: knn_only needs embeddings: the embedding model failed (llm-unreachable: connection refused) — using BM25 only (bm25_only)',
      ),
    );

    const queryFails = llmWith((_m, texts) =>
      texts.length === 1
        ? { ok: false, error: { code: 'llm-failed', message: 'boom' } }
        : { ok: true, value: texts.map(axis) },
    );
    const out = await createEmbeddedRetrieval(kb, { embed: (t, s) => queryFails.embed('e', t, s) }).retrieve('beta', {
      topK: 8,
    });
    assert.ok(out.ok);
    assert.deepEqual(
      [out.value.mode, out.value.fallback],
      ['bm25_only', 'hybrid needs embeddings: the embedding model could not embed the query (llm-failed: boom)'],
    );
  });

  it('embedded: hybrid when vectors are available; chunk vectors computed once', async () => {
    const llm = llmWith((_m, texts) => ({ ok: true, value: texts.map(axis) }));
    const retrieval = createEmbeddedRetrieval(kb, { embed: (t, s) => llm.embed('e', t, s) });
    const first = await retrieval.retrieve('gamma', { topK: 2 });
    assert.ok(first.ok);
    assert.equal(first.value.mode, 'hybrid');
    // BM25 says a; vectors say c first → fused: a (1/61) and c (1/61) tie → id order, both present.
    assert.deepEqual(first.value.chunks.map((c) => c.id).sort(), ['a', 'c']);
    assert.deepEqual(first.value.queryEmbedding, [0, 0, 1]);
    assert.ok(first.value.chunks.every((c) => Array.isArray(c.embedding)));
    await retrieval.retrieve('beta', { topK: 2 });
    assert.equal(llm.embeds.filter((t) => t.length === 3).length, 1, 'chunk vectors embedded once');
  });

  it('embedded: knn_only ranks by vectors alone', async () => {
    const llm = llmWith((_m, texts) => ({ ok: true, value: texts.map(axis) }));
    const retrieval = createEmbeddedRetrieval(kb, { embed: (t, s) => llm.embed('e', t, s), mode: 'knn_only' });
    const out = await retrieval.retrieve('gamma', { topK: 1 });
    assert.ok(out.ok);
    assert.equal(out.value.mode, 'knn_only');
    assert.deepEqual(
      out.value.chunks.map((c) => c.id),
      ['c'],
    );
  });

  it('embedded: a missing embedding model falls back to BM25 for good, logged once', async () => {
    const logger = memoryLogger();
    const llm = llmWith(() => ({ ok: false, error: { code: 'model-missing', message: 'not pulled' } }));
    const retrieval = createEmbeddedRetrieval(kb, { embed: (t, s) => llm.embed('e', t, s), logger });
    for (let i = 0; i < 2; i += 1) {
      const out = await retrieval.retrieve('beta', { topK: 8 });
      assert.equal(out.ok && out.value.mode, 'bm25_only');
      assert.match(
        out.ok ? (out.value.fallback ?? '') : '',
        /^hybrid needs embeddings: the embedding model failed \(model-missing: not pulled\)$/,
      );
    }
    assert.equal(llm.embeds.length, 1);
    assert.equal(logger.lines.length, 1);
  });

  it('LLM relevance reads YES/NO; unreadable counts as YES; no chunks is NO without a call', async () => {
    assert.deepEqual(readYesNo('NO.'), { relevant: false, readable: true });
    assert.deepEqual(readYesNo('<think>no idea</think>Yes'), { relevant: true, readable: true });
    assert.deepEqual(readYesNo('perhaps'), { relevant: true, readable: false });
    const llm = llmWith(() => ({ ok: true, value: [] }), 'NO');
    const judge = createLlmRelevance(llm, 'm');
    const verdict = await judge.judge('q', {
      chunks: [{ id: 'a', title: 'A', text: 'alpha', score: 1 }],
      mode: 'hybrid',
    });
    assert.equal(verdict.ok && verdict.value.relevant, false);
    const empty = await judge.judge('q', { chunks: [], mode: 'hybrid' });
    assert.equal(empty.ok && empty.value.relevant, false);
    assert.equal(llm.chats.length, 1);
  });

  it('cosine relevance reuses retrieval vectors and embeds only what is missing', async () => {
    const llm = llmWith((_m, texts) => ({ ok: true, value: texts.map(axis) }));
    const judge = createCosineRelevance(llm, 'e', 0.5);
    const reused = await judge.judge('q', {
      chunks: [{ id: 'a', title: 'A', text: 'x', score: 1, embedding: [1, 0, 0] }],
      mode: 'hybrid',
      queryEmbedding: [1, 0, 0],
    });
    assert.equal(reused.ok && reused.value.relevant, true);
    assert.equal(llm.embeds.length, 0);
    const computed = await judge.judge('alpha?', {
      chunks: [
        { id: 'b', title: 'B', text: 'beta', score: 1 },
        { id: 'c', title: 'C', text: 'gamma', score: 1 },
      ],
      mode: 'bm25_only',
    });
    assert.ok(computed.ok);
    assert.equal(computed.value.relevant, false);
    assert.equal(computed.value.score, 0);
    assert.deepEqual(llm.embeds, [['alpha?', 'B\nbeta', 'C\ngamma']]);
  });
});
