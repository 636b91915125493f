/**
 * One run worker (bundled as dist/runtime-worker.js). It holds the interpreter and the run's ports and nothing
 * else: HTTP only through the sandbox port (fixtures, allow-list), the database only through the embedded
 * PostgreSQL (in memory; its WebAssembly comes from the host), the clock and randomness as the run asks. It
 * gets no environment, argv or stdio of the host's (pool.ts starts it so), and a run reaches no module: the
 * interpreter has no port to files or processes.
 *
 * Runs of a batch execute one after the other; results go back at the end of the batch, or at once after a run
 * that made a real HTTP request (so a run with an effect outside is never executed twice if the worker dies).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { execute, type RunResult } from '..';
import { createClock, createRandom } from './clockRandom';
import { SandboxDatabase, type PgliteAssets } from './database';
import { createSandboxHttp } from './httpPort';
import {
  PROGRESS,
  SLOT,
  type HostMessage,
  type WorkerData,
  type WorkerMessage,
  type WorkerResult,
  type WorkerRun,
} from './protocol';

const port = parentPort;
const data = workerData as WorkerData;
const progress = new Float64Array(data.progress);
const cancelled = new Int32Array(data.cancelled);

function send(message: WorkerMessage): void {
  port?.postMessage(message);
}

let assetsWaiting: { resolve: (assets: PgliteAssets) => void; reject: (error: Error) => void } | undefined;
let assets: Promise<PgliteAssets> | undefined;

const database = new SandboxDatabase({
  assets: () =>
    (assets ??= new Promise<PgliteAssets>((resolve, reject) => {
      assetsWaiting = { resolve, reject };
      send({ type: 'need-db-assets' });
    })),
  onEmptyDump: (dump) => {
    void dump.arrayBuffer().then((bytes) => send({ type: 'empty-dump', dump: bytes }));
  },
  onBuild: (phase) => {
    if (phase === 'start') progress[PROGRESS.pausedAt] = Date.now();
    else {
      progress[PROGRESS.pausedMs] =
        (progress[PROGRESS.pausedMs] ?? 0) + Date.now() - (progress[PROGRESS.pausedAt] ?? 0);
      progress[PROGRESS.pausedAt] = 0;
    }
  },
});

async function runOne(run: WorkerRun): Promise<{ result: RunResult; effect: boolean }> {
  const controller = new AbortController();
  let effect = false;
  const http = createSandboxHttp({
    fixtures: run.sandbox.fixtures ?? [],
    allow: run.sandbox.allowHttp ?? [],
    onRealRequest: () => {
      effect = true;
    },
  });
  const db = database.forRun(run.sandbox.sql);
  try {
    const result = await execute(
      run.source,
      run.request,
      {
        http: {
          fetch: (call, signal) => http.fetch({ ...call, timeoutMs: Math.min(call.timeoutMs, run.timeoutMs) }, signal),
        },
        db: db.port,
        clock: createClock(run.sandbox.nowMs),
        random: createRandom(run.sandbox.seed),
      },
      {
        maxSteps: run.maxSteps,
        signal: controller.signal,
        ...(run.trace ? { trace: true } : {}),
        ...(run.maxTraceSteps !== undefined ? { maxTraceSteps: run.maxTraceSteps } : {}),
      },
    );
    return { result, effect };
  } finally {
    await db.finish();
  }
}

async function runBatch(runs: WorkerRun[]): Promise<void> {
  let pending: WorkerResult[] = [];
  for (const [index, run] of runs.entries()) {
    // Claim the slot (0 → 2); the host cancels by 0 → 1, so exactly one of the two wins.
    if (Atomics.compareExchange(cancelled, index, SLOT.free, SLOT.started) !== SLOT.free) continue;
    // The run's clock first, its number last: the host's watchdog reads the number, then the clock.
    progress[PROGRESS.pausedMs] = 0;
    progress[PROGRESS.pausedAt] = 0;
    progress[PROGRESS.startedAt] = Date.now();
    progress[PROGRESS.seq] = run.seq;
    const { result, effect } = await runOne(run);
    progress[PROGRESS.seq] = -1;
    pending.push({ seq: run.seq, result });
    if (effect && index < runs.length - 1) {
      send({ type: 'results', results: pending, done: false });
      pending = [];
    }
  }
  send({ type: 'results', results: pending, done: true });
}

port?.on('message', (message: HostMessage) => {
  if (message.type === 'runs') {
    void runBatch(message.runs);
    return;
  }
  const waiting = assetsWaiting;
  assetsWaiting = undefined;
  if (message.type === 'db-missing') {
    assets = undefined;
    waiting?.reject(new Error(message.message));
    return;
  }
  waiting?.resolve({
    pgliteWasmModule: message.pglite,
    initdbWasmModule: message.initdb,
    fsBundle: new Blob([message.data]),
    ...(message.emptyDump ? { emptyDump: new Blob([message.emptyDump]) } : {}),
  });
});
