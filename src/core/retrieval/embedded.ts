/**
 * The embedded retrieval adapter (the default without Elasticsearch): BM25
 * over the shipped knowledge base, plus a vector list when an embedding model
 * is reachable, fused with reciprocal rank fusion. Chunk vectors are computed
 * once, on first use, and kept in memory.
 */
import type { LlmResult } from '../llm/port';
import type { Logger } from '../ports';
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

/** The text that represents a chunk for embedding and for prompts. */
export function chunkEmbeddingText(chunk: { title: string; heading?: string; text: string }): string {
  return `${chunk.title}${chunk.heading ? ` — ${chunk.heading}` : ''}\n${chunk.text}`;
}

export function createEmbeddedRetrieval(kb: KnowledgeSource, options: EmbeddedRetrievalOptions = {}): RetrievalPort {
  const logger = options.logger ?? silentLogger;
  const rrfK = options.rrfK ?? 60;
  const mode = options.mode ?? 'hybrid';
  let vectors: Promise<Map<string, number[]> | undefined> | undefined;
  let vectorsUnavailable = false;

  async function chunkVectors(signal?: AbortSignal): Promise<Map<string, number[]> | undefined> {
    const embed = options.embed;
    if (!embed || vectorsUnavailable) return undefined;
    vectors ??= (async () => {
      const out = new Map<string, number[]>();
      const all = [...kb.chunks];
      const size = options.batchSize ?? 32;
      for (let i = 0; i < all.length; i += size) {
        const batch = all.slice(i, i + size);
        const result = await embed(batch.map(chunkEmbeddingText), signal);
        if (!result.ok) {
          if (result.error.code === 'model-missing') {
            vectorsUnavailable = true;
            logger.warn(`[ptvl] embedded retrieval: ${result.error.message} — using BM25 only`);
          }
          vectors = undefined; // try again next time unless the model is missing
          return undefined;
        }
        batch.forEach((chunk, j) => {
          const vector = result.value[j];
          if (vector) out.set(chunk.id, vector);
        });
      }
      return out;
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

  return {
    name: 'embedded',
    async retrieve(query, { topK, signal }): Promise<RetrievalOutcome> {
      const window = options.window ?? Math.max(topK * 4, 32);
      const lexical = mode === 'knn_only' ? [] : kb.search(query, window).map((h) => h.id);
      const table = await chunkVectors(signal);
      let queryEmbedding: number[] | undefined;
      if (table && options.embed) {
        const q = await options.embed([query], signal);
        if (q.ok) queryEmbedding = q.value[0];
        else if (q.error.code === 'cancelled') return { ok: false, error: q.error };
      }
      if (signal?.aborted) return { ok: false, error: { code: 'cancelled', message: 'the request was cancelled' } };
      if (!table || !queryEmbedding) {
        const hits = kb.search(query, topK);
        const chunks = hits.map((h) => toChunk(h.id, h.score)).filter((c): c is RetrievedChunk => Boolean(c));
        return { ok: true, value: { chunks, mode: 'bm25_only' } };
      }
      const qv = queryEmbedding;
      const dense = [...table.entries()]
        .map(([id, v]) => ({ id, s: cosine(qv, v) }))
        .sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : 1))
        .slice(0, window)
        .map((x) => x.id);
      const fused = mode === 'knn_only'
        ? dense.slice(0, topK).map((id, i) => ({ id, score: 1 / (rrfK + i + 1) }))
        : reciprocalRankFusion([lexical, dense], rrfK, topK);
      const chunks = fused.map((f) => toChunk(f.id, f.score, table.get(f.id))).filter((c): c is RetrievedChunk => Boolean(c));
      return { ok: true, value: { chunks, mode: mode === 'knn_only' ? 'knn_only' : 'hybrid', queryEmbedding: qv } };
    },
  };
}
