/**
 * The Elasticsearch adapter and ingestion against @elastic/elasticsearch-mock,
 * matching the exact request bodies the real client sends.
 */
import { Client, errors } from '@elastic/elasticsearch';
import Mock from '@elastic/elasticsearch-mock';
import assert from 'node:assert/strict';
import {
  bm25Body, createElasticRetrieval, indexMappings, indexSettings, INGEST_PIPELINE, ingestKnowledge, ingestPipelineBody, knnBody,
} from '../../../src/core/retrieval/elastic';
import type { EmbedFn } from '../../../src/core/retrieval/embedded';

const INDEX = 'avap-kb-test';
const QVEC = [0.1, 0.2, 0.3];

function hit(id: string, score = 1, extra: Record<string, unknown> = {}) {
  return { _index: INDEX, _id: id, _score: score, _source: { chunk_id: id, title: `T-${id}`, heading: 'Overview', content: `text of ${id}`, source: `docs/${id}.md`, embedding: [1, 0, 0], ...extra } };
}

function searchResponse(hits: ReturnType<typeof hit>[]) {
  return { took: 1, timed_out: false, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 }, hits: { total: { value: hits.length, relation: 'eq' }, max_score: 1, hits } };
}

const embedOk: EmbedFn = async (texts) => ({ ok: true, value: texts.map(() => QVEC) });

