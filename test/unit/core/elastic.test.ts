/**
 * The Elasticsearch adapter and ingestion against @elastic/elasticsearch-mock,
 * matching the exact request bodies the real client sends.
 */
import { Client, errors } from '@elastic/elasticsearch';
import Mock from '@elastic/elasticsearch-mock';
import assert from 'node:assert/strict';
// internal-import: the request bodies sent to Elasticsearch, checked without a cluster
import {
  bm25Body,
  indexMappings,
  indexSettings,
  ingestPipelineBody,
  knnBody,
} from '../../../src/core/retrieval/elastic';
// internal-import: how a bulk response's failures are counted, tested without Elasticsearch
import { bulkItemFailures } from '../../../src/core/retrieval/bulkFailures';
import {
  createElasticRetrieval,
  INGEST_PIPELINE,
  ingestKnowledge,
  type IngestEvent,
  type BulkBatchFailure,
  type EmbedFn,
} from '../../../src/core';

const INDEX = 'avap-kb-test';
const QVEC = [0.1, 0.2, 0.3];

function hit(id: string, score = 1, extra: Record<string, unknown> = {}) {
  return {
    _index: INDEX,
    _id: id,
    _score: score,
    _source: {
      chunk_id: id,
      title: `T-${id}`,
      heading: 'Overview',
      content: `text of ${id}`,
      source: `docs/${id}.md`,
      embedding: [1, 0, 0],
      ...extra,
    },
  };
}

function searchResponse(hits: ReturnType<typeof hit>[]) {
  return {
    took: 1,
    timed_out: false,
    _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    hits: { total: { value: hits.length, relation: 'eq' }, max_score: 1, hits },
  };
}

