/**
 * How long the rest of a long job will take, from how long its finished parts
 * took. Pure bookkeeping: the caller measures the time and says what is left.
 *
 * Work comes in units (a question, a document). A unit may carry a key: an
 * evaluation asks the same questions in every run, so from the second run on
 * the best guess for a question is what that very question took before (a code
 * question with a retry costs many times a greeting). Units without a history
 * of their own count the mean time per unit so far.
 */

interface Tally {
  ms: number;
  units: number;
}

export class EtaEstimator {
  private readonly total: Tally = { ms: 0, units: 0 };
  private readonly perKey = new Map<string, Tally>();

  /** A finished piece of work: `units` units that took `ms` milliseconds, optionally under a key. */
  record(ms: number, units = 1, key?: string): void {
    if (!(ms >= 0) || !(units > 0)) return;
    this.total.ms += ms;
    this.total.units += units;
    if (key === undefined) return;
    const tally = this.perKey.get(key) ?? { ms: 0, units: 0 };
    tally.ms += ms;
    tally.units += units;
    this.perKey.set(key, tally);
  }

  /** Units finished so far. */
  get units(): number {
    return this.total.units;
  }

  /** Mean milliseconds per unit; undefined before anything finished. */
  msPerUnit(): number | undefined {
    return this.total.units > 0 ? this.total.ms / this.total.units : undefined;
  }

  /** Units per second; undefined before anything finished or while no time has passed. */
  perSecond(): number | undefined {
    return this.total.ms > 0 ? (1000 * this.total.units) / this.total.ms : undefined;
  }

  /** Time for `units` more units at the mean pace; undefined before anything finished. */
  forUnits(units: number): number | undefined {
    const mean = this.msPerUnit();
    return mean === undefined ? undefined : Math.max(0, units) * mean;
  }

  /** Time for these keyed units: each what its key took on average before, else the mean per unit. */
  forKeys(keys: Iterable<string>): number | undefined {
    const mean = this.msPerUnit();
    if (mean === undefined) return undefined;
    let ms = 0;
    for (const key of keys) {
      const tally = this.perKey.get(key);
      ms += tally ? tally.ms / tally.units : mean;
    }
    return ms;
  }
}

/**
 * Time left while one piece of work is under way: what is expected of that
 * piece minus what it has already taken (never below zero: a piece that runs
 * long is "about to finish", not "finished"), plus the expected time of
 * everything after it. Undefined while there is no estimate.
 */
export function timeLeftMs(
  current: number | undefined,
  rest: number | undefined,
  spentOnCurrentMs: number,
): number | undefined {
  if (current === undefined || rest === undefined) return undefined;
  return Math.max(0, current - Math.max(0, spentOnCurrentMs)) + rest;
}

/** A duration for people: 4.2s, 42s, 3m05s, 1h02m. */
export function formatDuration(ms: number): string {
  const safe = Number.isFinite(ms) && ms > 0 ? ms : 0;
  if (safe < 9_950) return `${(safe / 1000).toFixed(1)}s`;
  const seconds = Math.round(safe / 1000);
  if (seconds < 60) return `${seconds}s`;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${pad(seconds % 60)}s`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}h${pad(minutes % 60)}m`;
}

/** A rate for people: 0.42, 4.2, 42, 420 (per second). */
export function formatRate(perSecond: number): string {
  if (!Number.isFinite(perSecond) || perSecond <= 0) return '0';
  return perSecond < 10 ? perSecond.toFixed(perSecond < 1 ? 2 : 1) : String(Math.round(perSecond));
}
