/**
 * Runs `node dist/cli.js serve …` as a child process for a test and waits for
 * its first stdout line, `listening on HOST:PORT`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { childEnv, distFile } from '../../support/dist';

export interface ServeProcess {
  /** http://127.0.0.1:PORT (loopback even when bound to 0.0.0.0). */
  url: string;
  /** The first stdout line. */
  banner: string;
  port: number;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** SIGINT, then waits for the exit code (SIGKILL after 10 s). */
  stop(): Promise<number | null>;
}

export interface ServeExit {
  code: number | null;
  stdout: string;
  stderr: string;
}

const LISTENING = /^listening on (.+):(\d+)$/;

/** Starts the server; rejects with its output when it exits before listening. */
export function startServe(args: string[], env: Record<string, string | undefined> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [distFile('cli.js'), 'serve', ...args], {
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start within 20 s\nstdout: ${out}\nstderr: ${err}`));
    }, 20_000);
    child.stdout?.on('data', (chunk: string) => {
      const before = out;
      out += chunk;
      if (before.includes('\n')) return;
      const newline = out.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      const banner = out.slice(0, newline);
      const match = LISTENING.exec(banner);
      if (!match) {
        child.kill('SIGKILL');
        reject(new Error(`unexpected first line: ${banner}`));
        return;
      }
      const port = Number(match[2]);
      resolve({
        url: `http://127.0.0.1:${port}`,
        banner,
        port,
        child,
        stdout: () => out,
        stderr: () => err,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
          const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          const code = await exited;
          clearTimeout(killer);
          return code;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before listening\nstdout: ${out}\nstderr: ${err}`));
    });
  });
}

/** Runs serve expecting it to refuse to start; resolves with its exit and output. */
export function serveExpectingExit(args: string[], env: Record<string, string | undefined> = {}): Promise<ServeExit> {
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env };
  const child = spawn(process.execPath, [distFile('cli.js'), 'serve', ...args], {
    env: merged,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
  });
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** Reads an NDJSON response body into objects. */
export async function ndjson(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Reads a server-sent-events body into {id, event, data} records. */
export async function sseEvents(
  response: Response,
): Promise<{ id?: string; event?: string; data: Record<string, unknown> }[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const fields: Record<string, string> = {};
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
      }
      return {
        ...(fields.id ? { id: fields.id } : {}),
        ...(fields.event ? { event: fields.event } : {}),
        data: JSON.parse(fields.data ?? '{}') as Record<string, unknown>,
      };
    });
}
