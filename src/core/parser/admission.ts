/**
 * Client-side admission in front of the parser: callers wait here for
 * capacity instead of all racing one deadline at the service.
 *
 * - At most `limit` calls are in flight; the rest wait in a queue, small
 *   sources first (an editor's document is not held behind a batch of large
 *   files). The parser deadline of a call starts when it is sent, so time
 *   spent waiting here never turns into a parser timeout.
 * - The limit adapts like TCP's congestion window: it grows by one per
 *   verdict while callers are waiting (doubling per round) until the first
 *   congestion signal, then by 1/limit per verdict; an `overloaded` answer or
 *   a timeout halves it (once per round of calls).
 * - An `overloaded` answer is not the caller's answer: the call goes back to
 *   the head of its lane and is retried when a call completes (or after the
 *   service's estimated wait when nothing is in flight; small calls not yet
 *   refused still go meanwhile). Only a call that has
 *   waited `maxWaitMs` in total, or whose caller gives up (AbortSignal), gets
 *   the `overloaded` outcome — no evidence for that call, never a failure of
 *   the circuit.
 *
 * Deterministic: the clock and the timer are injectable.
 */
import type { CircuitSnapshot, ParserOutcome, ParserPort } from '../types';
import { systemClock, type Clock } from '../ports';

export interface AdmissionOptions {
  /** Calls in flight at first. Default 16. */
  initialLimit?: number;
  /** Upper bound of the adaptive limit. Default 1024. */
  maxLimit?: number;
  /** How long one call may wait for capacity in total. Default 30 s. */
  maxWaitMs?: number;
  /** Sources up to this many characters wait in the small-first lane. Default 16 Ki. */
  smallChars?: number;
  clock?: Clock;
  /** Schedules the retry after an overloaded answer when nothing is in flight (tests pass a manual one). */
  setTimer?: (run: () => void, ms: number) => { cancel(): void };
}

interface Waiting {
  source: string;
  filename: string;
  signal?: AbortSignal;
  small: boolean;
  enqueuedAt: number;
  resolve: (outcome: ParserOutcome) => void;
  onAbort?: () => void;
  lastOverload?: Extract<ParserOutcome, { kind: 'unavailable' }>;
}

/**
 * The retry timer is what a waiting caller's promise hangs on while nothing is
 * in flight: it must keep the process alive (an unref'd one let a command's
 * event loop empty mid-wait, and the process exit 0 with no answer).
 */
const realTimer = (run: () => void, ms: number) => {
  const handle = setTimeout(run, ms);
  return { cancel: () => clearTimeout(handle) };
};

export class AdmissionParser implements ParserPort {
  private readonly smallLane: Waiting[] = [];
  private readonly bulkLane: Waiting[] = [];
  private inFlight = 0;
  private limitValue: number;
  private threshold = Number.POSITIVE_INFINITY;
  private readonly maxLimit: number;
  private readonly maxWaitMs: number;
  private readonly smallChars: number;
  private readonly clock: Clock;
  private readonly setTimer: NonNullable<AdmissionOptions['setTimer']>;
  private retryTimer: { cancel(): void } | undefined;
  /** Counts decreases; a call sent before the latest one belongs to a round that has already halved the limit. */
  private round = 0;

  constructor(
    private readonly inner: ParserPort & { readonly parserVersion?: string },
    options: AdmissionOptions = {},
  ) {
    this.limitValue = Math.max(1, options.initialLimit ?? 16);
    this.maxLimit = Math.max(this.limitValue, options.maxLimit ?? 1024);
    this.maxWaitMs = options.maxWaitMs ?? 30_000;
    this.smallChars = options.smallChars ?? 16 * 1024;
    this.clock = options.clock ?? systemClock;
    this.setTimer = options.setTimer ?? realTimer;
  }

  /** The parser version of the last verdict (telemetry reads it). */
  get parserVersion(): string | undefined {
    return this.inner.parserVersion;
  }

  /** The current in-flight limit, waiting calls and calls in flight. */
  load(): { limit: number; waiting: number; inFlight: number } {
    return {
      limit: Math.floor(this.limitValue),
      waiting: this.smallLane.length + this.bulkLane.length,
      inFlight: this.inFlight,
    };
  }

  circuit(): CircuitSnapshot {
    return this.inner.circuit();
  }

  resetCircuit(): void {
    this.inner.resetCircuit();
  }

  onCircuitChange(listener: (snapshot: CircuitSnapshot) => void): () => void {
    return this.inner.onCircuitChange(listener);
  }

