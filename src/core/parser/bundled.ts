/**
 * The embedded default: when no parser URL is configured, the bundled parser
 * service (dist/parser-server.js) is started on a free loopback port and
 * reached over gRPC like any other. The child runs under `process.execPath`
 * (with ELECTRON_RUN_AS_NODE so this also works inside the editor).
 * `node:child_process` is loaded when a service is started, not with this
 * module: the editor's parser connection does not pay for it when a parser
 * URL is configured.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fail, ok, type Failure, type Result } from '../../result';

export interface BundledParser {
  /** host:port to hand to the gRPC client. */
  address: string;
  pid: number;
  /** Stops the service (SIGTERM, then SIGKILL after `graceMs`). Idempotent. */
  dispose(graceMs?: number): Promise<void>;
}

export interface StartBundledOptions {
  /** Path of parser-server.js; default: found next to this bundle or in dist/. */
  script?: string;
  host?: string;
  /** How long to wait for `listening on …`. Default 15 s. */
  startTimeoutMs?: number;
  /** Receives the service's stderr lines. */
  onLog?: (line: string) => void;
  /** Extra arguments for the service (e.g. --max-source-bytes). */
  extraArgs?: string[];
}

/** Why the bundled service did not start: no script, no address in time, an unexpected first line, no process, an early exit. */
type BundledStartFailure = Failure<'not-found' | 'no-address' | 'bad-banner' | 'spawn-failed' | 'exited'>;

export type StartBundledResult = Result<BundledParser, BundledStartFailure>;

/** Where parser-server.js is, from a bundle in dist/ or from the TypeScript sources. */
function findParserServerScript(): string | undefined {
  const candidates = [
    path.join(__dirname, 'parser-server.js'),
    path.join(__dirname, '..', 'dist', 'parser-server.js'),
    path.join(__dirname, '..', '..', '..', 'dist', 'parser-server.js'),
  ];
  return candidates.find((file) => existsSync(file));
}

const LISTENING = /^listening on (\S+)\s*$/;

export async function startBundledParser(options: StartBundledOptions = {}): Promise<StartBundledResult> {
  const script = options.script ?? findParserServerScript();
  if (!script || !existsSync(script)) {
    return fail(
      'not-found',
      `bundled parser service not found (${script ?? 'parser-server.js'}); run npm run build or set a parser URL`,
    );
  }
  const { spawn } = await import('node:child_process');
  const child = spawn(
    process.execPath,
    [script, '--host', options.host ?? '127.0.0.1', '--port', '0', ...(options.extraArgs ?? [])],
    {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stderrTail: string[] = [];
  let stderrBuffer = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderrBuffer += chunk;
    const lines = stderrBuffer.split('\n');
    stderrBuffer = lines.pop() ?? '';
    for (const line of lines) {
      stderrTail.push(line);
      if (stderrTail.length > 20) stderrTail.shift();
      options.onLog?.(line);
    }
  });

  return new Promise<StartBundledResult>((resolve) => {
    let settled = false;
    let stdoutBuffer = '';
    const finish = (result: StartBundledResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdout?.removeListener('data', onData);
      child.stdout?.resume();
      resolve(result);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(
        fail(
          'no-address',
          `bundled parser service did not report its address within ${options.startTimeoutMs ?? 15_000} ms`,
        ),
      );
    }, options.startTimeoutMs ?? 15_000);
    const onData = (chunk: string) => {
      stdoutBuffer += chunk;
      const newline = stdoutBuffer.indexOf('\n');
      if (newline < 0) return;
      const first = stdoutBuffer.slice(0, newline);
      const match = LISTENING.exec(first);
      if (!match?.[1]) {
        child.kill('SIGKILL');
        finish(fail('bad-banner', `bundled parser service printed '${first}' instead of 'listening on HOST:PORT'`));
        return;
      }
      finish(ok(handle(child, match[1])));
    };
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', onData);
    child.once('error', (error) =>
      finish(fail('spawn-failed', `cannot start the bundled parser service: ${error.message}`)),
    );
    child.once('exit', (code, signal) =>
      finish(
        fail(
          'exited',
          `bundled parser service exited (${signal ?? `code ${code}`}) before listening${stderrTail.length ? `: ${stderrTail.join(' | ')}` : ''}`,
        ),
      ),
    );
  });
}

function handle(child: ChildProcess, address: string): BundledParser {
  let stopping: Promise<void> | undefined;
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    address,
    pid: child.pid ?? -1,
    dispose(graceMs = 3000) {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}
