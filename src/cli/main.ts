#!/usr/bin/env node
/**
 * Entry point of `node dist/cli.js`: dispatches to a subcommand. Each path
 * loads what it runs: `lsp`, which an editor starts and waits for, does not
 * load the other commands (the pipeline, the REST server, the gRPC stack).
 */
import type { CliIO } from './command';
import { superviseRun } from './lifecycle';
import { readStreamLimited } from './readInput';
import { guardStdout } from './stdoutGuard';

// Only the command writes to stdout; stray prints of dependencies go to stderr.
const stdout = guardStdout();
const stderr = (text: string) => {
  process.stderr.write(text);
};

// Aborted on the first SIGINT/SIGTERM (and if the run's event loop empties before its answer): see ./lifecycle.ts.
const controller = new AbortController();

const argv = process.argv.slice(2);

async function dispatch(io: CliIO): Promise<number> {
  if (argv[0] === 'lsp') {
    const [{ runSubcommand }, { lspCommand }] = await Promise.all([
      import('./runSubcommand.js'),
      import('./commands/lsp.js'),
    ]);
    return runSubcommand(lspCommand, argv.slice(1), io);
  }
  const { runCli } = await import('./run.js');
  return runCli(argv, io);
}

const run = dispatch({
  stdout: stdout.write,
  stderr,
  readStdin: (maxBytes) => readStreamLimited(process.stdin, maxBytes, controller.signal),
  stdin: process.stdin,
  env: process.env,
  signal: controller.signal,
  ...(process.stderr.isTTY && process.env.TERM !== 'dumb'
    ? { stderrTerminal: { columns: () => process.stderr.columns } }
    : {}),
});
superviseRun(run, { controller, stderr });
