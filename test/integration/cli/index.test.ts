/**
 * `index` run from outside: the built CLI as a child process with stderr
 * piped (not a terminal), embedding over a real socket with the scripted
 * Ollama server and bulk loading into elasticsearch-mock behind a real HTTP
 * socket. Progress comes as one plain line per batch; a bulk batch in which
 * Elasticsearch refuses documents is reported with its count and cause, the
 * other batches are still loaded, and the exit code is 2.
 */
import { errors } from '@elastic/elasticsearch';
import { strict as assert } from 'node:assert';
import { loadKnowledgeBase } from '../../../src/knowledge';
import { INGEST_PIPELINE } from '../../../src/core';
import { runCliProcess } from '../../support/dist';
import { startMockElasticsearch, type MockElasticsearch } from '../../support/elasticsearchHttp';
import { startScriptedOllama, type ScriptedOllama } from '../../support/scriptedOllama';

const INDEX = 'avap-kb-progress';
const ENV = {
  AVAP_ES_URL: undefined,
  AVAP_ES_API_KEY: undefined,
  AVAP_ES_INDEX: undefined,
  OLLAMA_HOST: undefined,
  OLLAMA_EMBEDDING_MODEL: undefined,
};
const ELAPSED = '(\\d+\\.\\ds|\\d+s|\\d+m\\d\\ds)';
const RATE = '(\\d+\\.\\d+|\\d+)';

