/**
 * The retrieval port and the knowledge source the embedded adapter reads.
 * Two adapters: Elasticsearch (`elastic.ts`) and the in-process index
 * (`embedded.ts`). A failure is data; the pipeline then answers without context.
 */
import type { Result } from '../../result';
import type { LlmError } from '../llm/port';

/** How the chunks were found; `knn_only` and `bm25_only` results are tagged as such. */
type RetrievalModeTag = 'hybrid' | 'knn_only' | 'bm25_only';

export interface RetrievedChunk {
  id: string;
  title: string;
  text: string;
  /** Fused (RRF) or single-list score. */
  score: number;
  /** The chunk's embedding when the index holds one (the cosine relevance check reuses it). */
  embedding?: number[];
  source?: string;
}

export interface RetrievalResult {
  chunks: RetrievedChunk[];
  mode: RetrievalModeTag;
  /** The query's embedding, when one was computed (reused by the cosine relevance check). */
  queryEmbedding?: number[];
  /** Set when the configured mode could not be honoured and the adapter fell back (tagged `bm25_only`): why. */
  fallback?: string;
}

/**
 * The documentation an answer is generated with: a retrieval's result, or —
 * when retrieval failed — no chunks, with mode `none` (never a mode that did
 * not run).
 */
export type RetrievedContext = Omit<RetrievalResult, 'mode'> & { mode: RetrievalModeTag | 'none' };

type RetrievalError = { code: 'retrieval-failed'; message: string } | LlmError;

export type RetrievalOutcome = Result<RetrievalResult, RetrievalError>;

export interface RetrievalPort {
  /** Human name for logs and telemetry ("elasticsearch http://…/index", "embedded"). */
  readonly name: string;
  retrieve(query: string, options: { topK: number; signal?: AbortSignal }): Promise<RetrievalOutcome>;
}

/**
 * What the embedded adapter and few-shot injection need from a knowledge
 * base; the knowledge library's `KnowledgeBase` satisfies it.
 */
export interface KnowledgeChunkLike {
  id: string;
  title: string;
  heading?: string;
  text: string;
  sourceDoc?: string;
}

export interface KnowledgeSource {
  readonly chunks: readonly KnowledgeChunkLike[];
  /** Content version of the corpus (changes when any document changes). */
  readonly fingerprint?: string;
  search(query: string, k: number): { id: string; score: number }[];
  chunk(id: string): KnowledgeChunkLike | undefined;
  /** Lexical few-shot selection (BM25), the fallback of the embedding-based one. */
  selectExamples?(request: string, k?: number): { example: { description: string; code: string }; score: number }[];
  /** The validated example pool (few-shot selection by embedding similarity embeds it). */
  readonly pool?: {
    readonly examples: readonly { id: string; description: string; code: string; commands?: readonly string[] }[];
  };
}
