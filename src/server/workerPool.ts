/**
 * The parser's worker threads: one executor per thread, each parsing one
 * source at a time (the scheduler hands out the work). A thread that dies
 * fails the call it was running and is replaced on the next call.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ValidationResult } from '../parser';
import type { ParseExecutor } from './scheduler';

export interface WorkerRequest {
  id: number;
  source: string;
  filename: string;
}

export interface WorkerReply {
  id: number;
  result: ValidationResult;
}

const WORKER_SCRIPT = 'parser-worker.js';

/** The default pool size: every core this process may use. */
export function defaultWorkerCount(): number {
  return Math.max(1, availableParallelism());
}

/** Where parser-worker.js is: next to this bundle (dist/), or in dist/ from the TypeScript sources. */
function findWorkerScript(): string | undefined {
  const candidates = [path.join(__dirname, WORKER_SCRIPT), path.join(__dirname, '..', '..', 'dist', WORKER_SCRIPT)];
  return candidates.find((file) => existsSync(file));
}

export interface WorkerPool {
  readonly executors: readonly ParseExecutor[];
  /** Stops every thread. */
  close(): Promise<void>;
}

export interface WorkerPoolOptions {
  size: number;
  /** Path of parser-worker.js (default: found next to this bundle). */
  script?: string;
  /** The parser's size limit, handed to each thread. */
  maxBytes: number;
  /** Nice value each thread gives itself (0: normal priority). Default 10. */
  niceness?: number;
  log?: (line: string) => void;
}

class ThreadExecutor implements ParseExecutor {
  private worker: Worker | undefined;
  private nextId = 1;
  private current: { id: number; resolve: (r: ValidationResult) => void; reject: (e: Error) => void } | undefined;
  private closed = false;

  constructor(
    private readonly index: number,
    private readonly options: WorkerPoolOptions & { script: string },
  ) {
    this.worker = this.spawn();
  }

  private spawn(): Worker {
    const worker = new Worker(this.options.script, {
      workerData: { maxBytes: this.options.maxBytes, niceness: this.options.niceness ?? 10 },
    });
    worker.on('message', (reply: WorkerReply) => {
      const current = this.current;
      if (!current || current.id !== reply.id) return;
      this.current = undefined;
      current.resolve(reply.result);
    });
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (!this.closed) this.options.log?.(`worker ${this.index} ${why}; starting a new one for the next call`);
      const current = this.current;
      this.current = undefined;
      current?.reject(new Error(`parser worker ${why}`));
    };
    worker.on('error', (err) => lost(`failed: ${err.message}`));
    worker.on('exit', (code) => lost(`exited with code ${code}`));
    return worker;
  }

  parse(source: string, filename: string): Promise<ValidationResult> {
    if (this.closed) return Promise.reject(new Error('the parser worker pool is closed'));
    if (this.current) return Promise.reject(new Error('parser worker is busy (one call at a time)'));
    const worker = this.worker ?? (this.worker = this.spawn());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.current = { id, resolve, reject };
      const request: WorkerRequest = { id, source, filename };
      worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.current?.reject(new Error('the parser worker pool is closed'));
    this.current = undefined;
    if (worker) await worker.terminate();
  }
}

export function startWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const script = options.script ?? findWorkerScript();
  if (!script || !existsSync(script)) {
    throw new Error(`parser worker script not found (${script ?? WORKER_SCRIPT}); run npm run build`);
  }
  const executors = Array.from(
    { length: Math.max(1, options.size) },
    (_, i) => new ThreadExecutor(i + 1, { ...options, script }),
  );
  let closing: Promise<void> | undefined;
  return {
    executors,
    close() {
      closing ??= Promise.all(executors.map((e) => e.close())).then(() => undefined);
      return closing;
    },
  };
}
