/**
 * Starts the real bundled parser service (dist/parser-server.js, so run
 * `npm run build` first) on a free loopback port, for integration tests.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const PARSER_SERVER_JS = path.join(REPO_ROOT, 'dist', 'parser-server.js');
export const CLI_JS = path.join(REPO_ROOT, 'dist', 'cli.js');

export interface RunningParser {
  /** host:port */
  address: string;
  port: number;
  child: ChildProcessWithoutNullStreams;
  /** Everything the service wrote to stderr so far. */
  stderr(): string;
  /** Sends a signal and resolves with the exit code (or the signal name). */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

export function startParserProcess(extraArgs: string[] = [], readyTimeoutMs = 15_000): Promise<RunningParser> {
  if (!existsSync(PARSER_SERVER_JS)) {
    return Promise.reject(new Error(`${PARSER_SERVER_JS} is missing — run npm run build first`));
  }
  const child = spawn(process.execPath, [PARSER_SERVER_JS, '--host', '127.0.0.1', '--port', '0', ...extraArgs], {
    stdio: 'pipe',
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`parser service did not start within ${readyTimeoutMs} ms: ${stderr}`));
    }, readyTimeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`parser service exited with ${code} before listening: ${stderr}`));
    });
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      clearTimeout(timer);
      const match = /^listening on (.+):(\d+)$/.exec(line);
      if (!match) {
        child.kill('SIGKILL');
        reject(new Error(`unexpected first line from the parser service: ${line}`));
        return;
      }
      resolve({
        address: `${match[1]}:${match[2]}`,
        port: Number(match[2]),
        child,
        stderr: () => stderr,
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    });
  });
}
