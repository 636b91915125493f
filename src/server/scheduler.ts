/**
 * The parser service's admission and queue in front of its worker pool.
 * Deterministic: time comes from an injected clock and parsing from injected
 * executors (one per worker), so the rules are unit-tested without threads.
 *
 * - **Admission at once.** A call is refused (`overloaded`) when the work
 *   queued ahead of it, at the measured throughput, cannot finish within its
 *   deadline with a safety factor (default 2: the estimate must fit in half
 *   the time left), or when the queue holds more than `maxQueuedBytes`. A
 *   refusal costs no parsing and tells the caller how long the wait would be.
 * - **Never compute for nobody.** A queued call whose deadline has passed, or
 *   whose caller went away, is dropped when it reaches the head of the queue
 *   (or as soon as a later admission sweeps it out): it is never parsed.
 * - **Refuse in time, not too late.** A queued call that could no longer
 *   finish before its deadline — with a reserve of a quarter of the time it
 *   arrived with, so the answer reaches the caller before its own timer
 *   fires — is answered `overloaded` then (a timer watches the queue), not
 *   left to time out: the caller learns "busy", not "down".
 * - **Small first.** Sources up to `smallBytes` (default 16 KiB — an editor's
 *   document, a generated answer) wait in their own lane, served before the
 *   bulk lane, so a burst of large files does not hold up the next keystroke.
 * - **Measured throughput.** Each parse updates an exponentially weighted
 *   estimate of milliseconds per byte (plus a fixed per-call cost), starting
 *   from a deliberately low prior until the first calls are measured.
 */
import type { ValidationResult } from '../parser';

export interface SchedulerClock {
  now(): number;
}

/** Parses one source at a time (a worker thread, or a fake in tests). Rejects only when the worker itself failed. */
export interface ParseExecutor {
  parse(source: string, filename: string): Promise<ValidationResult>;
}

export interface ParseJob {
  source: string;
  filename: string;
  /** UTF-8 length of `source`. */
  bytes: number;
  /** Epoch ms after which nobody waits for the answer; `Infinity` for none. */
  deadline: number;
  /** True once the caller went away (checked again before parsing). */
  cancelled?: () => boolean;
}

export type JobOutcome =
  | { kind: 'verdict'; result: ValidationResult }
  /** The deadline passed before a worker was free: never parsed. */
  | { kind: 'expired' }
  /** The caller went away before a worker was free: never parsed. */
  | { kind: 'cancelled' }
  /** Refused at admission: the wait (estimated) would not fit the deadline, or the queue is full. */
  | { kind: 'overloaded'; estimatedMs: number; reason: string }
  /** The worker failed (crashed, out of memory); the pool replaces it. */
  | { kind: 'failed'; message: string };

export interface SchedulerOptions {
  clock?: SchedulerClock;
  /** Sources up to this many bytes use the small-first lane. Default 16 KiB. */
  smallBytes?: number;
  /** Bytes that may wait in the queue in total. Default 256 MiB. */
  maxQueuedBytes?: number;
  /** Estimated finish × safety must fit in the time left. Default 2. */
  safety?: number;
  /** Throughput assumed before the first measurement, in bytes per ms. Default 1000 (1 MB/s, far below the parser's: a cold start admits little until measured). */
  priorBytesPerMs?: number;
  /** The per-call cost that does not depend on size, expressed in bytes. Default 4096. */
  fixedCostBytes?: number;
  /** Weight of each new measurement in the estimate. Default 0.2. */
  smoothing?: number;
  /** Share of the time a call arrived with that is kept in reserve for its answer to travel back. Default 0.25. */
  reserve?: number;
  /** Schedules the check for queued calls that can no longer finish in time (tests pass a manual one). */
  setTimer?: (run: () => void, ms: number) => { cancel(): void };
}

export interface SchedulerStats {
  /** Calls handed to a worker. */
  computed: number;
  /** Calls dropped because their deadline passed while queued. */
  expired: number;
  /** Calls dropped because their caller went away while queued. */
  cancelled: number;
  /** Calls refused at admission. */
  refused: number;
  /** Queued calls answered `overloaded` because they could no longer finish in time: never parsed. */
  shed: number;
  queued: number;
  queuedBytes: number;
  running: number;
  /** The current throughput estimate of one worker, bytes per ms. */
  bytesPerMs: number;
}

export interface Ticket {
  readonly outcome: Promise<JobOutcome>;
  /** The caller went away: drop the call if it is still queued. */
  cancel(): void;
}

/** Exponentially weighted cost model: ms = (bytes + fixed) × msPerUnit. */
export class ThroughputEstimate {
  private msPerUnit: number;

  constructor(
    priorBytesPerMs: number,
    private readonly fixedCostBytes: number,
    private readonly smoothing: number,
  ) {
    this.msPerUnit = 1 / Math.max(1e-9, priorBytesPerMs);
  }