const embedOk: EmbedFn = (texts) => Promise.resolve({ ok: true, value: texts.map(() => QVEC) });

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
    mock.add({ method: 'POST', path: `/${INDEX}/_search`, body: bm25Body('encodeSHA256 hash', 32) }, () =>
      searchResponse(lexical),
    );
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
    assert.deepEqual(
      chunks.slice(0, 4).map((c) => c.id),
      ['a', 'c', 'b', 'k'],
    );
    assert.ok(Math.abs((chunks[0]?.score ?? 0) - (1 / 61 + 1 / 63)) < 1e-12);
    assert.equal(chunks[0]?.title, 'T-a — Overview');
    assert.equal(chunks[0]?.text, 'text of a');
    assert.deepEqual(chunks[0]?.embedding, [1, 0, 0]);
  });

  it('knn_only: a single kNN search of topK, tagged knn_only', async () => {
    mock.add({ method: 'POST', path: `/${INDEX}/_search`, body: knnBody(QVEC, 8) }, () =>
      searchResponse([hit('x', 0.9), hit('y', 0.8)]),
    );
    const retrieval = createElasticRetrieval({ client, index: INDEX, embed: embedOk, mode: 'knn_only' });
    const outcome = await retrieval.retrieve('q', { topK: 8 });
    assert.ok(outcome.ok);
    assert.equal(outcome.value.mode, 'knn_only');
    assert.deepEqual(
      outcome.value.chunks.map((c) => [c.id, c.score]),
      [
        ['x', 0.9],
        ['y', 0.8],
      ],
    );
  });

  it('without a query embedding: BM25 alone, tagged bm25_only', async () => {
    mock.add({ method: 'POST', path: `/${INDEX}/_search`, body: bm25Body('q', 8) }, () =>
      searchResponse([hit('z', 3.2)]),
    );
    const retrieval = createElasticRetrieval({
      client,
      index: INDEX,
      embed: () => Promise.resolve({ ok: false, error: { code: 'model-missing', message: 'not pulled' } }),
    });
    const outcome = await retrieval.retrieve('q', { topK: 8 });
    assert.ok(outcome.ok);
    assert.equal(outcome.value.mode, 'bm25_only');
    assert.deepEqual(
      outcome.value.chunks.map((c) => c.id),
      ['z'],
    );
    assert.equal(
      outcome.value.fallback,
      'hybrid needs embeddings: the embedding model could not embed the query (model-missing: not pulled)',
    );
  });

  it('an Elasticsearch error is data (retrieval-failed), not an exception', async () => {
    mock.add(
      { method: 'POST', path: `/${INDEX}/_search` },
      () =>
        new errors.ResponseError({
          body: { error: { type: 'index_not_found_exception' }, status: 404 },
          statusCode: 404,
          headers: {},
          warnings: null,
          meta: {} as never,
        }),
    );
    const retrieval = createElasticRetrieval({ client, index: INDEX });
    const outcome = await retrieval.retrieve('q', { topK: 8 });
    assert.equal(outcome.ok, false);
    assert.equal(!outcome.ok && outcome.error.code, 'retrieval-failed');
    assert.match(!outcome.ok ? outcome.error.message : '', /404/);
  });

  it('ingestion: pipeline, mapping with text + dense_vector and version metadata, bulk with embeddings', async () => {
    const chunks = [
      {
        id: 'cmd-addVar::overview',
        title: 'addVar',
        heading: 'Overview',
        text: 'addVar(target, value)',
        sourceDoc: 'docs/addVar.md',
      },
      {
        id: 'cmd-addResult::overview',
        title: 'addResult',
        heading: 'Overview',
        text: 'addResult(variable)',
        sourceDoc: 'docs/addResult.md',
      },
      { id: 'ch-loops::overview', title: 'Loops', text: 'startLoop … endLoop', sourceDoc: 'docs/loops.md' },
    ];
    const vectors = [
      [1, 0],
      [0, 1],
      [0.5, 0.5],
    ];
    const now = new Date('2026-01-02T03:04:05.000Z');
    const meta = {
      index_version: 1,
      ingestion_pipeline: INGEST_PIPELINE,
      corpus_fingerprint: 'abc123',
      embedding_model: 'qwen3-embedding:0.6b',
      dims: 2,
      chunks: 3,
      created_at: now.toISOString(),
    };
    const calls: string[] = [];
    mock.add({ method: 'HEAD', path: `/${INDEX}` }, () => {
      calls.push('exists');
      return new errors.ResponseError({ body: '', statusCode: 404, headers: {}, warnings: null, meta: {} as never });
    });
    mock.add({ method: 'PUT', path: `/_ingest/pipeline/${INGEST_PIPELINE}`, body: ingestPipelineBody() }, () => {
      calls.push('pipeline');
      return { acknowledged: true };
    });
    mock.add(
      { method: 'PUT', path: `/${INDEX}`, body: { settings: indexSettings(), mappings: indexMappings(meta) } },
      () => {
        calls.push('create');
        return { acknowledged: true, shards_acknowledged: true, index: INDEX };
      },
    );
    const expectedBulk = [
      { index: { _index: INDEX, _id: 'cmd-addVar::overview' } },
      {
        chunk_id: 'cmd-addVar::overview',
        title: 'addVar',
        heading: 'Overview',
        content: 'addVar(target, value)',
        text: 'addVar — Overview',
        source: 'docs/addVar.md',
        embedding: [1, 0],
      },
      { index: { _index: INDEX, _id: 'cmd-addResult::overview' } },
      {
        chunk_id: 'cmd-addResult::overview',
        title: 'addResult',
        heading: 'Overview',
        content: 'addResult(variable)',
        text: 'addResult — Overview',
        source: 'docs/addResult.md',
        embedding: [0, 1],
      },
      { index: { _index: INDEX, _id: 'ch-loops::overview' } },
      {
        chunk_id: 'ch-loops::overview',
        title: 'Loops',
        heading: '',
        content: 'startLoop … endLoop',
        text: 'Loops',
        source: 'docs/loops.md',
        embedding: [0.5, 0.5],
      },
    ];
    mock.add({ method: 'POST', path: '/_bulk', body: expectedBulk, querystring: { refresh: 'wait_for' } }, () => {
      calls.push('bulk');
      return {
        took: 1,
        errors: false,
        items: expectedBulk.filter((_, i) => i % 2 === 0).map(() => ({ index: { status: 201 } })),
      };
    });
    const embedded: string[] = [];
    const result = await ingestKnowledge({
      client,
      index: INDEX,
      chunks,
      embeddingModel: 'qwen3-embedding:0.6b',
      corpusFingerprint: 'abc123',
      now: () => now,
      embed: (texts) => {
        embedded.push(...texts);
        return Promise.resolve({
          ok: true,
          value: texts.map((_, i) => vectors[embedded.length - texts.length + i] as number[]),
        });
      },
    });
    assert.deepEqual(result, { ok: true, value: { meta, indexed: 3, failures: [] } });
    assert.deepEqual(calls, ['exists', 'pipeline', 'create', 'bulk']);
    assert.equal(embedded[0], 'addVar — Overview\naddVar(target, value)');
    const mapping = indexMappings(meta) as { properties: Record<string, unknown>; _meta: unknown };
    assert.deepEqual(mapping.properties.embedding, {
      type: 'dense_vector',
      dims: 2,
      index: true,
      similarity: 'cosine',
    });
    assert.deepEqual(mapping.properties.content, { type: 'text' });
    assert.deepEqual(mapping._meta, meta);
  });

  it('ingestion refuses to overwrite an existing index unless asked to', async () => {
    mock.add({ method: 'HEAD', path: `/${INDEX}` }, () => '');
    let embedded = 0;
    const result = await ingestKnowledge({
      client,
      index: INDEX,
      chunks: [{ id: 'a', title: 'A', text: 'a' }],
      embeddingModel: 'm',
      corpusFingerprint: 'f',
      embed: (texts) => {
        embedded += texts.length;
        return Promise.resolve({ ok: true, value: texts.map(() => [1]) });
      },
    });
    assert.deepEqual(result, {
      ok: false,
      error: { kind: 'index-exists', message: `index '${INDEX}' already exists — pass --recreate to replace it` },
    });
    assert.equal(embedded, 0, 'checked before any embedding work');
  });

  describe('ingestion progress and partial failures', () => {
    const chunks = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, title: id.toUpperCase(), text: `text ${id}` }));
    const notFound = () =>
      new errors.ResponseError({ body: '', statusCode: 404, headers: {}, warnings: null, meta: {} as never });
    const ingest = (extra: Partial<Parameters<typeof ingestKnowledge>[0]> = {}) => {
      const events: IngestEvent[] = [];
      const result = ingestKnowledge({
        client,
        index: INDEX,
        chunks,
        embeddingModel: 'm',
        corpusFingerprint: 'f',
        batchSize: 2,
        embed: (texts) => Promise.resolve({ ok: true, value: texts.map(() => [1, 2]) }),
        onEvent: (e) => events.push(e),
        ...extra,
      });
      return { events, result };
    };
    let bulkCalls: { operations: number; refresh: string | undefined }[];
    beforeEach(() => {
      bulkCalls = [];
      mock.add({ method: 'HEAD', path: `/${INDEX}` }, notFound);
      mock.add({ method: 'PUT', path: `/_ingest/pipeline/${INGEST_PIPELINE}` }, () => ({ acknowledged: true }));
      mock.add({ method: 'PUT', path: `/${INDEX}` }, () => ({ acknowledged: true }));
    });
    const okItem = (id: string) => ({ index: { _index: INDEX, _id: id, status: 201, result: 'created' } });
    const bulkAnswers = (answers: ((ids: string[]) => Record<string, unknown> | Error)[]) => {
      mock.add({ method: 'POST', path: '/_bulk' }, (params) => {
        const body = params.body as Record<string, { _id: string }>[];
        const ids = body.filter((_, i) => i % 2 === 0).map((op) => op.index?._id ?? '');
        bulkCalls.push({ operations: body.length, refresh: params.querystring?.refresh });
        return (answers[bulkCalls.length - 1] ?? ((i: string[]) => ({ took: 1, errors: false, items: i.map(okItem) })))(
          ids,
        ) as Record<string, unknown>;
      });
    };

    it('reports each phase and batch: documents done / total and refused so far', async () => {
      bulkAnswers([]);
      const { events, result } = ingest();
      const r = await result;
      assert.ok(r.ok);
      assert.equal(r.value.indexed, 5);
      assert.deepEqual(r.value.failures, []);
      assert.deepEqual(events, [
        { kind: 'phase', phase: 'embedding', total: 5, batches: 3 },
        { kind: 'batch', phase: 'embedding', batch: 1, batches: 3, documents: 2, done: 2, total: 5, failed: 0 },
        { kind: 'batch', phase: 'embedding', batch: 2, batches: 3, documents: 2, done: 4, total: 5, failed: 0 },
        { kind: 'batch', phase: 'embedding', batch: 3, batches: 3, documents: 1, done: 5, total: 5, failed: 0 },
        { kind: 'note', message: `created index ${INDEX} (version 1, 2-d vectors)` },
        { kind: 'phase', phase: 'bulk', total: 5, batches: 3 },
        { kind: 'batch', phase: 'bulk', batch: 1, batches: 3, documents: 2, done: 2, total: 5, failed: 0 },
        { kind: 'batch', phase: 'bulk', batch: 2, batches: 3, documents: 2, done: 4, total: 5, failed: 0 },
        { kind: 'batch', phase: 'bulk', batch: 3, batches: 3, documents: 1, done: 5, total: 5, failed: 0 },
      ]);
      assert.deepEqual(bulkCalls, [
        { operations: 4, refresh: 'false' },
        { operations: 4, refresh: 'false' },
        { operations: 2, refresh: 'wait_for' },
      ]);
    });

    it('loads every batch and reports, per batch, how many documents were refused and why (from the bulk items)', async () => {
      const refused = (id: string, type: string, reason: string, causedBy?: { type: string; reason: string }) => ({
        index: {
          _index: INDEX,
          _id: id,
          status: 400,
          error: { type, reason, ...(causedBy ? { caused_by: causedBy } : {}) },
        },
      });
      bulkAnswers([
        (ids) => ({ took: 1, errors: false, items: ids.map(okItem) }),
        () => ({
          took: 1,
          errors: true,
          items: [
            refused('c', 'document_parsing_exception', 'failed to parse field [embedding]', {
              type: 'illegal_argument_exception',
              reason: 'wrong dims',
            }),
            refused('d', 'document_parsing_exception', 'failed to parse field [embedding]', {
              type: 'illegal_argument_exception',
              reason: 'wrong dims',
            }),
          ],
        }),
        () => ({
          took: 1,
          errors: true,
          items: [
            refused(
              'e',
              'strict_dynamic_mapping_exception',
              'mapping set to strict, dynamic introduction of [x] is not allowed',
            ),
          ],
        }),
      ]);
      const { events, result } = ingest();
      const r = await result;
      assert.ok(r.ok);
      assert.equal(r.value.indexed, 2);
      const expected: BulkBatchFailure[] = [
        {
          batch: 2,
          batches: 3,
          documents: 2,
          failed: 2,
          causes: [
            {
              cause:
                'document_parsing_exception: failed to parse field [embedding] (caused by illegal_argument_exception: wrong dims)',
              count: 2,
              ids: ['c', 'd'],
            },
          ],
        },
        {
          batch: 3,
          batches: 3,
          documents: 1,
          failed: 1,
          causes: [
            {
              cause:
                'strict_dynamic_mapping_exception: mapping set to strict, dynamic introduction of [x] is not allowed',
              count: 1,
              ids: ['e'],
            },
          ],
        },
      ];
      assert.deepEqual(r.value.failures, expected);
      assert.equal(bulkCalls.length, 3, 'a batch with refusals does not stop the others');
      assert.deepEqual(
        events.filter((e) => e.kind === 'batch-failed'),
        expected.map((failure) => ({ kind: 'batch-failed', failure })),
      );
      assert.deepEqual(
        events
          .filter((e) => e.kind === 'batch' && e.phase === 'bulk')
          .map((e) => e.kind === 'batch' && [e.done, e.failed]),
        [
          [2, 0],
          [4, 2],
          [5, 3],
        ],
      );
    });

    it('groups many refusals of one cause, keeping the first ids', () => {
      const items = ['a', 'b', 'c', 'd', 'e'].map((id) => ({
        index: { _id: id, status: 400, error: { type: 't', reason: 'r' } },
      }));
      assert.deepEqual(bulkItemFailures([{ index: { _id: 'ok', status: 201 } }, ...items]), {
        failed: 5,
        causes: [{ cause: 't: r', count: 5, ids: ['a', 'b', 'c'] }],
      });
    });

    it('a bulk request that fails as a whole stops, naming the batch and what was loaded before', async () => {
      bulkAnswers([
        (ids) => ({ took: 1, errors: false, items: ids.map(okItem) }),
        () =>
          new errors.ResponseError({
            body: { error: { type: 'es_rejected_execution_exception' } },
            statusCode: 429,
            headers: {},
            warnings: null,
            meta: {} as never,
          }),
      ]);
      const r = await ingest().result;
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.error.kind, 'elasticsearch-failed');
      assert.match(
        !r.ok ? r.error.message : '',
        /^Elasticsearch: bulk batch 2\/3 failed: ResponseError 429: .*\(2 of 5 documents were loaded before it\)$/,
      );
      assert.equal(bulkCalls.length, 2);
    });

    it('names the batch the embedding model failed on, and refuses a short answer', async () => {
      let calls = 0;
      const failing = await ingest({
        embed: (texts) =>
          Promise.resolve(
            ++calls === 2
              ? { ok: false, error: { code: 'llm-unreachable', message: 'connection refused' } }
              : { ok: true, value: texts.map(() => [1]) },
          ),
      }).result;
      assert.deepEqual(failing, {
        ok: false,
        error: {
          kind: 'embedding-failed',
          message: 'cannot embed the knowledge base (batch 2/3, documents 3–4 of 5): connection refused',
        },
      });
      const short = await ingest({ embed: () => Promise.resolve({ ok: true, value: [[1]] }) }).result;
      assert.deepEqual(short, {
        ok: false,
        error: {
          kind: 'embedding-failed',
          message: 'the embedding model returned 1 vectors for 2 texts (batch 1/3, documents 1–2 of 5)',
        },
      });
    });

    it('stops between batches when cancelled', async () => {
      bulkAnswers([]);
      const controller = new AbortController();
      let calls = 0;
      const r = await ingest({
        signal: controller.signal,
        embed: (texts) => {
          if (++calls === 2) controller.abort();
          return Promise.resolve({ ok: true, value: texts.map(() => [1]) });
        },
      }).result;
      assert.deepEqual(r, { ok: false, error: { kind: 'cancelled', message: 'cancelled' } });
      assert.equal(calls, 2);
      assert.equal(bulkCalls.length, 0);
    });
  });
});
