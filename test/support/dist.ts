/**
 * Locating the built bundles (integration tests run after `npm run build`)
 * and running the CLI as a child process.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Absolute path of dist/<name>; throws a clear message when the build is missing. */
export function distFile(name: string): string {
  const file = path.join(REPO_ROOT, 'dist', name);
  if (!existsSync(file)) throw new Error(`${file} is missing — run 'npm run build' before the integration tests`);
  return file;
}

let cacheDir: string | undefined;

/**
 * The cache directory of the CLI children this test process starts (removed
 * when it exits), so no test reads or writes the user's ~/.cache.
 */
function testCacheDir(): string {
  if (!cacheDir) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'avap-test-cache-'));
    cacheDir = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return cacheDir;
}

/** The environment of a CLI child: this process's, the test cache directory, then the overrides (undefined removes). */
export function childEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, AVAP_CACHE_DIR: testCacheDir() };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  /** Kill the child after this many ms (a hung CLI fails the test instead of the suite). Default 20 s. */
  killAfterMs?: number;
  /** Called with each stdout chunk as it arrives. */
  onStdout?: (chunk: string) => void;
  /** Send SIGINT once `predicate(stdoutSoFar)` is true. */
  interruptWhen?: (stdout: string) => boolean;
  /** Send `signal` (default SIGTERM) once `when` resolves — e.g. when a call reached a test server. */
  signalWhen?: { when: Promise<unknown>; signal?: NodeJS.Signals };
}

/** Runs `node dist/cli.js ...args` and collects its output. */
export function runCliProcess(args: string[], options: RunCliOptions = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [distFile('cli.js'), ...args], {
    env: childEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let interrupted = false;
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    stdout += chunk;
    options.onStdout?.(chunk);
    if (!interrupted && options.interruptWhen?.(stdout)) {
      interrupted = true;
      child.kill('SIGINT');
    }
  });
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.end(options.input ?? '');
  void options.signalWhen?.when.then(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill(options.signalWhen?.signal ?? 'SIGTERM');
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 20_000);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}