  /** Estimated milliseconds one worker needs for a source of `bytes`. */
  cost(bytes: number): number {
    return (bytes + this.fixedCostBytes) * this.msPerUnit;
  }

  observe(bytes: number, ms: number): void {
    const sample = Math.max(0, ms) / (bytes + this.fixedCostBytes);
    this.msPerUnit += this.smoothing * (sample - this.msPerUnit);
  }

  get bytesPerMs(): number {
    return 1 / this.msPerUnit;
  }
}

interface Queued {
  job: ParseJob;
  cost: number;
  small: boolean;
  /** Time kept for the answer to travel back. */
  reserveMs: number;
  settle: (outcome: JobOutcome) => void;
  done: boolean;
}

type DropReason = 'expired' | 'cancelled' | 'shed';

const realTimer = (run: () => void, ms: number) => {
  const handle = setTimeout(run, ms);
  handle.unref?.();
  return { cancel: () => clearTimeout(handle) };
};

interface Slot {
  executor: ParseExecutor;
  running?: { cost: number; startedAt: number };
}

export class ParseScheduler {
  private readonly clock: SchedulerClock;
  private readonly smallBytes: number;
  private readonly maxQueuedBytes: number;
  private readonly safety: number;
  private readonly reserve: number;
  private readonly setTimer: NonNullable<SchedulerOptions['setTimer']>;
  private lateCheck: { at: number; handle: { cancel(): void } } | undefined;
  private readonly estimate: ThroughputEstimate;
  private readonly slots: Slot[];
  private readonly smallLane: Queued[] = [];
  private readonly bulkLane: Queued[] = [];
  private queuedBytes = 0;
  private readonly counters = { computed: 0, expired: 0, cancelled: 0, refused: 0, shed: 0 };

  constructor(executors: readonly ParseExecutor[], options: SchedulerOptions = {}) {
    if (executors.length === 0) throw new Error('the parser scheduler needs at least one executor');
    this.clock = options.clock ?? { now: () => Date.now() };
    this.smallBytes = options.smallBytes ?? 16 * 1024;
    this.maxQueuedBytes = options.maxQueuedBytes ?? 256 * 1024 * 1024;
    this.safety = options.safety ?? 2;
    this.reserve = options.reserve ?? 0.25;
    this.setTimer = options.setTimer ?? realTimer;
    this.estimate = new ThroughputEstimate(
      options.priorBytesPerMs ?? 1000,
      options.fixedCostBytes ?? 4096,
      options.smoothing ?? 0.2,
    );
    this.slots = executors.map((executor) => ({ executor }));
  }

  stats(): SchedulerStats {
    return {
      ...this.counters,
      queued: this.smallLane.length + this.bulkLane.length,
      queuedBytes: this.queuedBytes,
      running: this.slots.filter((s) => s.running).length,
      bytesPerMs: this.estimate.bytesPerMs,
    };
  }

  /**
   * Milliseconds until a new source of `bytes` would be parsed, by the
   * current estimate: the work queued ahead of it in its lane and the lanes
   * before it, plus what the running calls still need, spread over the
   * workers, plus its own parse.
   */
  estimateMs(bytes: number): number {
    const now = this.clock.now();
    const small = bytes <= this.smallBytes;
    let ahead = 0;
    for (const entry of this.smallLane) ahead += entry.cost;
    if (!small) for (const entry of this.bulkLane) ahead += entry.cost;
    let idle = 0;
    for (const slot of this.slots) {
      if (slot.running) ahead += Math.max(0, slot.running.cost - (now - slot.running.startedAt));
      else idle += 1;
    }
    const waiting = idle > 0 && ahead === 0 ? 0 : ahead / this.slots.length;
    return waiting + this.estimate.cost(bytes);
  }

  submit(job: ParseJob): Ticket {
    let settle!: (outcome: JobOutcome) => void;
    const outcome = new Promise<JobOutcome>((resolve) => {
      settle = resolve;
    });
    const now = this.clock.now();
    if (job.cancelled?.()) {
      this.counters.cancelled += 1;
      settle({ kind: 'cancelled' });
      return { outcome, cancel: () => undefined };
    }
    if (job.deadline <= now) {
      this.counters.expired += 1;
      settle({ kind: 'expired' });
      return { outcome, cancel: () => undefined };
    }
    this.sweep(now);
    const estimatedMs = this.estimateMs(job.bytes);
    const refusal =
      this.queuedBytes + job.bytes > this.maxQueuedBytes
        ? `the queue holds ${this.queuedBytes} bytes (limit ${this.maxQueuedBytes})`
        : job.deadline !== Infinity && estimatedMs * this.safety > job.deadline - now
          ? `queued work needs ~${Math.ceil(estimatedMs)} ms; the deadline leaves ${Math.max(0, Math.floor(job.deadline - now))} ms`
          : undefined;
    if (refusal) {
      this.counters.refused += 1;
      settle({ kind: 'overloaded', estimatedMs: Math.ceil(estimatedMs), reason: refusal });
      return { outcome, cancel: () => undefined };
    }
    const small = job.bytes <= this.smallBytes;
    const reserveMs = job.deadline === Infinity ? 0 : (job.deadline - now) * this.reserve;
    const entry: Queued = { job, cost: this.estimate.cost(job.bytes), small, reserveMs, settle, done: false };
    (small ? this.smallLane : this.bulkLane).push(entry);
    this.queuedBytes += job.bytes;
    this.pump();
    this.watchLate();
    return {
      outcome,
      cancel: () => {
        if (entry.done || !this.remove(entry)) return;
        this.counters.cancelled += 1;
        this.finish(entry, { kind: 'cancelled' });
      },
    };
  }

