/**
 * The cosine relevance adapter: cosine between the query embedding and the
 * mean of the chunk embeddings, against a threshold. Reuses the vectors the
 * retrieval already has; embeds only what is missing.
 */
import type { LlmPort } from '../llm/port';
import { chunkEmbeddingText } from '../retrieval/embedded';
import { cosine, meanVector } from '../retrieval/rrf';
import type { RelevanceOutcome, RelevancePort } from './port';

export function createCosineRelevance(llm: LlmPort, embeddingModel: string, threshold: number): RelevancePort {
  return {
    mode: 'cosine',
    async judge(query, retrieved, signal): Promise<RelevanceOutcome> {
      if (retrieved.chunks.length === 0)
        return { ok: true, value: { relevant: false, score: 0, detail: 'no context was retrieved' } };
      const missing: string[] = [];
      if (!retrieved.queryEmbedding) missing.push(query);
      const withoutVector = retrieved.chunks.filter((c) => !c.embedding);
      missing.push(...withoutVector.map((c) => chunkEmbeddingText(c)));
      let computed: number[][] = [];
      if (missing.length) {
        const result = await llm.embed(embeddingModel, missing, signal);
        if (!result.ok) return result;
        computed = result.value;
      }
      let next = 0;
      const queryVector = retrieved.queryEmbedding ?? computed[next++] ?? [];
      const chunkVectors = retrieved.chunks.map((c) => c.embedding ?? computed[next++] ?? []);
      const score = cosine(queryVector, meanVector(chunkVectors));
      const relevant = score >= threshold;
      return {
        ok: true,
        value: { relevant, score, detail: `cosine ${score.toFixed(3)} ${relevant ? '>=' : '<'} ${threshold}` },
      };
    },
  };
}
