/**
 * The ParserPort the pipeline uses: one transport call per validation, behind
 * a cockatiel circuit breaker.
 *
 * - CLOSED → OPEN after `threshold` consecutive transport/deadline failures.
 *   A verdict (VALID or INVALID), a size refusal, an overloaded answer (the
 *   service is up, just busy: `overloaded`, no verdict for that call) and a
 *   caller's cancellation are not failures.
 * - The parser is down only when it stops answering: a call that times out
 *   or loses its connection is no verdict for that call, but it counts as a
 *   failure only if the service answered nothing since the call went out —
 *   no other call's answer, and no answer to the liveness check the breaker
 *   sends over the same channel (the transport's `alive`: a tiny Validate
 *   call, one shared by the failures that arrive together). Under a burst,
 *   deadline timers fire in batches while the service is busy but up; they
 *   must not open the circuit on it (a timeout then reads as `overloaded`).
 *   A hung or dead service answers neither — a hung one may well answer its
 *   health check, which is why the check is a Validate call — so its
 *   failures still count.
 * - The check is decided by the call's deadline, not after it: a call still
 *   unanswered at half its deadline starts the check (unless another answer
 *   already came), so a hung service's caller hears `timeout` when its
 *   deadline passes, not a second deadline later. A check counts as
 *   unanswered once it has waited half a deadline with every answer already
 *   received read first (one more turn of the event loop); a check whose own
 *   deadline fired late — our event loop stalled, its answer may have been
 *   waiting unread — decides nothing, and a new one is sent.
 * - While OPEN no transport call is made; the outcome is `circuit-open` at once.
 * - After `cooldownMs` (measured on the injected clock) the next request first
 *   sends a known-valid canary snippet as the HALF-OPEN probe, so a user's
 *   code is never the probe. A reply closes the circuit and the request then
 *   goes through; a failure re-opens it for another cooldown.
 * - `timeoutMs === 0` disables validation: state `disabled`, never a call.
 */
import {
  BrokenCircuitError,
  type CircuitBreakerPolicy,
  CircuitState as CockatielState,
  ConsecutiveBreaker,
  circuitBreaker,
  handleWhen,
  type IBackoff,
  type IBackoffFactory,
  type IHalfOpenAfterBackoffContext,
} from 'cockatiel';
import type { CircuitSnapshot, CircuitState, ParserOutcome, ParserPort } from '../types';
import { systemClock, silentLogger, type Clock, type Logger } from '../ports';
import type { ParserTransport, TransportFailure as TransportError, TransportResult } from './transport';

/** A small program every parser version accepts; the half-open probe. */
export const CANARY_SOURCE = 'addParam(name, n)\naddResult(n)\n';
/** @internal */
export const CANARY_FILENAME = '<circuit-probe>';

/**
 * The design's circuit lines (messages; printed as `prefixed(…)`, e.g. `[ptvl] circuit OPEN — …`).
 * @internal
 */
export const LOG_SKIP = 'circuit OPEN — skipping parser, returning unvalidated';
/** @internal */
export const LOG_HALF_OPEN = 'circuit HALF-OPEN — probing parser availability';
/** @internal */
export const LOG_CLOSED = 'circuit CLOSED — parser reachable';

export interface BreakerParserOptions {
  timeoutMs: number;
  threshold: number;
  cooldownMs: number;
  clock?: Clock;
  logger?: Logger;
}

/** A liveness check: when it went out and, once it ended, whether the parser answered. */
interface LivenessCheck {
  readonly sentAt: number;
  /** Set when it ended. */
  readonly up?: boolean;
  /** It failed after its deadline plus LATE_MS: our own event loop stalled, its answer may have waited unread. */
  readonly late?: boolean;
  readonly done: Promise<boolean>;
}

/** How much later than its deadline a check may fail and still count as "no answer". */
const LATE_MS = 50;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Waits for `promise` at most `ms` (the timer is cleared either way). */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** Thrown inside the breaker for failures that count. */
class TransportFailure extends Error {
  constructor(readonly failure: TransportError) {
    super(failure.message);
  }
}

/** Thrown inside the breaker for a caller's cancellation: neither success nor failure. */
class CallerCancelled extends Error {}

/**
 * cockatiel measures the open period with Date.now(); this backoff makes the
 * decision on the injected clock instead: while the cooldown runs its duration
 * is +Infinity (stay open), after it -Infinity (let the probe through).
 */
class ClockCooldown implements IBackoffFactory<IHalfOpenAfterBackoffContext> {
  constructor(
    private readonly clock: Clock,
    private readonly cooldownMs: number,
    private readonly opened: (at: number) => void,
  ) {}

  next(): IBackoff<IHalfOpenAfterBackoffContext> {
    const openedAt = this.clock.now();
    this.opened(openedAt);
    const { clock, cooldownMs } = this;
    return {
      get duration() {
        return clock.now() - openedAt < cooldownMs ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
      },
      next: () => this.next(),
    };
  }
}

