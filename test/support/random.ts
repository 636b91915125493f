/** Seeded randomness for generated test and bench programs: the same seed always draws the same sequence. */
export type Rng = () => number;

/** mulberry32: a small, well-mixed 32-bit PRNG. */
export function prng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
