/**
 * What the host (the caller's thread) and a run worker say to each other. A batch of runs goes out in one
 * message and their results come back in one (or a few) — fewer messages per run is most of the pool's speed;
 * each run is still executed on its own, with its own ports and a database made fresh.
 *
 * Besides messages, each worker shares a small block of memory with the host (written without a message, read by
 * the host's watchdog): which run of the batch it is executing, since when, and how long the run has been paused
 * while the worker builds its database (which is not the run's time).
 */
import type { RunRequest, RunResult } from '..';
import type { AllowedHost, HttpFixture } from './httpFixtures';

/** The sandbox of one run: what its HTTP, database, clock and random ports answer. */
export interface SandboxSpec {
  /** Recorded HTTP responses. */
  fixtures?: readonly HttpFixture[];
  /** Hosts a run may really call. */
  allowHttp?: readonly AllowedHost[];
  /** SQL run once on a new database before the run (the run sees its effects, never another run's). */
  sql?: string;
  /** Fixed time for the clock port (epoch ms); default: the real time. */
  nowMs?: number;
  /** Seed of the random port; default: unseeded. */
  seed?: number;
}

export interface WorkerRun {
  /** The pool's number for the run. */
  seq: number;
  source: string;
  request: RunRequest;
  sandbox: SandboxSpec;
  maxSteps: number;
  trace: boolean;
  /** With `trace`: steps recorded at most. */
  maxTraceSteps?: number;
  /** Time left for HTTP calls: the run's wall-time budget. */
  timeoutMs: number;
}

export interface WorkerResult {
  seq: number;
  result: RunResult;
}

export type HostMessage =
  | { type: 'runs'; runs: WorkerRun[] }
  /** PGlite's modules, compiled once by the host (a WebAssembly.Module is shared, not copied), and its files. */
  | {
      type: 'db-assets';
      pglite: WebAssembly.Module;
      initdb: WebAssembly.Module;
      data: ArrayBuffer;
      /** A dump of a new, empty cluster, when the host has one: the worker loads it instead of running initdb. */
      emptyDump?: ArrayBuffer;
    }
  /** PGlite's files could not be found or read: runs get `unavailable` from the database. */
  | { type: 'db-missing'; message: string };

export type WorkerMessage =
  | { type: 'results'; results: WorkerResult[]; done: boolean }
  | { type: 'need-db-assets' }
  /** The dump of the empty cluster a worker made with initdb, for the host to hand to the other workers. */
  | { type: 'empty-dump'; dump: ArrayBuffer };

/** The shared progress block: Float64 slots. */
export const PROGRESS = {
  /** seq of the run being executed, −1 between runs. */
  seq: 0,
  /** Date.now() when it started. */
  startedAt: 1,
  /** Date.now() when a pause (database build) began, 0 when none. */
  pausedAt: 2,
  /** Milliseconds paused so far in this run. */
  pausedMs: 3,
  size: 4,
} as const;

/** Largest batch one message carries; also the size of the shared cancellation flags. */
export const MAX_BATCH = 64;

/** The shared Int32 flag of each batch slot: the worker claims a run before it starts it, the host cancels it. */
export const SLOT = { free: 0, cancelled: 1, started: 2 } as const;

export interface WorkerData {
  progress: SharedArrayBuffer;
  /** One SLOT flag per run of the batch. */
  cancelled: SharedArrayBuffer;
}
