#!/usr/bin/env node
/** Entry point of `node dist/cli.js`: dispatches to a subcommand. */
import { runCli } from './run';
import { guardStdout } from './stdoutGuard';

// Only the command writes to stdout; stray prints of dependencies go to stderr.
const stdout = guardStdout();

const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => controller.abort(new Error(`received ${signal}`)));
}

runCli(process.argv.slice(2), {
  stdout: stdout.write,
  stderr: (text) => process.stderr.write(text),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  },
  env: process.env,
  signal: controller.signal,
  ...(process.stderr.isTTY && process.env.TERM !== 'dumb'
    ? { stderrTerminal: { columns: () => process.stderr.columns } }
    : {}),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`avap: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 2;
  },
);
