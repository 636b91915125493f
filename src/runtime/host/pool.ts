/**
 * The run pool: AVAP runs happen off the caller's thread, in worker threads, each run inside its budgets.
 *
 * - **Steps**: the interpreter counts them (`maxSteps`) and stops a runaway loop itself.
 * - **Wall time**: the host's watchdog reads each worker's progress block; a run over its time (minus the time
 *   the worker spent building its database) has its worker terminated and answers `time-budget`.
 * - **Memory**: each worker has a V8 heap cap (`resourceLimits`); a run that blows it kills only its worker
 *   and answers `memory-budget`.
 * - **Cancellation**: a run's AbortSignal takes it out of the queue, or terminates the worker running it.
 *
 * A terminated or crashed worker is replaced at once; the other runs of its batch go back to the queue (a run is
 * retried at most twice when a worker dies under another run; one that made a real HTTP request already
 * reported its result, so none is executed twice). Work goes out in batches (one message carries up to
 * MAX_BATCH runs when the queue is long), which is most of the pool's throughput.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { fail, ok, type Failure, type Result } from '../../result';
import { findPgliteDir, findWorkerScript, keepEmptyDump, loadPgliteAssets, readEmptyDump } from './assets';
import type { RunRequest, RunResult } from '..';
import {
  MAX_BATCH,
  PROGRESS,
  SLOT,
  type HostMessage,
  type SandboxSpec,
  type WorkerData,
  type WorkerMessage,
  type WorkerRun,
} from './protocol';

/** Why the host stopped a run (the `code` of its error); the interpreter's own codes come from the run. */
type HostStopCode = 'time-budget' | 'memory-budget' | 'cancelled' | 'worker-failed' | 'pool-closed';

export interface RunJob {
  source: string;
  request: RunRequest;
  sandbox?: SandboxSpec;
  /** Record the steps (RunResult.steps). */
  trace?: boolean;
  /** With `trace`: steps recorded at most (the rest are counted in RunResult.stepsOmitted). */
  maxTraceSteps?: number;
  signal?: AbortSignal;
}

export interface RunPoolOptions {
  /** Worker threads (default: the cores this process may use). */
  size?: number;
  /** Steps a run may take (default 1,000,000). */
  maxSteps?: number;
  /** Wall-time budget of a run, ms (default 5,000). */
  timeoutMs?: number;
  /** V8 heap cap of each worker, MiB (default 256). */
  memoryMb?: number;
  /** dist/runtime-worker.js (default: found next to this bundle). */
  script?: string;
  /** Folder with PGlite's files (default: found next to this bundle or in its package). */
  pgliteDir?: string;
  /** Where the empty database cluster is kept between processes (default: in memory only). */
  cacheDir?: string;
  log?: (line: string) => void;
}

export const DEFAULT_LIMITS = { maxSteps: 1_000_000, timeoutMs: 5_000, memoryMb: 256 } as const;

/** How long a worker may spend building its database before it is taken for hung. */
const BUILD_LIMIT_MS = 120_000;

export interface RunPool {
  run(job: RunJob): Promise<RunResult>;
  readonly size: number;
  /** Workers started so far, replacements included. */
  readonly started: number;
  close(): Promise<void>;
}

/** The result of a run the host stopped (no line: the host cannot see where the interpreter was). */
function stoppedRun(code: HostStopCode, message: string): RunResult {
  return {
    status: 500,
    result: {},
    variables: {},
    logs: [],
    error: { line: 0, command: '', message, code },
    portability: [],
  };
}

interface Job {
  seq: number;
  job: RunJob;
  resolve: (result: RunResult) => void;
  settled: boolean;
  retries: number;
  unlisten?: () => void;
}

interface Slot {
  index: number;
  worker: Worker;
  progress: Float64Array;
  cancelled: Int32Array;
  batch: Job[] | undefined;
  /** Set when the host terminates the worker, with the run it blames and why. */
  kill?: { seq: number; code: HostStopCode; message: string };
  crash?: Error;
}

class Pool implements RunPool {
  readonly size: number;
  started = 0;
  private readonly slots: Slot[] = [];
  private queue: Job[] = [];
  private head = 0;
  private seq = 0;
  private closed = false;
  private watchdog: NodeJS.Timeout | undefined;
  private assetsKey: string | undefined;
  private readonly limits: { maxSteps: number; timeoutMs: number; memoryMb: number };

  constructor(
    private readonly script: string,
    private readonly options: RunPoolOptions,
  ) {
    this.size = Math.max(1, options.size ?? availableParallelism());
    this.limits = {
      maxSteps: options.maxSteps ?? DEFAULT_LIMITS.maxSteps,
      timeoutMs: options.timeoutMs ?? DEFAULT_LIMITS.timeoutMs,
      memoryMb: options.memoryMb ?? DEFAULT_LIMITS.memoryMb,
    };
    for (let i = 0; i < this.size; i++) this.slots.push(this.spawn(i));
  }

