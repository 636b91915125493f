#!/usr/bin/env node
/** Entry point of `node dist/cli.js`: dispatches to a subcommand. */
import { superviseRun } from './lifecycle';
import { readStreamLimited } from './readInput';
import { runCli } from './run';
import { guardStdout } from './stdoutGuard';

// Only the command writes to stdout; stray prints of dependencies go to stderr.
const stdout = guardStdout();
const stderr = (text: string) => {
  process.stderr.write(text);
};

// Aborted on the first SIGINT/SIGTERM (and if the run's event loop empties before its answer): see ./lifecycle.ts.
const controller = new AbortController();

const run = runCli(process.argv.slice(2), {
  stdout: stdout.write,
  stderr,
  readStdin: (maxBytes) => readStreamLimited(process.stdin, maxBytes, controller.signal),
  env: process.env,
  signal: controller.signal,
  ...(process.stderr.isTTY && process.env.TERM !== 'dumb'
    ? { stderrTerminal: { columns: () => process.stderr.columns } }
    : {}),
});
superviseRun(run, { controller, stderr });
