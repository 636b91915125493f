/**
 * A module of the repository as a host loads it: its esbuild bundle (Node 20, CommonJS, as dist/ is built), made in
 * a temporary folder and required from there — the benches measure bundled code, not the TypeScript sources under
 * tsx, and some entries (the scanner, the plain tokenizer) are in no bundle of dist/.
 */
import { buildSync } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');

/** The module at `entry` (a path from the repository's root), bundled and loaded. */
export function bundledModule<T>(entry: string): T {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'avap-bench-'));
  try {
    const outfile = path.join(dir, 'bundle.js');
    buildSync({
      entryPoints: [path.join(ROOT, entry)],
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      outfile,
      logLevel: 'error',
    });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(outfile) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
