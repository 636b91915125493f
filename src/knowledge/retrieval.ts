/**
 * The embedded lexical retrieval over documentation chunks: a BM25 index whose
 * fields are the title and heading (weight 2), the commands the chunk is about
 * (weight 3) and the text (weight 1). `search(query, k)` returns scored chunk
 * ids, best first, ties by id.
 */
import { Bm25Index, type Bm25Options, type ScoredId } from './bm25';
import type { DocChunk } from './types';

export interface ChunkIndex {
  readonly size: number;
  search(query: string, k: number): ScoredId[];
  chunk(id: string): DocChunk | undefined;
}

const CHUNK_FIELD_WEIGHTS = { title: 2, heading: 2, commands: 3, text: 1 } as const;

export function buildChunkIndex(chunks: readonly DocChunk[], options: Bm25Options = {}): ChunkIndex {
  const byId = new Map<string, DocChunk>();
  for (const c of chunks) if (!byId.has(c.id)) byId.set(c.id, c);
  const index = new Bm25Index(
    [...byId.values()].map((c) => ({
      id: c.id,
      fields: [
        { text: c.title, weight: CHUNK_FIELD_WEIGHTS.title },
        { text: c.heading, weight: CHUNK_FIELD_WEIGHTS.heading },
        { text: c.commands.join(' '), weight: CHUNK_FIELD_WEIGHTS.commands },
        { text: c.text, weight: CHUNK_FIELD_WEIGHTS.text },
      ],
    })),
    options,
  );
  return {
    size: index.size,
    search: (query, k) => index.search(query, k),
    chunk: (id) => byId.get(id),
  };
}
