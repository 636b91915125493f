/**
 * One parser worker thread (bundled as dist/parser-worker.js): receives
 * `{id, source, filename}` and answers `{id, result}` with the parser's
 * verdict. The parser never throws; the thread holds no other state.
 *
 * The thread lowers its own scheduling priority (Linux applies a nice value
 * per thread): when the cores are saturated, the service's gRPC thread —
 * admission, overload answers, health checks — and the processes calling it
 * still get the CPU, so deadlines are judged on time instead of in a stalled
 * event loop. Parsing takes whatever is left, which under saturation is the same work done a little later.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { validateAvap } from '../parser';
import type { WorkerReply, WorkerRequest } from './workerPool';

const data = (workerData ?? {}) as { maxBytes?: number; niceness?: number };
const maxBytes = data.maxBytes;
try {
  if (data.niceness) setPriority(data.niceness);
} catch {
  // Not permitted or not supported here: parse at normal priority.
}

parentPort?.on('message', (request: WorkerRequest) => {
  const result = validateAvap(request.source, { filename: request.filename, ...(maxBytes ? { maxBytes } : {}) });
  const reply: WorkerReply = { id: request.id, result };
  parentPort?.postMessage(reply);
});
