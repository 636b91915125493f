/**
 * The embedded retrieval adapter (the default without Elasticsearch): BM25
 * over the shipped knowledge base, plus a vector list when an embedding model
 * is reachable, fused with reciprocal rank fusion. Chunk vectors are computed
 * once, on first use, and kept in memory. Without a working embedding model
 * the configured mode (hybrid or knn_only) cannot be honoured: the adapter
 * answers from BM25 alone, tags the result `bm25_only` with the reason in
 * `fallback`, and logs it (a missing model once, since it stays missing;
 * a transient failure each time).
 */
import type { LlmResult } from '../llm/port';
import type { Logger } from '../ports';
import { fail, ok, type Failure, type Result } from '../../result';
import { silentLogger } from '../ports';
import type { KnowledgeSource, RetrievalOutcome, RetrievalPort, RetrievedChunk } from './port';
import { cosine, reciprocalRankFusion } from './rrf';
import type { RetrievalMode } from '../config';

export type EmbedFn = (texts: string[], signal?: AbortSignal) => Promise<LlmResult<number[][]>>;

export interface EmbeddedRetrievalOptions {
  /** Without it the adapter is BM25 only. */
  embed?: EmbedFn;
  rrfK?: number;
  mode?: RetrievalMode;
  /** Candidates taken from each list before fusion. Default max(4 × topK, 32). */
  window?: number;
  logger?: Logger;
  /** Texts per embedding request when indexing the chunks. Default 32. */
  batchSize?: number;
}

/** The chunk vectors, or why there are none. */
/** Every chunk's vector, or why there are none (`cancelled`: the caller went away; otherwise the model failed or is missing). */
type VectorTable = Result<Map<string, number[]>, Failure<'cancelled' | 'embedding-failed'>>;

/** The text that represents a chunk for embedding and for prompts. */
export function chunkEmbeddingText(chunk: { title: string; heading?: string; text: string }): string {
  return `${chunk.title}${chunk.heading ? ` — ${chunk.heading}` : ''}\n${chunk.text}`;
}

export function createEmbeddedRetrieval(kb: KnowledgeSource, options: EmbeddedRetrievalOptions = {}): RetrievalPort {
  const logger = options.logger ?? silentLogger;
  const rrfK = options.rrfK ?? 60;
  const mode = options.mode ?? 'hybrid';
  let vectors: Promise<VectorTable> | undefined;
  let missingModel: string | undefined;
  let warnedMissing = false;

  async function chunkVectors(signal?: AbortSignal): Promise<VectorTable> {
    const embed = options.embed;
    if (!embed) missingModel ??= 'no embedding model is configured';
    if (missingModel || !embed) return fail('embedding-failed', missingModel ?? '');
    vectors ??= (async (): Promise<VectorTable> => {
      const out = new Map<string, number[]>();
      const all = [...kb.chunks];
      const size = options.batchSize ?? 32;
      for (let i = 0; i < all.length; i += size) {
        const batch = all.slice(i, i + size);
        const result = await embed(batch.map(chunkEmbeddingText), signal);
        if (!result.ok) {
          const reason = `the embedding model failed (${result.error.code}: ${result.error.message})`;
          if (result.error.code === 'model-missing') missingModel = reason;
          vectors = undefined; // try again next time unless the model is missing
          return fail(result.error.code === 'cancelled' ? 'cancelled' : 'embedding-failed', reason);
        }
        batch.forEach((chunk, j) => {
          const vector = result.value[j];
          if (vector) out.set(chunk.id, vector);
        });
      }
      return ok(out);
    })();
    return vectors;
  }

  const toChunk = (id: string, score: number, embedding?: number[]): RetrievedChunk | undefined => {
    const chunk = kb.chunk(id);
    if (!chunk) return undefined;
    return {
      id,
      title: chunk.heading ? `${chunk.title} — ${chunk.heading}` : chunk.title,
      text: chunk.text,
      score,
      ...(embedding ? { embedding } : {}),
      ...(chunk.sourceDoc ? { source: chunk.sourceDoc } : {}),
    };
  };

  const cancelled = (): RetrievalOutcome => ({
    ok: false,
    error: { code: 'cancelled', message: 'the request was cancelled' },
  });

  return {
    name: 'embedded',
    async retrieve(query, { topK, signal }): Promise<RetrievalOutcome> {
      const window = options.window ?? Math.max(topK * 4, 32);
      const lexical = mode === 'knn_only' ? [] : kb.search(query, window).map((h) => h.id);
      const table = await chunkVectors(signal);
      let queryEmbedding: number[] | undefined;
      let reason = table.ok ? undefined : table.error.message;
      if (!table.ok && table.error.kind === 'cancelled') return cancelled();
      if (table.ok && options.embed) {
        const q = await options.embed([query], signal);
        if (q.ok) queryEmbedding = q.value[0];
        else if (q.error.code === 'cancelled') return { ok: false, error: q.error };
        else reason = `the embedding model could not embed the query (${q.error.code}: ${q.error.message})`;
        if (q.ok && !queryEmbedding) reason = 'the embedding model returned no vector for the query';
      }
      if (signal?.aborted) return cancelled();
      if (!table.ok || !queryEmbedding) {
        // The configured mode cannot be honoured: answer from BM25, tagged and logged (evaluation aborts on it).
        const fallback = `${mode} needs embeddings: ${reason ?? 'no query embedding'}`;
        // A missing model is for good: said once; a transient failure every time it happens.
        if (!missingModel || !warnedMissing)
          logger.warn(`embedded retrieval: ${fallback} — using BM25 only (bm25_only)`);
        if (missingModel) warnedMissing = true;
        const hits = kb.search(query, topK);
        const chunks = hits.map((h) => toChunk(h.id, h.score)).filter((c): c is RetrievedChunk => Boolean(c));
        return { ok: true, value: { chunks, mode: 'bm25_only', fallback } };
      }
      const qv = queryEmbedding;
      const dense = [...table.value.entries()]
        .map(([id, v]) => ({ id, s: cosine(qv, v) }))
        .sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : 1))
        .slice(0, window)
        .map((x) => x.id);
      const fused =
        mode === 'knn_only'
          ? dense.slice(0, topK).map((id, i) => ({ id, score: 1 / (rrfK + i + 1) }))
          : reciprocalRankFusion([lexical, dense], rrfK, topK);
      const chunks = fused
        .map((f) => toChunk(f.id, f.score, table.value.get(f.id)))
        .filter((c): c is RetrievedChunk => Boolean(c));
      return { ok: true, value: { chunks, mode: mode === 'knn_only' ? 'knn_only' : 'hybrid', queryEmbedding: qv } };
    },
  };
}
