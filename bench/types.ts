/** What every benchmark returns; bench/index.ts prints them. Benchmarks never print themselves. */
export interface BenchResult {
  name: string;
  /** The headline ratio measured in this run. */
  ratio: number;
  /** How the ratio is read, e.g. "× faster per byte" or "% of the round trip". */
  unit: string;
  /** The goal in words and whether this run met it. */
  goal?: { text: string; met: boolean };
  /** The raw figures behind the ratio. */
  detail: string;
}

export type BenchSuite = { name: string; run: () => Promise<BenchResult[]> };

/** Median of per-iteration timings, in milliseconds. */
export function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Times `fn` `iterations` times after `warmup` untimed calls; returns per-call milliseconds. */
export async function sample(
  fn: () => unknown,
  iterations: number,
  warmup = Math.ceil(iterations / 5),
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    await fn();
    out.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return out;
}
