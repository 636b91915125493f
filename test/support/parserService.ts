/**
 * Starts the real parser service (dist/parser-server.js) for a test, on a
 * free loopback port, through the same launcher the product uses.
 *
 *   const parser = await startParserService();
 *   // … parser.address is host:port …
 *   await parser.stop();
 */
import { startBundledParser, type BundledParser } from '../../src/core';
import { distFile } from './dist';

export interface RunningParserService {
  address: string;
  pid: number;
  /** Lines the service wrote to stderr. */
  log: string[];
  stop(): Promise<void>;
  /** Kills the process with SIGKILL (no draining), like a crash. */
  kill(): Promise<void>;
}

export async function startParserService(extraArgs: string[] = []): Promise<RunningParserService> {
  const log: string[] = [];
  const started = await startBundledParser({
    script: distFile('parser-server.js'),
    onLog: (line) => log.push(line),
    extraArgs,
  });
  if (!started.ok) throw new Error(started.error.message);
  const parser: BundledParser = started.value;
  return {
    address: parser.address,
    pid: parser.pid,
    log,
    stop: () => parser.dispose(),
    kill: async () => {
      try {
        process.kill(parser.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      await parser.dispose(0);
    },
  };
}
