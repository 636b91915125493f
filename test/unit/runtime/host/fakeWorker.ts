/**
 * Builds the real run worker (dist/runtime-worker.js as esbuild.config.mjs makes it) into a temporary folder,
 * so the pool's tests run the real interpreter without depending on `npm run build`; and writes a stand-in worker
 * that speaks the pool's protocol and crashes on demand (what no AVAP program can make the real one do).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as esbuild from 'esbuild';

const root = path.resolve(__dirname, '..', '..', '..', '..');

interface BuildConfig {
  commonOptions(options?: { production?: boolean }): esbuild.BuildOptions;
  entries: (esbuild.BuildOptions & { entryPoints: Record<string, string> })[];
}

/** Builds runtime-worker.js into a fresh folder; returns its path and a cleanup. */
export async function buildRunWorker(): Promise<{ script: string; dispose: () => void }> {
  const config = (await import(pathToFileURL(path.join(root, 'esbuild.config.mjs')).href)) as BuildConfig;
  const esb = await import('esbuild');
  const entry = config.entries.find((e) => Object.keys(e.entryPoints).includes('runtime-worker'));
  if (!entry) throw new Error('esbuild.config.mjs has no runtime-worker bundle');
  const outdir = mkdtempSync(path.join(tmpdir(), 'avap-run-worker-'));
  await esb.build({ ...config.commonOptions(), ...entry, absWorkingDir: root, outdir, logLevel: 'silent' });
  return {
    script: path.join(outdir, 'runtime-worker.js'),
    dispose: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

/**
 * A worker that answers `{echo: source}` for each run, and for a run whose source is `crash` marks it as running
 * (the shared progress block) and exits — as a worker dies under a run.
 */
export function writeCrashingWorker(): { script: string; dispose: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'avap-crash-worker-'));
  const script = path.join(dir, 'crash-worker.js');
  writeFileSync(
    script,
    `const { parentPort, workerData } = require('node:worker_threads');
const progress = new Float64Array(workerData.progress);
parentPort.on('message', (message) => {
  if (message.type !== 'runs') return;
  const results = [];
  for (const run of message.runs) {
    progress[1] = Date.now();
    progress[0] = run.seq;
    if (run.source === 'crash') process.exit(3);
    results.push({ seq: run.seq, result: { status: 200, result: { echo: run.source }, variables: {}, logs: [], portability: [] } });
    progress[0] = -1;
  }
  parentPort.postMessage({ type: 'results', results, done: true });
});
`,
  );
  return { script, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
