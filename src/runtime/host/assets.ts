/**
 * Where the host finds its files: the run worker's bundle and PGlite's WebAssembly and file bundle. The build
 * puts both next to the bundles (dist/runtime-worker.js, dist/pglite/); from the TypeScript sources PGlite's
 * come from its package. Read and compiled once per process, when a worker first needs a database.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const WORKER_SCRIPT = 'runtime-worker.js';

/** The files of PGlite the build copies into dist/pglite/. */
const PGLITE_FILES = ['pglite.wasm', 'initdb.wasm', 'pglite.data'] as const;

/** dist/runtime-worker.js: next to this bundle, or in dist/ from the TypeScript sources. */
export function findWorkerScript(): string | undefined {
  const candidates = [
    path.join(__dirname, WORKER_SCRIPT),
    path.join(__dirname, '..', '..', '..', 'dist', WORKER_SCRIPT),
  ];
  return candidates.find((file) => existsSync(file));
}

/** The folder holding PGlite's files: dist/pglite/ next to this bundle, else the package's own dist/. */
export function findPgliteDir(): string | undefined {
  const candidates = [
    path.join(__dirname, 'pglite'),
    path.join(__dirname, '..', '..', '..', 'dist', 'pglite'),
    path.join(__dirname, '..', '..', '..', 'node_modules', '@electric-sql', 'pglite', 'dist'),
  ];
  return candidates.find((dir) => PGLITE_FILES.every((f) => existsSync(path.join(dir, f))));
}

export interface HostPgliteAssets {
  pglite: WebAssembly.Module;
  initdb: WebAssembly.Module;
  data: ArrayBuffer;
  /** Names this build of PGlite (a digest of its files): a cluster dump is only loaded by the build that made it. */
  key: string;
}

/** The WebAssembly API (in Node, not in this project's type libraries). */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } })
  .WebAssembly;

const loaded = new Map<string, Promise<HostPgliteAssets>>();

/** PGlite's two modules compiled and its file bundle read, once per folder. */
export function loadPgliteAssets(dir: string): Promise<HostPgliteAssets> {
  let assets = loaded.get(dir);
  if (!assets) {
    assets = (async () => {
      const [pglite, initdb, data] = await Promise.all(PGLITE_FILES.map((f) => readFile(path.join(dir, f))));
      const bytes = data as Buffer;
      const digest = createHash('sha256');
      for (const file of [pglite, initdb, data]) digest.update(file as Buffer);
      return {
        key: digest.digest('hex').slice(0, 16),
        pglite: await wasm.compile(pglite as Buffer),
        initdb: await wasm.compile(initdb as Buffer),
        data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      };
    })();
    loaded.set(dir, assets);
    assets.catch(() => loaded.delete(dir));
  }
  return assets;
}

const emptyDumps = new Map<string, ArrayBuffer>();

function dumpFile(cacheDir: string, key: string): string {
  return path.join(cacheDir, `pglite-empty-cluster-${key}.tar`);
}

/**
 * The dump of a new, empty cluster for this PGlite build: kept in memory for the process, and in `cacheDir`
 * (when given) for the next one, so initdb (a second or more) runs once.
 */
export async function readEmptyDump(key: string, cacheDir: string | undefined): Promise<ArrayBuffer | undefined> {
  const kept = emptyDumps.get(key);
  if (kept || !cacheDir) return kept;
  try {
    const bytes = await readFile(dumpFile(cacheDir, key));
    const dump = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    emptyDumps.set(key, dump);
    return dump;
  } catch {
    return undefined;
  }
}

/** Keeps a worker's empty-cluster dump; a cache that cannot be written is only a slower next start. */
export async function keepEmptyDump(key: string, dump: ArrayBuffer, cacheDir: string | undefined): Promise<void> {
  emptyDumps.set(key, dump);
  if (!cacheDir) return;
  const file = dumpFile(cacheDir, key);
  const partial = `${file}.${process.pid}.partial`;
  try {
    await mkdir(cacheDir, { recursive: true });
    await writeFile(partial, new Uint8Array(dump));
    await rename(partial, file);
  } catch {
    await rm(partial, { force: true }).catch(() => undefined);
  }
}