describe('index (the CLI as a child process, stderr piped)', function () {
  this.timeout(60_000);
  let ollama: ScriptedOllama;
  let es: MockElasticsearch;
  let bulkCalls: number;
  const kb = loadKnowledgeBase();
  assert.ok(kb.ok);
  const total = kb.value.chunks.length;
  const batches = Math.ceil(total / 32);

  before(async () => {
    ollama = await startScriptedOllama();
  });
  after(async () => {
    await ollama.close();
  });
  beforeEach(async () => {
    bulkCalls = 0;
    es = await startMockElasticsearch();
    es.mock.add(
      { method: 'HEAD', path: `/${INDEX}` },
      () => new errors.ResponseError({ body: '', statusCode: 404, headers: {}, warnings: null, meta: {} as never }),
    );
    es.mock.add({ method: 'PUT', path: `/_ingest/pipeline/${INGEST_PIPELINE}` }, () => ({ acknowledged: true }));
    es.mock.add({ method: 'PUT', path: `/${INDEX}` }, () => ({
      acknowledged: true,
      shards_acknowledged: true,
      index: INDEX,
    }));
  });
  afterEach(async () => {
    await es.close();
  });

  /** Bulk answers: every document created, except in batch `refuseIn`, where the first two are refused. */
  function bulk(refuseIn?: number) {
    es.mock.add({ method: 'POST', path: '/_bulk' }, (params) => {
      bulkCalls++;
      const ids = (params.body as { index?: { _id: string } }[])
        .filter((op) => op.index)
        .map((op) => op.index?._id ?? '');
      const items = ids.map((id, i) =>
        bulkCalls === refuseIn && i < 2
          ? {
              index: {
                _index: INDEX,
                _id: id,
                status: 400,
                error: {
                  type: 'document_parsing_exception',
                  reason: '[1:2] failed to parse field [embedding] of type [dense_vector]',
                  caused_by: {
                    type: 'illegal_argument_exception',
                    reason:
                      'The [dense_vector] field [embedding] has a different number of dimensions [63] than defined in the mapping [64]',
                  },
                },
              },
            }
          : { index: { _index: INDEX, _id: id, status: 201, result: 'created' } },
      );
      return { took: 1, errors: items.some((i) => i.index.status >= 400), items };
    });
  }
  const run = (extra: string[] = []) =>
    runCliProcess(
      [
        'index',
        '--es-url',
        es.url,
        '--index',
        INDEX,
        '--ollama-url',
        ollama.url,
        '--embedding-model',
        'scripted-embed:1',
        ...extra,
      ],
      { env: ENV, killAfterMs: 50_000 },
    );
  const sizes = (b: number) => Math.min(32 * b, total);

  it('prints one plain line per batch: documents done / total, rate, elapsed, time left', async () => {
    bulk();
    const result = await run();
    assert.equal(result.code, 0, result.stderr);
    assert.ok(
      !result.stderr.includes('\r') && !result.stderr.includes('\u001b'),
      'no carriage returns or escape sequences in a pipe',
    );
    const lines = result.stderr.trimEnd().split('\n');
    const expected = [
      ...Array.from(
        { length: batches },
        (_, b) =>
          `embedding · batch ${b + 1}/${batches} · ${sizes(b + 1)}/${total} documents · ${RATE} documents/s · ${ELAPSED} elapsed · ~${ELAPSED} left`,
      ),
      `created index ${INDEX} \\(version 1, 64-d vectors\\)`,
      ...Array.from(
        { length: batches },
        (_, b) =>
          `bulk loading · batch ${b + 1}/${batches} · ${sizes(b + 1)}/${total} documents · 0 failed · ${RATE} documents/s · ${ELAPSED} elapsed · ~${ELAPSED} left`,
      ),
    ];
    assert.equal(lines.length, expected.length, result.stderr);
    lines.forEach((line, i) => assert.match(line, new RegExp(`^${expected[i]}$`), line));
    assert.match(lines[batches - 1] ?? '', /· ~0\.0s left$/, 'nothing left after the last batch');
    assert.match(
      result.stdout,
      new RegExp(
        `^indexed ${total} chunks into ${INDEX} \\(index version 1, pipeline ${INGEST_PIPELINE}, 64-d scripted-embed:1, corpus [0-9a-f]{16}\\)\\n$`,
      ),
    );
    assert.equal(bulkCalls, batches);
  });

  it('reports a batch with refused documents (which, how many, why), loads the rest, and exits 2', async () => {
    bulk(3);
    const result = await run();
    assert.equal(result.code, 2, result.stderr);
    assert.equal(bulkCalls, batches, 'the batches after the refusal are still loaded');
    const refusal = result.stderr.split('\n').filter((l) => l.startsWith('bulk batch '));
    assert.equal(refusal.length, 1, result.stderr);
    assert.match(
      refusal[0] ?? '',
      new RegExp(
        `^bulk batch 3/${batches}: 2 of 32 documents refused — 2 × document_parsing_exception: \\[1:2\\] failed to parse field \\[embedding\\] of type \\[dense_vector\\] \\(caused by illegal_argument_exception: The \\[dense_vector\\] field \\[embedding\\] has a different number of dimensions \\[63\\] than defined in the mapping \\[64\\]\\) \\[[^,\\]]+, [^,\\]]+\\]$`,
      ),
    );
    assert.match(
      result.stderr,
      new RegExp(`^bulk loading · batch 3/${batches} · 96/${total} documents · 2 failed · `, 'm'),
    );
    assert.match(
      result.stderr,
      new RegExp(`^bulk loading · batch ${batches}/${batches} · ${total}/${total} documents · 2 failed · `, 'm'),
    );
    assert.match(
      result.stderr,
      new RegExp(
        `avap index: Elasticsearch refused 2 of ${total} documents in 1 of ${batches} bulk batches \\(listed above\\); the index is incomplete — fix the cause and run again with --recreate\\n$`,
      ),
    );
    assert.match(result.stdout, new RegExp(`^indexed ${total - 2} of ${total} chunks into ${INDEX} `));
  });

  it('--quiet drops the progress but still reports refused documents', async () => {
    bulk(1);
    const result = await run(['--quiet']);
    assert.equal(result.code, 2, result.stderr);
    const lines = result.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 2, result.stderr);
    assert.match(lines[0] ?? '', new RegExp(`^bulk batch 1/${batches}: 2 of 32 documents refused — `));
    assert.match(lines[1] ?? '', /^avap index: Elasticsearch refused 2 of /);
  });

  it('--quiet on success: nothing on stderr, the summary on stdout', async () => {
    bulk();
    const result = await run(['--quiet']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    assert.match(result.stdout, new RegExp(`^indexed ${total} chunks into ${INDEX} `));
  });
});
