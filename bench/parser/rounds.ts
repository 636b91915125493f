/**
 * Contenders measured side by side: CPU milliseconds per call of each side, median over interleaved rounds.
 *
 * CPU time of the process (its collector's threads included), not wall time: on a shared machine a call of a
 * millisecond or two is often preempted, which once made a median swing from 1.3 to 11 ms between runs; each
 * side's own work is what is compared, and it is the same measure for every side.
 *
 * A call leaves garbage that the next allocation pays to collect. So each side's timed calls come right after an
 * untimed call of the same side, and the sides' order is shuffled every round (a seeded PRNG: every run draws the
 * same orders). In a fixed rotation each side always followed the same other side and paid for its garbage — the
 * floor always came after createSourceFile's trees, the validation after the floor's line strings — which moved a
 * ratio by up to a third.
 */
import { prng, type Rng } from '../../test/support/random';

export interface RoundOptions {
  /** Rounds after the first (which only warms every side up). */
  rounds: number;
  /**
   * Untimed calls of every side before the rounds, in turn (default 0). A side with code that only some inputs
   * reach (the validation's fix proofs, for the few programs with a warning) gets that code compiled only after
   * many calls; until then the rounds time the engine's warm-up, not the side's work.
   */
  warmup?: number;
  /** Timed calls of each side per round (default 1). */
  timed?: number;
  /** Seed of the rounds' orders (default 30). */
  seed?: number;
}

/** Fisher–Yates, in place. */
function shuffle<T>(items: T[], random: Rng): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
}

function cpuMs(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const median = (xs: readonly number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? 0;

/** Median CPU milliseconds per call of each of `sides`. */
export async function interleavedCpu<K extends string>(
  sides: Record<K, () => void>,
  options: RoundOptions,
): Promise<Record<K, number>> {
  const { rounds, timed = 1, seed = 30, warmup = 0 } = options;
  const order = Object.keys(sides) as K[];
  for (let call = 0; call < warmup; call++) {
    for (const side of order) sides[side]();
    if (call % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
  }
  const samples = Object.fromEntries(order.map((side) => [side, [] as number[]])) as Record<K, number[]>;
  const random = prng(seed);
  for (let round = 0; round <= rounds; round++) {
    shuffle(order, random);
    for (const side of order) {
      sides[side](); // untimed: absorbs what the side before left behind (and, in round 0, warms this one up)
      for (let t = 0; t < timed; t++) {
        const ms = cpuMs(sides[side]);
        if (round > 0) samples[side].push(ms);
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return Object.fromEntries(order.map((side) => [side, median(samples[side])])) as Record<K, number>;
}
