/**
 * Small ports the core depends on, so tests can substitute them: where log
 * lines go and what time it is.
 */

/**
 * Receives diagnostic lines. Callers write the message only; the adapter that
 * prints the lines (the editor's output channel, the CLI's and REST's stderr,
 * the tests' in-memory logger) is built with `prefixedLogger`, the one place that adds
 * `[ptvl]`.
 */
export interface Logger {
  info(line: string): void;
  warn(line: string): void;
}

/**
 * The prefix of every line the pipeline logs: `ptvl` is the *per-type validation layer*, the design's name for
 * the routing and validation pipeline, and its log lines carry this prefix (docs/design.md D1).
 * @internal
 */
export const LOG_PREFIX = '[ptvl]';

/**
 * A message as it is printed: `[ptvl] ` and the message. The log-line
 * constants (`LOG_SKIP`, `LOG_PARSER_UNAVAILABLE`, …) hold the message; tests
 * compare printed lines with `prefixed(CONSTANT)`.
 * @internal
 */
export function prefixed(message: string): string {
  return `${LOG_PREFIX} ${message}`;
}

/** A logger that prefixes every line with `[ptvl]` and hands it to `write`: the one place the prefix is added. */
export function prefixedLogger(write: (line: string, level: 'info' | 'warn') => void): Logger {
  return {
    info: (line) => write(prefixed(line), 'info'),
    warn: (line) => write(prefixed(line), 'warn'),
  };
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined };

/** Wall-clock time in epoch ms, injectable (the breaker's cooldown is tested with a clock that moves only when told). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** High-resolution monotonic milliseconds, for latencies. */
export function monotonicMs(): number {
  return performance.now();
}
