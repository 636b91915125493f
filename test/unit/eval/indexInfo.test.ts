import { Client, errors } from '@elastic/elasticsearch';
import Mock from '@elastic/elasticsearch-mock';
import assert from 'node:assert/strict';
import { describeIndex } from '../../../src/eval';

describe('eval: the index recorded before a run', () => {
  it('is the embedded index and its corpus fingerprint when no Elasticsearch is configured', async () => {
    assert.deepEqual(await describeIndex({ esIndex: 'avap-knowledge-v1' }, 'fp-123'), {
      ok: true,
      value: { name: 'embedded', version: 'fp-123', pipeline: 'in-process BM25 + embeddings' },
    });
  });

  it('reads name, version and ingestion pipeline from the mapping metadata that `index` writes', async () => {
    const mock = new Mock();
    mock.add({ method: 'GET', path: '/avap-knowledge-v1/_mapping' }, () => ({
      'avap-knowledge-v1': {
        mappings: {
          _meta: { index_version: 3, ingestion_pipeline: 'avap-kb-ingest-v1', corpus_fingerprint: 'abc123' },
          properties: {},
        },
      },
    }));
    const client = new Client({ node: 'http://localhost:9200', Connection: mock.getConnection() });
    assert.deepEqual(
      await describeIndex({ esUrl: 'http://localhost:9200', esIndex: 'avap-knowledge-v1' }, 'unused', client),
      {
        ok: true,
        value: { name: 'avap-knowledge-v1', version: '3 (corpus abc123)', pipeline: 'avap-kb-ingest-v1' },
      },
    );
  });

  it('says so when the index has no metadata, and returns an error (not a throw) when it cannot be read', async () => {
    const mock = new Mock();
    mock.add({ method: 'GET', path: '/bare/_mapping' }, () => ({ bare: { mappings: { properties: {} } } }));
    mock.add(
      { method: 'GET', path: '/missing/_mapping' },
      () =>
        new errors.ResponseError({
          body: { error: { type: 'index_not_found_exception' }, status: 404 },
          statusCode: 404,
          headers: {},
          warnings: [],
          meta: {} as never,
        }),
    );
    const client = new Client({ node: 'http://localhost:9200', Connection: mock.getConnection() });
    const bare = await describeIndex({ esUrl: 'http://localhost:9200', esIndex: 'bare' }, 'x', client);
    assert.deepEqual(bare, {
      ok: true,
      value: { name: 'bare', version: 'unknown (corpus unknown)', pipeline: 'unknown' },
    });
    const missing = await describeIndex({ esUrl: 'http://localhost:9200', esIndex: 'missing' }, 'x', client);
    assert.equal(missing.ok, false);
    assert.match(
      missing.ok ? '' : missing.error.message,
      /^cannot read the index metadata of missing at http:\/\/localhost:9200: .*index_not_found_exception/,
    );
  });
});
