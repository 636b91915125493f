/**
 * The Elasticsearch retrieval adapter and the knowledge-base index it reads.
 *
 * Retrieval (hybrid, as the design retrieves: docs/design.md D2): a BM25 `multi_match` over
 * `content^2` and `text^2` and a kNN search on `embedding`, run side by side,
 * fused here with reciprocal rank fusion (k = 60), top 8. Fusing in the client
 * keeps the formula exactly the design's and works on every licence level.
 * `knn_only` mode runs the kNN search alone and tags its results; when the
 * query cannot be embedded the BM25 list alone is used, tagged `bm25_only`
 * with the reason in `fallback`, and logged.
 *
 * Index: one document per knowledge chunk with `content` (the chunk text),
 * `text` (title and heading), `embedding` (dense_vector, cosine), and the
 * index version, ingestion pipeline and corpus fingerprint in the mapping's
 * `_meta`. An ingest pipeline stamps `indexed_at`.
 */
import type { Client } from '@elastic/elasticsearch';
import type { RetrievalMode } from '../config';
import type { Logger } from '../ports';
import { silentLogger } from '../ports';
import { fail, ok, type Failure, type Result } from '../../result';
import { bulkItemFailures, type BulkBatchFailure } from './bulkFailures';
import { chunkEmbeddingText, type EmbedFn } from './embedded';
import type { KnowledgeChunkLike, RetrievalOutcome, RetrievalPort, RetrievedChunk } from './port';
import { reciprocalRankFusion } from './rrf';

const INDEX_VERSION = 1;
/** @internal */
export const INGEST_PIPELINE = 'avap-kb-ingest-v1';
const SOURCE_FIELDS = ['chunk_id', 'title', 'heading', 'content', 'source', 'embedding'];
const BM25_FIELDS = ['content^2', 'text^2'];

interface ChunkDocument {
  chunk_id: string;
  title: string;
  heading: string;
  /** The chunk body. */
  content: string;
  /** Title and heading: the short text BM25 also boosts. */
  text: string;
  source: string;
  embedding: number[];
}

export interface IndexMeta {
  index_version: number;
  ingestion_pipeline: string;
  corpus_fingerprint: string;
  embedding_model: string;
  dims: number;
  chunks: number;
  created_at: string;
}

/** @internal */
export function indexSettings(): Record<string, unknown> {
  return { number_of_shards: 1, number_of_replicas: 0, 'index.default_pipeline': INGEST_PIPELINE };
}

/** @internal */
export function indexMappings(meta: IndexMeta): Record<string, unknown> {
  return {
    _meta: meta,
    dynamic: 'strict',
    properties: {
      chunk_id: { type: 'keyword' },
      title: { type: 'text' },
      heading: { type: 'text' },
      content: { type: 'text' },
      text: { type: 'text' },
      source: { type: 'keyword' },
      indexed_at: { type: 'date' },
      embedding: { type: 'dense_vector', dims: meta.dims, index: true, similarity: 'cosine' },
    },
  };
}

/** @internal */
export function ingestPipelineBody(): { description: string; processors: Record<string, unknown>[] } {
  return {
    description: `AVAP knowledge base ingestion v${INDEX_VERSION}: stamps the time each chunk was indexed`,
    processors: [{ set: { field: 'indexed_at', value: '{{{_ingest.timestamp}}}' } }],
  };
}

/** @internal */
export function bm25Body(query: string, size: number): Record<string, unknown> {
  return { size, query: { multi_match: { query, fields: BM25_FIELDS } }, _source: SOURCE_FIELDS };
}

/** @internal */
export function knnBody(vector: number[], size: number): Record<string, unknown> {
  return {
    size,
    knn: { field: 'embedding', query_vector: vector, k: size, num_candidates: Math.max(100, size * 4) },
    _source: SOURCE_FIELDS,
  };
}

function chunkDocument(chunk: KnowledgeChunkLike, embedding: number[]): ChunkDocument {
  return {
    chunk_id: chunk.id,
    title: chunk.title,
    heading: chunk.heading ?? '',
    content: chunk.text,
    text: chunk.heading ? `${chunk.title} — ${chunk.heading}` : chunk.title,
    source: chunk.sourceDoc ?? '',
    embedding,
  };
}

export interface ElasticRetrievalOptions {
  client: Client;
  index: string;
  embed?: EmbedFn;
  mode?: RetrievalMode;
  rrfK?: number;
  /** Candidates per list before fusion. Default max(4 × topK, 32). */
  window?: number;
  logger?: Logger;
  /** Per-request timeout for Elasticsearch. Default 10 s. */
  requestTimeoutMs?: number;
  /** Shown in logs, e.g. the URL. */
  label?: string;
}

interface Hit {
  _id?: string;
  _score?: number | null;
  _source?: Partial<ChunkDocument>;
}

function toChunk(hit: Hit, score: number): RetrievedChunk {
  const source = hit._source ?? {};
  const id = source.chunk_id ?? hit._id ?? '';
  const title = source.heading ? `${source.title ?? id} — ${source.heading}` : (source.title ?? id);
  return {
    id,
    title,
    text: source.content ?? '',
    score,
    ...(Array.isArray(source.embedding) ? { embedding: source.embedding } : {}),
    ...(source.source ? { source: source.source } : {}),
  };
}

