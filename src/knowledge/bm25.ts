/**
 * A small, deterministic BM25 index (Okapi BM25, k1 = 1.2, b = 0.75 by
 * default). Documents have weighted fields; a field of weight w counts each of
 * its terms w times, the usual cheap approximation of BM25F. Results are sorted
 * by score (descending), then id (ascending), so equal scores always come out
 * in the same order. Pure TypeScript, no I/O.
 */
import { tokenize } from './tokenizer';

interface IndexField {
  text: string;
  /** Positive integer weight (default 1). */
  weight?: number;
}

export interface IndexDocument {
  id: string;
  fields: readonly IndexField[];
}

export interface ScoredId {
  id: string;
  score: number;
}

export interface Bm25Options {
  k1?: number;
  b?: number;
  tokenizer?: (text: string) => string[];
}

interface Posting {
  doc: number;
  tf: number;
}

export class Bm25Index {
  readonly k1: number;
  readonly b: number;
  private readonly tokenizer: (text: string) => string[];
  private readonly ids: string[] = [];
  private readonly idSet = new Set<string>();
  private readonly lengths: number[] = [];
  private readonly postings = new Map<string, Posting[]>();
  private avgLength = 0;

  constructor(documents: readonly IndexDocument[], options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
    this.tokenizer = options.tokenizer ?? tokenize;
    for (const doc of documents) {
      if (this.idSet.has(doc.id)) continue; // first one wins; ids are keys
      this.idSet.add(doc.id);
      this.add(doc);
    }
    const total = this.lengths.reduce((sum, n) => sum + n, 0);
    this.avgLength = this.lengths.length > 0 ? total / this.lengths.length : 0;
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.idSet.has(id);
  }

  /** Number of indexed documents that contain the term (after tokenization). */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.length ?? 0;
  }

  private add(doc: IndexDocument): void {
    const index = this.ids.length;
    this.ids.push(doc.id);
    const tf = new Map<string, number>();
    let length = 0;
    for (const field of doc.fields) {
      const weight = Math.max(1, Math.round(field.weight ?? 1));
      for (const term of this.tokenizer(field.text)) {
        tf.set(term, (tf.get(term) ?? 0) + weight);
        length += weight;
      }
    }
    this.lengths.push(length);
    for (const [term, count] of tf) {
      let list = this.postings.get(term);
      if (!list) {
        list = [];
        this.postings.set(term, list);
      }
      list.push({ doc: index, tf: count });
    }
  }

  private idf(df: number): number {
    const n = this.ids.length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Scores of every document that shares a term with the query (unsorted). */
  scoreAll(query: string): Map<number, number> {
    const scores = new Map<number, number>();
    const terms = [...new Set(this.tokenizer(query))].sort();
    for (const term of terms) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = this.idf(list.length);
      for (const { doc, tf } of list) {
        const length = this.lengths[doc] ?? 0;
        const norm = this.avgLength > 0 ? length / this.avgLength : 1;
        const part = (idf * tf * (this.k1 + 1)) / (tf + this.k1 * (1 - this.b + this.b * norm));
        scores.set(doc, (scores.get(doc) ?? 0) + part);
      }
    }
    return scores;
  }

  /**
   * The `k` best documents for the query with a positive score, best first;
   * ties broken by id. `k <= 0` or an empty query gives no results.
   */
  search(query: string, k: number): ScoredId[] {
    if (!(k > 0)) return [];
    const results: ScoredId[] = [];
    for (const [doc, score] of this.scoreAll(query)) {
      if (score > 0) results.push({ id: this.ids[doc] as string, score });
    }
    results.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
    return results.slice(0, Math.floor(k));
  }
}
