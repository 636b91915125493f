/**
 * The loaded knowledge base: documents, their chunks, the BM25 chunk index,
 * the example pool and its few-shot selector — everything the embedded
 * retrieval adapter and the few-shot injection need, loaded once.
 */
import { createHash } from 'node:crypto';
import type { ScoredId } from './bm25';
import { chunkDocuments, type ChunkOptions } from './chunker';
import { createExampleSelector, DEFAULT_FEW_SHOT_K, type SelectedExample } from './fewShot';
import { loadDocs, loadExamplePool } from './loaders';
import { knowledgeDirectory } from './paths';
import { buildChunkIndex } from './retrieval';
import { ok, type DocChunk, type ExamplePool, type KnowledgeDoc, type LoadResult, type PoolExample } from './types';

export interface KnowledgeBase {
  /** Absolute path of the knowledge directory it was loaded from. */
  readonly directory: string;
  readonly docs: readonly KnowledgeDoc[];
  readonly chunks: readonly DocChunk[];
  readonly pool: ExamplePool;
  /**
   * SHA-256 (hex, first 16 chars) over every document and example: changes
   * whenever the corpus changes; used as the content version of an index.
   */
  readonly fingerprint: string;
  /** BM25 over the chunks: best `k` chunk ids with scores (ties by id). */
  search(query: string, k: number): ScoredId[];
  chunk(id: string): DocChunk | undefined;
  /** Few-shot: the `k` (default 5) pool examples most similar to the request. */
  selectExamples(request: string, k?: number): SelectedExample[];
  example(id: string): PoolExample | undefined;
}

export interface LoadKnowledgeOptions extends ChunkOptions {
  /** Knowledge directory; default: found next to the bundle or the sources. */
  directory?: string;
}

function corpusFingerprint(docs: readonly KnowledgeDoc[], pool: ExamplePool): string {
  const hash = createHash('sha256');
  for (const doc of docs) hash.update(`doc\0${doc.id}\0${doc.title}\0${doc.commands.join(',')}\0${doc.body}\0`);
  hash.update(`pool\0${pool.poolVersion}\0`);
  for (const e of pool.examples) hash.update(`ex\0${e.id}\0${e.description}\0${e.code}\0`);
  return hash.digest('hex').slice(0, 16);
}

/** Builds a knowledge base from already loaded parts (used by tests and tools). */
function createKnowledgeBase(
  directory: string,
  docs: readonly KnowledgeDoc[],
  pool: ExamplePool,
  options: ChunkOptions = {},
): KnowledgeBase {
  const chunks = chunkDocuments(docs, options);
  const index = buildChunkIndex(chunks);
  const selector = createExampleSelector(pool);
  return {
    directory,
    docs,
    chunks,
    pool,
    fingerprint: corpusFingerprint(docs, pool),
    search: (query, k) => index.search(query, k),
    chunk: (id) => index.chunk(id),
    selectExamples: (request, k = DEFAULT_FEW_SHOT_K) => selector.selectExamples(request, k),
    example: (id) => selector.example(id),
  };
}

/** Loads docs and pool from the knowledge directory and indexes them. Never throws. */
export function loadKnowledgeBase(options: LoadKnowledgeOptions = {}): LoadResult<KnowledgeBase> {
  const dir = knowledgeDirectory(options.directory);
  if (!dir.ok) return dir;
  const docs = loadDocs(dir.value);
  if (!docs.ok) return docs;
  const pool = loadExamplePool(dir.value);
  if (!pool.ok) return pool;
  return ok(createKnowledgeBase(dir.value, docs.value, pool.value, options));
}
