/**
 * Test doubles for the core's small ports: a logger that keeps its lines in memory (printed as the real adapters
 * print them, through the core's prefixedLogger) and a clock that only moves when told to.
 */
import { prefixedLogger, type Clock, type Logger } from '../../../src/core/ports';

/** Collects the lines as they would be printed (`[ptvl] …`). */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, ...prefixedLogger((line) => lines.push(line)) };
}

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