  private spawn(index: number): Slot {
    const progress = new SharedArrayBuffer(PROGRESS.size * 8);
    const cancelled = new SharedArrayBuffer(MAX_BATCH * 4);
    const data: WorkerData = { progress, cancelled };
    const memory = this.limits.memoryMb;
    const worker = new Worker(this.script, {
      workerData: data,
      // Nothing of the host's: no environment, arguments or inherited output.
      env: {},
      argv: [],
      execArgv: [],
      stdout: true,
      stderr: true,
      resourceLimits: {
        maxOldGenerationSizeMb: memory,
        maxYoungGenerationSizeMb: Math.max(4, Math.min(32, Math.floor(memory / 8))),
        stackSizeMb: 4,
      },
    });
    worker.stdout.resume();
    worker.stderr.resume();
    worker.unref();
    this.started++;
    const slot: Slot = {
      index,
      worker,
      progress: new Float64Array(progress),
      cancelled: new Int32Array(cancelled),
      batch: undefined,
    };
    slot.progress[PROGRESS.seq] = -1;
    worker.on('message', (message: WorkerMessage) => this.onMessage(slot, message));
    worker.on('error', (error) => {
      slot.crash = error;
    });
    worker.on('exit', () => this.onExit(slot));
    return slot;
  }

  run(job: RunJob): Promise<RunResult> {
    if (this.closed) return Promise.resolve(stoppedRun('pool-closed', 'the runtime is shut down'));
    if (job.signal?.aborted) return Promise.resolve(stoppedRun('cancelled', 'the run was cancelled before it started'));
    return new Promise((resolve) => {
      const entry: Job = { seq: this.seq++, job, resolve, settled: false, retries: 0 };
      const signal = job.signal;
      if (signal) {
        const onAbort = () => this.cancel(entry);
        signal.addEventListener('abort', onAbort, { once: true });
        entry.unlisten = () => signal.removeEventListener('abort', onAbort);
      }
      this.queue.push(entry);
      this.dispatch();
    });
  }

  private settle(entry: Job, result: RunResult): void {
    if (entry.settled) return;
    entry.settled = true;
    entry.unlisten?.();
    entry.resolve(result);
  }