function describe(err: unknown): string {
  const e = err as { name?: string; message?: string; meta?: { statusCode?: number } };
  return `${e.name ?? 'Error'}${e.meta?.statusCode ? ` ${e.meta.statusCode}` : ''}: ${e.message ?? String(err)}`;
}

export function createElasticRetrieval(options: ElasticRetrievalOptions): RetrievalPort {
  const { client, index } = options;
  const mode = options.mode ?? 'hybrid';
  const rrfK = options.rrfK ?? 60;
  const logger = options.logger ?? silentLogger;
  const requestTimeout = options.requestTimeoutMs ?? 10_000;

  async function search(body: Record<string, unknown>, signal?: AbortSignal): Promise<Hit[]> {
    const response = await client.search({ index, ...body }, { signal, requestTimeout });
    return (response.hits?.hits ?? []) as Hit[];
  }

  return {
    name: `elasticsearch ${options.label ?? ''}/${index}`.replace(' /', ' '),
    async retrieve(query, { topK, signal }): Promise<RetrievalOutcome> {
      const window = options.window ?? Math.max(topK * 4, 32);
      let vector: number[] | undefined;
      let fallback = 'no embedding model is configured';
      if (options.embed) {
        const embedded = await options.embed([query], signal);
        if (embedded.ok) vector = embedded.value[0];
        else if (embedded.error.code === 'cancelled') return { ok: false, error: embedded.error };
        fallback = embedded.ok
          ? 'the embedding model returned no vector for the query'
          : `the embedding model could not embed the query (${embedded.error.code}: ${embedded.error.message})`;
      }
      try {
        if (!vector) {
          // The configured mode cannot be honoured: BM25 alone, tagged and logged (evaluation aborts on it).
          logger.warn(
            `cannot embed the query (${fallback}) — ${mode === 'knn_only' ? 'kNN impossible, using BM25' : 'using BM25 only'} (bm25_only)`,
          );
          const hits = await search(bm25Body(query, topK), signal);
          return {
            ok: true,
            value: {
              chunks: hits.map((h) => toChunk(h, h._score ?? 0)),
              mode: 'bm25_only',
              fallback: `${mode} needs embeddings: ${fallback}`,
            },
          };
        }
        if (mode === 'knn_only') {
          const hits = await search(knnBody(vector, topK), signal);
          return {
            ok: true,
            value: { chunks: hits.map((h) => toChunk(h, h._score ?? 0)), mode: 'knn_only', queryEmbedding: vector },
          };
        }
        const [lexical, dense] = await Promise.all([
          search(bm25Body(query, window), signal),
          search(knnBody(vector, window), signal),
        ]);
        const byId = new Map<string, Hit>();
        const idOf = (h: Hit) => h._source?.chunk_id ?? h._id ?? '';
        for (const h of [...lexical, ...dense]) if (!byId.has(idOf(h))) byId.set(idOf(h), h);
        const fused = reciprocalRankFusion([lexical.map(idOf), dense.map(idOf)], rrfK, topK);
        return {
          ok: true,
          value: {
            chunks: fused.map((f) => toChunk(byId.get(f.id) as Hit, f.score)),
            mode: 'hybrid',
            queryEmbedding: vector,
          },
        };
      } catch (err) {
        if (signal?.aborted) return { ok: false, error: { code: 'cancelled', message: 'the request was cancelled' } };
        return { ok: false, error: { code: 'retrieval-failed', message: describe(err) } };
      }
    },
  };
}

export type IngestPhase = 'embedding' | 'bulk';

/**
 * How ingestion goes, for a progress display: a phase starts (embedding the
 * chunks, then bulk loading them), each batch ends (documents done so far,
 * refused so far), a bulk batch had refused documents, or a one-off step.
 */
export type IngestEvent =
  | { kind: 'phase'; phase: IngestPhase; total: number; batches: number }
  | {
      kind: 'batch';
      phase: IngestPhase;
      batch: number;
      batches: number;
      documents: number;
      done: number;
      total: number;
      failed: number;
    }
  | { kind: 'batch-failed'; failure: BulkBatchFailure }
  | { kind: 'note'; message: string };

export interface IngestOptions {
  client: Client;
  index: string;
  chunks: readonly KnowledgeChunkLike[];
  embed: EmbedFn;
  embeddingModel: string;
  corpusFingerprint: string;
  /** Delete an existing index of that name first. */
  recreate?: boolean;
  batchSize?: number;
  onEvent?: (event: IngestEvent) => void;
  /** Stops between batches and cancels the embedding and bulk calls under way. */
  signal?: AbortSignal;
  now?: () => Date;
}

/**
 * `failures` lists the bulk batches in which Elasticsearch refused documents;
 * the other batches were still loaded, and `indexed` counts what it accepted.
 */
interface Ingested {
  meta: IndexMeta;
  indexed: number;
  failures: BulkBatchFailure[];
}

