/**
 * Standard output belongs to the command (with --json: JSON lines only).
 * Dependencies sometimes print on their own — the ollama client logs with
 * console.log when Ollama answers an error that is not JSON — so while a
 * command runs, every write to stdout that does not come through the
 * command's own writer, and console.log/info/debug, go to stderr instead.
 */
export interface GuardedStdout {
  /** Writes to the real standard output. */
  write: (text: string) => void;
  /** Puts process.stdout and console back as they were. */
  restore: () => void;
}

export function guardStdout(
  stdout: NodeJS.WriteStream = process.stdout,
  stderr: NodeJS.WriteStream = process.stderr,
): GuardedStdout {
  const realWrite = stdout.write.bind(stdout);
  // Kept unbound on purpose: restore() puts them back on the same objects they came from.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- stored to be reassigned to stdout.write, never called detached
  const originals = { log: console.log, info: console.info, debug: console.debug, write: stdout.write };
  const toStderr = ((chunk: unknown, encoding?: unknown, callback?: unknown) =>
    stderr.write(chunk as string, encoding as BufferEncoding, callback as () => void)) as typeof stdout.write;
  stdout.write = toStderr;
  console.log =
    console.info =
    console.debug =
      (...args: unknown[]) => {
        console.error(...args);
      };
  return {
    write: (text) => {
      realWrite(text);
    },
    restore: () => {
      stdout.write = originals.write;
      console.log = originals.log;
      console.info = originals.info;
      console.debug = originals.debug;
    },
  };
}
