/**
 * Small ports the core depends on, so tests can substitute them: where log
 * lines go and what time it is.
 */

/** Receives diagnostic lines. Every line the core writes starts with `[ptvl]`. */
export interface Logger {
  info(line: string): void;
  warn(line: string): void;
}

export const LOG_PREFIX = '[ptvl]';

/** A logger that prefixes every line with `[ptvl]` and hands it to `write`. */
export function prefixedLogger(write: (line: string, level: 'info' | 'warn') => void): Logger {
  const prefix = (line: string) => (line.startsWith(LOG_PREFIX) ? line : `${LOG_PREFIX} ${line}`);
  return {
    info: (line) => write(prefix(line), 'info'),
    warn: (line) => write(prefix(line), 'warn'),
  };
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined };

/** Collects lines in memory (tests, and callers that show a log on demand). */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, ...prefixedLogger((line) => lines.push(line)) };
}

/** Wall-clock time in epoch ms, injectable (the breaker's cooldown is tested with a manual clock). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  constructor(private current = 1_700_000_000_000) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/** High-resolution monotonic milliseconds, for latencies. */
export function monotonicMs(): number {
  return performance.now();
}