export class BreakerParser implements ParserPort {
  private policy!: CircuitBreakerPolicy;
  private counter!: ConsecutiveBreaker;
  private openedAt: number | undefined;
  private readonly listeners = new Set<(snapshot: CircuitSnapshot) => void>();
  private readonly clock: Clock;
  private readonly logger: Logger;
  private subscriptions: { dispose(): void }[] = [];
  private lastParserVersion: string | undefined;
  /** Answers received from the service (verdicts, refusals, overloaded answers, answered liveness checks): proof it is up. */
  private answers = 0;
  /** The liveness check in flight, shared by every call that needs one. */
  private liveness: LivenessCheck | undefined;

  constructor(
    private readonly transport: ParserTransport,
    private readonly options: BreakerParserOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
    this.build();
  }

  /** The parser version of the last verdict, if any (for telemetry). */
  get parserVersion(): string | undefined {
    return this.lastParserVersion;
  }

  private build(): void {
    for (const sub of this.subscriptions) sub.dispose();
    this.counter = new ConsecutiveBreaker(Math.max(1, this.options.threshold));
    this.openedAt = undefined;
    this.policy = circuitBreaker(
      handleWhen((err) => err instanceof TransportFailure),
      {
        halfOpenAfter: new ClockCooldown(this.clock, this.options.cooldownMs, (at) => {
          this.openedAt = at;
        }),
        breaker: this.counter,
      },
    );
    this.subscriptions = [
      this.policy.onBreak(() => {
        this.logger.warn(
          `circuit OPEN after ${this.options.threshold} consecutive parser failures — next probe in ${Math.round(this.options.cooldownMs / 1000)} s`,
        );
      }),
      this.policy.onHalfOpen(() => this.logger.info(LOG_HALF_OPEN)),
      this.policy.onReset(() => {
        this.openedAt = undefined;
        this.logger.info(LOG_CLOSED);
      }),
      // Fired after the state has changed, so listeners see the new snapshot.
      this.policy.onStateChange(() => this.emit()),
    ];
  }

  private get disabled(): boolean {
    return this.options.timeoutMs <= 0;
  }

  circuit(): CircuitSnapshot {
    if (this.disabled) return { state: 'disabled', consecutiveFailures: 0 };
    const state: CircuitState =
      this.policy.state === CockatielState.Closed
        ? 'closed'
        : this.policy.state === CockatielState.HalfOpen
          ? 'half-open'
          : 'open';
    const snapshot: CircuitSnapshot = { state, consecutiveFailures: this.counter.state };
    if (state === 'open' && this.openedAt !== undefined) snapshot.nextProbeAt = this.openedAt + this.options.cooldownMs;
    return snapshot;
  }

  resetCircuit(): void {
    const wasClosed = this.circuit().state === 'closed' && this.counter.state === 0;
    this.build();
    if (!wasClosed && !this.disabled) {
      this.logger.info(LOG_CLOSED);
      this.emit();
    }
  }