  validate(source: string, filename: string, signal?: AbortSignal): Promise<ParserOutcome> {
    if (signal?.aborted)
      return Promise.resolve({ kind: 'unavailable', reason: 'cancelled', detail: 'cancelled before validation' });
    return new Promise((resolve) => {
      const entry: Waiting = {
        source,
        filename,
        small: source.length <= this.smallChars,
        enqueuedAt: this.clock.now(),
        resolve,
        ...(signal ? { signal } : {}),
      };
      if (signal) {
        entry.onAbort = () => {
          if (!this.remove(entry)) return;
          // Nobody left to retry for: the (ref'd) retry timer must not hold the process open.
          if (this.smallLane.length + this.bulkLane.length === 0) {
            this.retryTimer?.cancel();
            this.retryTimer = undefined;
          }
          resolve({ kind: 'unavailable', reason: 'cancelled', detail: 'cancelled while waiting for parser capacity' });
        };
        signal.addEventListener('abort', entry.onAbort, { once: true });
      }
      this.lane(entry).push(entry);
      this.pump();
    });
  }

  private lane(entry: Waiting): Waiting[] {
    return entry.small ? this.smallLane : this.bulkLane;
  }

  private remove(entry: Waiting): boolean {
    const lane = this.lane(entry);
    const index = lane.indexOf(entry);
    if (index < 0) return false;
    lane.splice(index, 1);
    return true;
  }

  private settle(entry: Waiting, outcome: ParserOutcome): void {
    if (entry.onAbort) entry.signal?.removeEventListener('abort', entry.onAbort);
    entry.resolve(outcome);
  }

  /** The next call to send; while a retry waits out the service's estimate, only small calls not yet refused go. */
  private next(): Waiting | undefined {
    if (!this.retryTimer) return this.smallLane.shift() ?? this.bulkLane.shift();
    return this.smallLane[0] && !this.smallLane[0].lastOverload ? this.smallLane.shift() : undefined;
  }

  private pump(): void {
    while (this.inFlight < Math.floor(this.limitValue)) {
      const entry = this.next();
      if (!entry) return;
      const waited = this.clock.now() - entry.enqueuedAt;
      if (entry.lastOverload && waited >= this.maxWaitMs) {
        this.settle(entry, {
          ...entry.lastOverload,
          detail: `${entry.lastOverload.detail}; gave up after waiting ${waited} ms for parser capacity`,
        });
        continue;
      }
      void this.send(entry);
    }
  }

  private async send(entry: Waiting): Promise<void> {
    const round = this.round;
    this.inFlight += 1;
    let outcome: ParserOutcome;
    try {
      outcome = await this.inner.validate(entry.source, entry.filename, entry.signal);
    } catch (err) {
      outcome = { kind: 'unavailable', reason: 'transport', detail: err instanceof Error ? err.message : String(err) };
    }
    this.inFlight -= 1;
    if (outcome.kind === 'unavailable' && outcome.reason === 'overloaded') {
      this.congestion(round);
      if (!entry.signal?.aborted && this.clock.now() - entry.enqueuedAt < this.maxWaitMs) {
        entry.lastOverload = outcome;
        this.lane(entry).unshift(entry);
        if (this.inFlight === 0) this.retryLater(outcome.retryAfterMs);
        this.pump();
        return;
      }
    } else if (outcome.kind === 'unavailable' && outcome.reason === 'timeout') {
      this.congestion(round);
    } else if (outcome.kind === 'validated') {
      this.grow();
    }
    this.settle(entry, outcome);
    this.pump();
  }

  /** Halves the limit once per round: answers to calls sent before the last decrease do not count again. */
  private congestion(round: number): void {
    if (round !== this.round) return;
    this.limitValue = Math.max(1, Math.floor(this.limitValue / 2));
    this.threshold = this.limitValue;
    this.round += 1;
  }

  private grow(): void {
    if (this.smallLane.length + this.bulkLane.length === 0) return;
    this.limitValue = Math.min(
      this.maxLimit,
      this.limitValue < this.threshold ? this.limitValue + 1 : this.limitValue + 1 / this.limitValue,
    );
  }

  private retryLater(estimatedMs: number | undefined): void {
    if (this.retryTimer) return;
    const ms = Math.min(1000, Math.max(20, estimatedMs ?? 100));
    this.retryTimer = this.setTimer(() => {
      this.retryTimer = undefined;
      this.pump();
    }, ms);
  }
}
