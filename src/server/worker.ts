/**
 * One parser worker thread (bundled as dist/parser-worker.js): receives
 * `{id, source, filename}` and answers `{id, result}` with the parser's
 * verdict. The parser never throws; the thread holds no other state.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { validateAvap } from '../parser';
import type { WorkerReply, WorkerRequest } from './workerPool';

const maxBytes = (workerData as { maxBytes?: number } | undefined)?.maxBytes;

parentPort?.on('message', (request: WorkerRequest) => {
  const result = validateAvap(request.source, { filename: request.filename, ...(maxBytes ? { maxBytes } : {}) });
  const reply: WorkerReply = { id: request.id, result };
  parentPort?.postMessage(reply);
});