describe('core/retrieval Elasticsearch adapter (elasticsearch-mock)', () => {
  let mock: Mock;
  let client: Client;

  beforeEach(() => {
    mock = new Mock();
    client = new Client({ node: 'http://localhost:9200', Connection: mock.getConnection() });
  });

  it('hybrid: exact BM25 and kNN bodies, fused with RRF k=60, top 8', async () => {
    const lexical = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].map((id) => hit(id));
    const dense = ['c', 'k', 'a', 'l'].map((id) => hit(id));
    mock.add({ method: 'POST', path: `/${INDEX}/_search`, body: bm25Body('encodeSHA256 hash', 32) }, () => searchResponse(lexical));
    mock.add({ method: 'POST', path: `/${INDEX}/_search`, body: knnBody(QVEC, 32) }, () => searchResponse(dense));
    assert.deepEqual(bm25Body('encodeSHA256 hash', 32), {
      size: 32,
      query: { multi_match: { query: 'encodeSHA256 hash', fields: ['content^2', 'text^2'] } },
      _source: ['chunk_id', 'title', 'heading', 'content', 'source', 'embedding'],
    });
    assert.deepEqual(knnBody(QVEC, 32), {
      size: 32,
      knn: { field: 'embedding', query_vector: QVEC, k: 32, num_candidates: 128 },
      _source: ['chunk_id', 'title', 'heading', 'content', 'source', 'embedding'],
    });

    const retrieval = createElasticRetrieval({ client, index: INDEX, embed: embedOk });
    const outcome = await retrieval.retrieve('encodeSHA256 hash', { topK: 8 });
    assert.ok(outcome.ok);
    const { chunks, mode, queryEmbedding } = outcome.value;
    assert.equal(mode, 'hybrid');
    assert.deepEqual(queryEmbedding, QVEC);
    assert.equal(chunks.length, 8);
    // a: 1/61 + 1/63 and c: 1/63 + 1/61 tie (both have a rank 1 → id order); b (BM25 #2) and k (kNN #2) tie at 1/62.
    assert.deepEqual(chunks.slice(0, 4).map((c) => c.id), ['a', 'c', 'b', 'k']);
    assert.ok(Math.abs((chunks[0]?.score ?? 0) - (1 / 61 + 1 / 63)) < 1e-12);
    assert.equal(chunks[0]?.title, 'T-a — Overview');
    assert.equal(chunks[0]?.text, 'text of a');
    assert.deepEqual(chunks[0]?.embedding, [1, 0, 0]);
  });

  it('knn_only: a single kNN search of topK, tagged knn_only', async () => {
    mock.add({ method: 'POST', path: `/${INDEX}/_search`, body: knnBody(QVEC, 8) }, () => searchResponse([hit('x', 0.9), hit('y', 0.8)]));
    const retrieval = createElasticRetrieval({ client, index: INDEX, embed: embedOk, mode: 'knn_only' });
    const outcome = await retrieval.retrieve('q', { topK: 8 });
    assert.ok(outcome.ok);
    assert.equal(outcome.value.mode, 'knn_only');
    assert.deepEqual(outcome.value.chunks.map((c) => [c.id, c.score]), [['x', 0.9], ['y', 0.8]]);
  });

  it('without a query embedding: BM25 alone, tagged bm25_only', async () => {
    mock.add({ method: 'POST', path: `/${INDEX}/_search`, body: bm25Body('q', 8) }, () => searchResponse([hit('z', 3.2)]));
    const retrieval = createElasticRetrieval({
      client, index: INDEX, embed: async () => ({ ok: false, error: { code: 'model-missing', message: 'not pulled' } }),
    });
    const outcome = await retrieval.retrieve('q', { topK: 8 });
    assert.ok(outcome.ok);
    assert.equal(outcome.value.mode, 'bm25_only');
    assert.deepEqual(outcome.value.chunks.map((c) => c.id), ['z']);
  });

  it('an Elasticsearch error is data (retrieval-failed), not an exception', async () => {
    mock.add({ method: 'POST', path: `/${INDEX}/_search` }, () => new errors.ResponseError({
      body: { error: { type: 'index_not_found_exception' }, status: 404 }, statusCode: 404, headers: {}, warnings: null, meta: {} as never,
    }));
    const retrieval = createElasticRetrieval({ client, index: INDEX });
    const outcome = await retrieval.retrieve('q', { topK: 8 });
    assert.equal(outcome.ok, false);
    assert.equal(!outcome.ok && outcome.error.code, 'retrieval-failed');
    assert.match(!outcome.ok ? outcome.error.message : '', /404/);
  });

  it('ingestion: pipeline, mapping with text + dense_vector and version metadata, bulk with embeddings', async () => {
    const chunks = [
      { id: 'cmd-addVar::overview', title: 'addVar', heading: 'Overview', text: 'addVar(target, value)', sourceDoc: 'docs/addVar.md' },
      { id: 'cmd-addResult::overview', title: 'addResult', heading: 'Overview', text: 'addResult(variable)', sourceDoc: 'docs/addResult.md' },
      { id: 'ch-loops::overview', title: 'Loops', text: 'startLoop … endLoop', sourceDoc: 'docs/loops.md' },
    ];
    const vectors = [[1, 0], [0, 1], [0.5, 0.5]];
    const now = new Date('2026-01-02T03:04:05.000Z');
    const meta = {
      index_version: 1, ingestion_pipeline: INGEST_PIPELINE, corpus_fingerprint: 'abc123', embedding_model: 'qwen3-embedding:0.6b',
      dims: 2, chunks: 3, created_at: now.toISOString(),
    };
    const calls: string[] = [];
    mock.add({ method: 'HEAD', path: `/${INDEX}` }, () => { calls.push('exists'); return new errors.ResponseError({ body: '', statusCode: 404, headers: {}, warnings: null, meta: {} as never }); });
    mock.add({ method: 'PUT', path: `/_ingest/pipeline/${INGEST_PIPELINE}`, body: ingestPipelineBody() }, () => { calls.push('pipeline'); return { acknowledged: true }; });
    mock.add({ method: 'PUT', path: `/${INDEX}`, body: { settings: indexSettings(), mappings: indexMappings(meta) } }, () => {
      calls.push('create');
      return { acknowledged: true, shards_acknowledged: true, index: INDEX };
    });
    const expectedBulk = [
      { index: { _index: INDEX, _id: 'cmd-addVar::overview' } },
      { chunk_id: 'cmd-addVar::overview', title: 'addVar', heading: 'Overview', content: 'addVar(target, value)', text: 'addVar — Overview', source: 'docs/addVar.md', embedding: [1, 0] },
      { index: { _index: INDEX, _id: 'cmd-addResult::overview' } },
      { chunk_id: 'cmd-addResult::overview', title: 'addResult', heading: 'Overview', content: 'addResult(variable)', text: 'addResult — Overview', source: 'docs/addResult.md', embedding: [0, 1] },
      { index: { _index: INDEX, _id: 'ch-loops::overview' } },
      { chunk_id: 'ch-loops::overview', title: 'Loops', heading: '', content: 'startLoop … endLoop', text: 'Loops', source: 'docs/loops.md', embedding: [0.5, 0.5] },
    ];
    mock.add({ method: 'POST', path: '/_bulk', body: expectedBulk, querystring: { refresh: 'wait_for' } }, () => {
      calls.push('bulk');
      return { took: 1, errors: false, items: expectedBulk.filter((_, i) => i % 2 === 0).map(() => ({ index: { status: 201 } })) };
    });
    const embedded: string[] = [];
    const result = await ingestKnowledge({
      client, index: INDEX, chunks, embeddingModel: 'qwen3-embedding:0.6b', corpusFingerprint: 'abc123', now: () => now,
      embed: async (texts) => { embedded.push(...texts); return { ok: true, value: texts.map((_, i) => vectors[embedded.length - texts.length + i] as number[]) }; },
    });
    assert.deepEqual(result, { ok: true, meta, indexed: 3 });
    assert.deepEqual(calls, ['exists', 'pipeline', 'create', 'bulk']);
    assert.equal(embedded[0], 'addVar — Overview\naddVar(target, value)');
    const mapping = indexMappings(meta) as { properties: Record<string, unknown>; _meta: unknown };
    assert.deepEqual(mapping.properties.embedding, { type: 'dense_vector', dims: 2, index: true, similarity: 'cosine' });
    assert.deepEqual(mapping.properties.content, { type: 'text' });
    assert.deepEqual(mapping._meta, meta);
  });

  it('ingestion refuses to overwrite an existing index unless asked to', async () => {
    mock.add({ method: 'HEAD', path: `/${INDEX}` }, () => '');
    let embedded = 0;
    const result = await ingestKnowledge({
      client, index: INDEX, chunks: [{ id: 'a', title: 'A', text: 'a' }], embeddingModel: 'm', corpusFingerprint: 'f',
      embed: async (texts) => { embedded += texts.length; return { ok: true, value: texts.map(() => [1]) }; },
    });
    assert.deepEqual(result, { ok: false, error: `index '${INDEX}' already exists — pass --recreate to replace it` });
    assert.equal(embedded, 0, 'checked before any embedding work');
  });

  it('ingestion reports per-item bulk errors', async () => {
    mock.add({ method: 'HEAD', path: `/${INDEX}` }, () => new errors.ResponseError({ body: '', statusCode: 404, headers: {}, warnings: null, meta: {} as never }));
    mock.add({ method: 'PUT', path: `/_ingest/pipeline/${INGEST_PIPELINE}` }, () => ({ acknowledged: true }));
    mock.add({ method: 'PUT', path: `/${INDEX}` }, () => ({ acknowledged: true }));
    mock.add({ method: 'POST', path: '/_bulk' }, () => ({ took: 1, errors: true, items: [{ index: { status: 400, error: { type: 'mapper_parsing_exception', reason: 'bad vector' } } }] }));
    const result = await ingestKnowledge({
      client, index: INDEX, chunks: [{ id: 'a', title: 'A', text: 'a' }], embeddingModel: 'm', corpusFingerprint: 'f',
      embed: async (texts) => ({ ok: true, value: texts.map(() => [1, 2]) }),
    });
    assert.deepEqual(result, { ok: false, error: 'bulk indexing failed: mapper_parsing_exception: bad vector' });
  });
});