/**
 * Why nothing (or not everything) was loaded: the index exists and `--recreate` was not given, the embedding model
 * failed or answered the wrong vectors, Elasticsearch failed, or the caller cancelled.
 */
type IngestFailure = Failure<'index-exists' | 'embedding-failed' | 'elasticsearch-failed' | 'cancelled'>;
export type IngestResult = Result<Ingested, IngestFailure>;

const CANCELLED: IngestResult = fail('cancelled', 'cancelled');

/** Creates the pipeline and the index (mapping + meta) and bulk-indexes every chunk with its embedding. */
export async function ingestKnowledge(options: IngestOptions): Promise<IngestResult> {
  const { client, index, chunks, signal } = options;
  const emit = options.onEvent ?? (() => undefined);
  const size = options.batchSize ?? 32;
  const total = chunks.length;
  const batches = Math.ceil(total / size);
  const batchOf = (b: number) => chunks.slice(b * size, (b + 1) * size);
  try {
    const exists = await client.indices.exists({ index });
    if (exists && !options.recreate) {
      return fail('index-exists', `index '${index}' already exists — pass --recreate to replace it`);
    }
    const embeddings: number[][] = [];
    emit({ kind: 'phase', phase: 'embedding', total, batches });
    for (let b = 0; b < batches; b++) {
      if (signal?.aborted) return CANCELLED;
      const batch = batchOf(b);
      const result = await options.embed(batch.map(chunkEmbeddingText), signal);
      const where = `batch ${b + 1}/${batches}, documents ${b * size + 1}–${b * size + batch.length} of ${total}`;
      if (!result.ok)
        return result.error.code === 'cancelled'
          ? CANCELLED
          : fail('embedding-failed', `cannot embed the knowledge base (${where}): ${result.error.message}`);
      if (result.value.length !== batch.length) {
        return fail(
          'embedding-failed',
          `the embedding model returned ${result.value.length} vectors for ${batch.length} texts (${where})`,
        );
      }
      embeddings.push(...result.value);
      emit({
        kind: 'batch',
        phase: 'embedding',
        batch: b + 1,
        batches,
        documents: batch.length,
        done: embeddings.length,
        total,
        failed: 0,
      });
    }
    const dims = embeddings[0]?.length ?? 0;
    if (!dims) return fail('embedding-failed', 'the embedding model returned no vectors');
    if (embeddings.some((v) => v.length !== dims))
      return fail('embedding-failed', 'the embedding model returned vectors of different lengths');

    if (exists) {
      await client.indices.delete({ index });
      emit({ kind: 'note', message: `deleted index ${index}` });
    }
    await client.ingest.putPipeline({ id: INGEST_PIPELINE, ...ingestPipelineBody() });
    const meta: IndexMeta = {
      index_version: INDEX_VERSION,
      ingestion_pipeline: INGEST_PIPELINE,
      corpus_fingerprint: options.corpusFingerprint,
      embedding_model: options.embeddingModel,
      dims,
      chunks: total,
      created_at: (options.now?.() ?? new Date()).toISOString(),
    };
    await client.indices.create({ index, settings: indexSettings(), mappings: indexMappings(meta) });
    emit({ kind: 'note', message: `created index ${index} (version ${INDEX_VERSION}, ${dims}-d vectors)` });

    let indexed = 0;
    let failed = 0;
    const failures: BulkBatchFailure[] = [];
    emit({ kind: 'phase', phase: 'bulk', total, batches });
    for (let b = 0; b < batches; b++) {
      if (signal?.aborted) return CANCELLED;
      const batch = batchOf(b);
      const operations = batch.flatMap((chunk, j) => [
        { index: { _index: index, _id: chunk.id } },
        chunkDocument(chunk, embeddings[b * size + j] as number[]),
      ]);
      let response: Awaited<ReturnType<Client['bulk']>>;
      try {
        response = await client.bulk({ refresh: b === batches - 1 ? 'wait_for' : false, operations }, { signal });
      } catch (err) {
        if (signal?.aborted) return CANCELLED;
        return fail(
          'elasticsearch-failed',
          `Elasticsearch: bulk batch ${b + 1}/${batches} failed: ${describe(err)} (${indexed} of ${total} documents were loaded before it)`,
        );
      }
      const refused = bulkItemFailures(response.items);
      indexed += batch.length - refused.failed;
      failed += refused.failed;
      if (refused.failed > 0) {
        const failure: BulkBatchFailure = {
          batch: b + 1,
          batches,
          documents: batch.length,
          failed: refused.failed,
          causes: refused.causes,
        };
        failures.push(failure);
        emit({ kind: 'batch-failed', failure });
      }
      emit({
        kind: 'batch',
        phase: 'bulk',
        batch: b + 1,
        batches,
        documents: batch.length,
        done: b * size + batch.length,
        total,
        failed,
      });
    }
    return ok({ meta, indexed, failures });
  } catch (err) {
    if (signal?.aborted) return CANCELLED;
    return fail('elasticsearch-failed', `Elasticsearch: ${describe(err)}`);
  }
}