  private finish(entry: Queued, outcome: JobOutcome): void {
    entry.done = true;
    entry.settle(outcome);
  }

  private remove(entry: Queued): boolean {
    const lane = entry.small ? this.smallLane : this.bulkLane;
    const index = lane.indexOf(entry);
    if (index < 0) return false;
    lane.splice(index, 1);
    this.queuedBytes -= entry.job.bytes;
    return true;
  }

  /** Drops queued calls that nobody waits for or that can no longer finish in time, so they stop counting as work ahead. */
  private sweep(now: number): void {
    for (const lane of [this.smallLane, this.bulkLane]) {
      for (let i = lane.length - 1; i >= 0; i -= 1) {
        const entry = lane[i] as Queued;
        const dropped = this.dropReason(entry, now);
        if (!dropped) continue;
        lane.splice(i, 1);
        this.queuedBytes -= entry.job.bytes;
        this.drop(entry, dropped);
      }
    }
  }

  /** The last moment a queued call can start and still answer before its deadline, with its reserve. */
  private latestStart(entry: Queued): number {
    return entry.job.deadline - entry.reserveMs - this.estimate.cost(entry.job.bytes);
  }

  private dropReason(entry: Queued, now: number): DropReason | undefined {
    if (entry.job.cancelled?.()) return 'cancelled';
    if (entry.job.deadline <= now) return 'expired';
    if (now > this.latestStart(entry)) return 'shed';
    return undefined;
  }

  private drop(entry: Queued, reason: DropReason): void {
    this.counters[reason] += 1;
    if (reason !== 'shed') {
      this.finish(entry, { kind: reason });
      return;
    }
    const waitMs = Math.ceil(this.estimateMs(entry.job.bytes));
    this.finish(entry, {
      kind: 'overloaded',
      estimatedMs: waitMs,
      reason: `waited in the queue too long to finish before its deadline (~${waitMs} ms of work ahead now)`,
    });
  }

  /** Arms one timer for the earliest moment a queued call stops being able to finish in time. */
  private watchLate(): void {
    let earliest = Number.POSITIVE_INFINITY;
    for (const lane of [this.smallLane, this.bulkLane])
      for (const entry of lane) earliest = Math.min(earliest, this.latestStart(entry));
    if (this.lateCheck && this.lateCheck.at <= earliest) return;
    this.lateCheck?.handle.cancel();
    this.lateCheck = undefined;
    if (earliest === Number.POSITIVE_INFINITY) return;
    const handle = this.setTimer(
      () => {
        this.lateCheck = undefined;
        this.sweep(this.clock.now());
        this.watchLate();
      },
      Math.max(0, Math.ceil(earliest - this.clock.now()) + 1),
    );
    this.lateCheck = { at: earliest, handle };
  }

  private next(): Queued | undefined {
    const entry = this.smallLane.shift() ?? this.bulkLane.shift();
    if (entry) this.queuedBytes -= entry.job.bytes;
    return entry;
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.running) continue;
      let entry = this.next();
      while (entry) {
        const dropped = this.dropReason(entry, this.clock.now());
        if (!dropped) break;
        this.drop(entry, dropped);
        entry = this.next();
      }
      if (!entry) break;
      this.run(slot, entry);
    }
  }

  private run(slot: Slot, entry: Queued): void {
    const startedAt = this.clock.now();
    slot.running = { cost: entry.cost, startedAt };
    this.counters.computed += 1;
    const { job } = entry;
    void slot.executor
      .parse(job.source, job.filename)
      .then(
        (result) => {
          this.estimate.observe(job.bytes, this.clock.now() - startedAt);
          return { kind: 'verdict', result } as const;
        },
        (err: unknown) => ({ kind: 'failed', message: err instanceof Error ? err.message : String(err) }) as const,
      )
      .then((outcome) => {
        slot.running = undefined;
        this.finish(entry, outcome);
        this.pump();
      });
  }
}
