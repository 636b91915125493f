/**
 * The contract every CLI subcommand implements. Subcommands live in
 * src/cli/commands/<name>.ts and are listed in src/cli/registry.ts.
 * A command never calls process.exit: it returns its exit code, so tests can
 * run it in-process with captured streams.
 */
import type { LimitedInput } from './readInput';
import type { Readable } from 'node:stream';

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /**
   * Reads standard input (the `-` file argument), at most `maxBytes + 1` bytes:
   * an endless input is cut there (`over`). Stops when `signal` is aborted.
   */
  readStdin: (maxBytes: number) => Promise<LimitedInput>;
  /** Standard input as a stream, for a command that talks over it (`lsp --stdio`). */
  stdin?: Readable;
  env: NodeJS.ProcessEnv;
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal;
  /**
   * Present when stderr is a terminal that can redraw a line (not a pipe, a
   * file or TERM=dumb): long commands then show live progress there.
   */
  stderrTerminal?: { columns: () => number | undefined };
}

export interface CliCommand {
  name: string;
  /** One line, shown in `avap --help`. */
  summary: string;
  /** Full usage text, shown by `avap <command> --help` and on usage errors. */
  usage: string;
  run(args: string[], io: CliIO): Promise<number>;
}

/** Exit codes shared by all commands. */
export const EXIT = {
  ok: 0,
  invalid: 1,
  usage: 2,
  invalidUnresolved: 3,
  parserUnavailable: 4,
} as const;

/** A usage error: the command prints `message` and its usage, and exits 2. */
export class UsageError extends Error {}