  private take(count: number): Job[] {
    const out: Job[] = [];
    while (out.length < count && this.head < this.queue.length) {
      const entry = this.queue[this.head++] as Job;
      if (!entry.settled) out.push(entry);
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return out;
  }

  private dispatch(): void {
    const idle = this.slots.filter((s) => !s.batch && !s.kill);
    if (idle.length === 0) return;
    for (const slot of idle) {
      const waiting = this.queue.length - this.head;
      if (waiting <= 0) break;
      const batch = this.take(Math.min(MAX_BATCH, Math.ceil(waiting / idle.length)));
      if (batch.length === 0) break;
      slot.batch = batch;
      slot.cancelled.fill(0);
      const runs: WorkerRun[] = batch.map((entry) => ({
        seq: entry.seq,
        source: entry.job.source,
        request: entry.job.request,
        sandbox: entry.job.sandbox ?? {},
        maxSteps: this.limits.maxSteps,
        trace: entry.job.trace ?? false,
        ...(entry.job.maxTraceSteps !== undefined ? { maxTraceSteps: entry.job.maxTraceSteps } : {}),
        timeoutMs: this.limits.timeoutMs,
      }));
      const message: HostMessage = { type: 'runs', runs };
      slot.worker.ref();
      slot.worker.postMessage(message);
    }
    this.armWatchdog();
  }

  private onMessage(slot: Slot, message: WorkerMessage): void {
    if (message.type === 'need-db-assets') {
      void this.sendAssets(slot);
      return;
    }
    if (message.type === 'empty-dump') {
      if (this.assetsKey) void keepEmptyDump(this.assetsKey, message.dump, this.options.cacheDir);
      return;
    }
    const batch = slot.batch ?? [];
    for (const { seq, result } of message.results) {
      const entry = batch.find((e) => e.seq === seq);
      if (entry) this.settle(entry, result);
    }
    if (!message.done) return;
    // Runs cancelled inside the batch were settled when cancelled.
    for (const entry of batch)
      if (!entry.settled) this.settle(entry, stoppedRun('worker-failed', 'the worker lost the run'));
    slot.batch = undefined;
    if (!slot.kill) slot.worker.unref();
    this.dispatch();
  }

  private async sendAssets(slot: Slot): Promise<void> {
    let message: HostMessage;
    const dir = this.options.pgliteDir ?? findPgliteDir();
    try {
      if (!dir) throw new Error("PGlite's files (pglite.wasm, initdb.wasm, pglite.data) were not found");
      const assets = await loadPgliteAssets(dir);
      this.assetsKey = assets.key;
      const emptyDump = await readEmptyDump(assets.key, this.options.cacheDir);
      message = {
        type: 'db-assets',
        pglite: assets.pglite,
        initdb: assets.initdb,
        data: assets.data,
        ...(emptyDump ? { emptyDump } : {}),
      };
    } catch (e) {
      this.options.log?.(`[runtime] the database is unavailable to runs: ${(e as Error).message}`);
      message = { type: 'db-missing', message: (e as Error).message };
    }
    if (this.slots[slot.index] === slot) slot.worker.postMessage(message);
  }

  /** Terminates a worker, blaming run `seq` (the exit handler answers it and requeues the rest). */
  private kill(slot: Slot, seq: number, code: HostStopCode, message: string): void {
    if (slot.kill) return;
    slot.kill = { seq, code, message };
    void slot.worker.terminate();
  }

  private onExit(slot: Slot): void {
    if (this.slots[slot.index] !== slot) return;
    const running = slot.progress[PROGRESS.seq] ?? -1;
    const batch = slot.batch ?? [];
    slot.batch = undefined;
    if (!this.closed) {
      this.slots[slot.index] = this.spawn(slot.index);
      const why = slot.kill ? slot.kill.code : (slot.crash?.message ?? 'exited');
      this.options.log?.(`[runtime] worker ${slot.index + 1} stopped (${why}); a new one takes its place`);
    }
    const requeue: Job[] = [];
    for (const entry of batch) {
      if (entry.settled) continue;
      if (slot.kill && entry.seq === slot.kill.seq) {
        this.settle(entry, stoppedRun(slot.kill.code, slot.kill.message));
      } else if (!slot.kill && entry.seq === running) {
        const oom = (slot.crash as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
        this.settle(
          entry,
          oom
            ? stoppedRun(
                'memory-budget',
                `the run used more than its memory budget of ${this.limits.memoryMb} MiB and was stopped`,
              )
            : stoppedRun('worker-failed', `the run's worker failed: ${slot.crash?.message ?? 'it exited'}`),
        );
      } else if (this.closed) {
        this.settle(entry, stoppedRun('pool-closed', 'the runtime shut down before the run finished'));
      } else if (++entry.retries > 2) {
        this.settle(entry, stoppedRun('worker-failed', 'the run was lost by its worker three times'));
      } else {
        requeue.push(entry);
      }
    }
    if (requeue.length) {
      this.queue.splice(this.head, 0, ...requeue);
      this.dispatch();
    }
  }

  private cancel(entry: Job): void {
    if (entry.settled) return;
    for (const slot of this.slots) {
      const index = slot.batch?.indexOf(entry) ?? -1;
      if (index < 0) continue;
      // Cancelled before the worker claimed it: it will be skipped. Claimed: it is running, so its worker goes.
      if (Atomics.compareExchange(slot.cancelled, index, SLOT.free, SLOT.cancelled) === SLOT.started) {
        this.kill(slot, entry.seq, 'cancelled', 'the run was cancelled');
        return;
      }
    }
    this.settle(entry, stoppedRun('cancelled', 'the run was cancelled'));
  }

  private armWatchdog(): void {
    if (this.watchdog || this.closed) return;
    const tick = Math.max(5, Math.min(100, Math.floor(this.limits.timeoutMs / 10)));
    this.watchdog = setInterval(() => this.check(), tick);
    this.watchdog.unref();
  }

  private check(): void {
    const now = Date.now();
    let busy = false;
    for (const slot of this.slots) {
      if (!slot.batch || slot.kill) continue;
      busy = true;
      const seq = slot.progress[PROGRESS.seq] ?? -1;
      const startedAt = slot.progress[PROGRESS.startedAt] ?? 0;
      if (seq < 0 || startedAt <= 0) continue;
      const pausedAt = slot.progress[PROGRESS.pausedAt] ?? 0;
      if (pausedAt > 0 && now - pausedAt > BUILD_LIMIT_MS) {
        this.kill(slot, seq, 'worker-failed', `the embedded database did not start within ${BUILD_LIMIT_MS / 1000} s`);
        continue;
      }
      const paused = (slot.progress[PROGRESS.pausedMs] ?? 0) + (pausedAt > 0 ? now - pausedAt : 0);
      const elapsed = now - startedAt - paused;
      if (elapsed > this.limits.timeoutMs)
        this.kill(
          slot,
          seq,
          'time-budget',
          `the run took longer than its time budget of ${this.limits.timeoutMs} ms and was stopped`,
        );
    }
    if (!busy && this.watchdog) {
      clearInterval(this.watchdog);
      this.watchdog = undefined;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.watchdog) clearInterval(this.watchdog);
    for (const entry of this.queue.slice(this.head))
      this.settle(entry, stoppedRun('pool-closed', 'the runtime shut down before the run started'));
    this.queue = [];
    this.head = 0;
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }
}

/** Starts the pool's workers; fails when the worker bundle is missing (run `npm run build`). */
export function createRunPool(options: RunPoolOptions = {}): Result<RunPool, Failure<'no-worker-script'>> {
  const script = options.script ?? findWorkerScript();
  if (!script)
    return fail('no-worker-script', 'the runtime worker (dist/runtime-worker.js) is missing; run npm run build');
  return ok(new Pool(script, options));
}
