/**
 * The clock and randomness ports: the real ones, or fixed so a run repeats exactly (`--now ISO`, `--seed N`).
 * The seeded generator is sfc32 (Chris Doty-Humphrey's Small Fast Counter): 128 bits of state, floats in [0, 1).
 */
import type { ClockPort, RandomPort } from '..';

/** The clock: the real time, or `fixedMs` (epoch milliseconds) for every reading. */
export function createClock(fixedMs?: number): ClockPort {
  if (fixedMs === undefined) return { now: () => Date.now() };
  return { now: () => fixedMs };
}

/** A generator: seeded (the same numbers for the same seed), or from Math.random. */
export function createRandom(seed?: number): RandomPort {
  if (seed === undefined) return { next: () => Math.random() };
  // Spread the seed over the four words (splitmix32), then warm up.
  let s = seed >>> 0;
  const mix = () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = mix();
  let b = mix();
  let c = mix();
  let d = mix();
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return { next };
}

/** `--now`: an ISO 8601 date-time (or epoch milliseconds) as epoch milliseconds; undefined when it is neither. */
export function parseNow(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^-?\d+$/.test(trimmed)) return Number(trimmed);
  if (!/^\d{4}-\d{2}-\d{2}/.test(trimmed)) return undefined;
  const ms = Date.parse(trimmed);
  return Number.isFinite(ms) ? ms : undefined;
}

/** `--seed`: an integer 0 … 2^32−1. */
export function parseSeed(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value <= 0xffffffff ? value : undefined;
}
