/**
 * Reciprocal rank fusion (the design's k = 60): score(d) = Σ 1 / (k + rank_i(d)),
 * ranks 1-based. Ties are broken by the best single rank, then by id, so the
 * fusion is deterministic. Pure.
 */
export interface Fused {
  id: string;
  score: number;
  /** rank in each input list (undefined when absent from that list). */
  ranks: (number | undefined)[];
}

export function reciprocalRankFusion(
  lists: readonly (readonly string[])[],
  k = 60,
  top = Number.POSITIVE_INFINITY,
): Fused[] {
  const byId = new Map<string, Fused>();
  lists.forEach((list, listIndex) => {
    const seen = new Set<string>();
    list.forEach((id, position) => {
      if (seen.has(id)) return;
      seen.add(id);
      const entry = byId.get(id) ?? { id, score: 0, ranks: lists.map(() => undefined) };
      entry.ranks[listIndex] = position + 1;
      entry.score += 1 / (k + position + 1);
      byId.set(id, entry);
    });
  });
  const best = (f: Fused) => Math.min(...f.ranks.map((r) => r ?? Number.POSITIVE_INFINITY));
  return [...byId.values()]
    .sort((a, b) => b.score - a.score || best(a) - best(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, top);
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export function meanVector(vectors: readonly (readonly number[])[]): number[] {
  if (!vectors.length) return [];
  const dims = Math.max(...vectors.map((v) => v.length));
  const out = new Array<number>(dims).fill(0);
  for (const v of vectors) for (let i = 0; i < dims; i += 1) out[i] = (out[i] ?? 0) + (v[i] ?? 0);
  return out.map((x) => x / vectors.length);
}