  onCircuitChange(listener: (snapshot: CircuitSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    const snapshot = this.circuit();
    for (const listener of this.listeners) {
      try {
        listener(snapshot);
      } catch {
        // A listener's failure must not break validation.
      }
    }
  }

  private skipped(detail: string): ParserOutcome {
    this.logger.warn(LOG_SKIP);
    return { kind: 'unavailable', reason: 'circuit-open', detail };
  }

  async validate(source: string, filename: string, signal?: AbortSignal): Promise<ParserOutcome> {
    if (this.disabled)
      return { kind: 'unavailable', reason: 'disabled', detail: 'validation is disabled (parser timeout 0)' };
    if (signal?.aborted) return { kind: 'unavailable', reason: 'cancelled', detail: 'cancelled before validation' };

    if (this.policy.state === CockatielState.Open) {
      // Either still cooling down (BrokenCircuitError, no call) or the canary becomes the probe.
      try {
        await this.policy.execute(() => {
          this.transport.reconnect?.();
          return this.attempt(CANARY_SOURCE, CANARY_FILENAME, undefined);
        });
      } catch (err) {
        if (err instanceof BrokenCircuitError)
          return this.skipped('circuit open: parser failed repeatedly; waiting for the cooldown');
        if (err instanceof TransportFailure)
          return this.skipped(`circuit re-opened: the probe failed (${err.message})`);
        return this.skipped(`circuit probe failed: ${(err as Error).message}`);
      }
      if (signal?.aborted)
        return { kind: 'unavailable', reason: 'cancelled', detail: 'cancelled during the circuit probe' };
    }

    try {
      return await this.policy.execute(() => this.attempt(source, filename, signal));
    } catch (err) {
      if (err instanceof BrokenCircuitError)
        return this.skipped('circuit open: parser failed repeatedly; waiting for the cooldown');
      if (err instanceof CallerCancelled) return { kind: 'unavailable', reason: 'cancelled', detail: err.message };
      if (err instanceof TransportFailure) {
        const { kind, message } = err.failure;
        return { kind: 'unavailable', reason: kind === 'timeout' ? 'timeout' : 'transport', detail: message };
      }
      return { kind: 'unavailable', reason: 'transport', detail: (err as Error).message };
    }
  }

  /** One transport call, shaped for the breaker: throws what counts, returns what does not. */
  private async attempt(source: string, filename: string, signal: AbortSignal | undefined): Promise<ParserOutcome> {
    const answersBefore = this.answers;
    const waiting = this.checkIfStillWaiting(answersBefore);
    let result: TransportResult;
    try {
      result = await this.transport.call(source, filename, { timeoutMs: this.options.timeoutMs, signal });
    } finally {
      waiting.stop();
    }
    if (result.ok) {
      this.answers += 1;
      this.lastParserVersion = result.value.parserVersion;
      return { kind: 'validated', result: result.value };
    }
    const failure = result.error;
    if (failure.kind === 'rejected' || failure.kind === 'overloaded') this.answers += 1;
    if (failure.kind === 'cancelled' && signal?.aborted)
      throw new CallerCancelled('validation cancelled by the caller');
    if (failure.kind === 'rejected') return { kind: 'unavailable', reason: 'rejected', detail: failure.message };
    if (failure.kind === 'overloaded') {
      return {
        kind: 'unavailable',
        reason: 'overloaded',
        detail: failure.message,
        ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
      };
    }
    if (await this.answeredSince(answersBefore, waiting.check)) {
      // The service answered meanwhile: busy, not down.
      return failure.kind === 'timeout'
        ? {
            kind: 'unavailable',
            reason: 'overloaded',
            detail: `no answer within ${this.options.timeoutMs} ms, but the parser service is up (${failure.message})`,
          }
        : { kind: 'unavailable', reason: 'transport', detail: `${failure.message} (the parser service is up)` };
    }
    throw new TransportFailure(failure);
  }

  /**
   * Starts the liveness check when the call is still unanswered at half its
   * deadline and nothing else was answered since it went out, so the check is
   * decided by the time the deadline passes.
   */
  private checkIfStillWaiting(answersBefore: number): { check?: LivenessCheck; stop(): void } {
    const waiting: { check?: LivenessCheck; stop(): void } = { stop: () => undefined };
    if (!this.transport.alive) return waiting;
    const timer = setTimeout(
      () => {
        if (this.answers === answersBefore) waiting.check = this.livenessCheck();
      },
      Math.floor(this.options.timeoutMs / 2),
    );
    // Stops the timer once the call has ended; a check already started runs on (it may decide the outcome).
    waiting.stop = () => clearTimeout(timer);
    return waiting;
  }

  /**
   * Whether the service's parser answered anything since `answersBefore`:
   * another call's answer, or the liveness check (the one started while the
   * call waited, else a new one). A check still unanswered once it has waited
   * half a deadline — every answer already received read first — is a no; so
   * is one that failed on time. One that failed late decides nothing: it is
   * asked once more.
   */
  private async answeredSince(answersBefore: number, early: LivenessCheck | undefined): Promise<boolean> {
    // Answers that arrived together with the failure (not yet read in this turn of the event loop) count too.
    await nextTurn();
    if (this.answers > answersBefore) return true;
    if (!this.transport.alive) return false;
    let check = early ?? this.livenessCheck();
    for (let asked = 1; ; asked += 1) {
      const patience = this.options.timeoutMs / 2 - (performance.now() - check.sentAt);
      if (check.up === undefined && patience > 0) await settledWithin(check.done, patience);
      await nextTurn();
      if (this.answers > answersBefore || check.up === true) return true;
      // Unanswered for half a deadline (it runs on; an answer still counts for later calls), or failed on time.
      if (check.up === undefined || !check.late || asked > 1) return false;
      check = this.livenessCheck();
    }
  }

  /** The liveness check in flight, or a new one (one at a time, shared by the calls that need it). */
  private livenessCheck(): LivenessCheck {
    if (this.liveness) return this.liveness;
    const transport = this.transport;
    const timeoutMs = this.options.timeoutMs;
    const sentAt = performance.now();
    const check: { sentAt: number; up?: boolean; late?: boolean; done: Promise<boolean> } = {
      sentAt,
      done: (transport.alive ? transport.alive(timeoutMs) : Promise.resolve(false))
        .catch(() => false)
        .then((up) => {
          check.up = up;
          check.late = !up && performance.now() - sentAt > timeoutMs + LATE_MS;
          if (this.liveness === check) this.liveness = undefined;
          if (up) this.answers += 1;
          return up;
        }),
    };
    this.liveness = check;
    return check;
  }
}
