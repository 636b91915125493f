/**
 * An append-only JSON-lines file that survives torn writes. Shared by the
 * telemetry log and the training-signal store.
 *
 * - One record is one line, written with a single append (O_APPEND); appends
 *   through one writer are serialised, so its lines never interleave.
 * - Before each append the last byte of the file is checked. A last line
 *   without its newline (a crash or a full disk mid-write) is reported once
 *   through `onTornTail` and the record starts on a fresh line, so the cut
 *   line never swallows it; readers skip the cut line.
 * - Failures are data: `append` resolves the one Result type (src/result) and
 *   never rejects. The error's `kind` says what failed (`invalid-record`: the
 *   record cannot be written as JSON; `unwritable`: the file system refused),
 *   `code` is the system error code (`ENOSPC`, `EACCES`…), and `message` names
 *   the file and is meant for logs, not for remote clients.
 * - `health()` says whether the file can be written now: a probe (create the
 *   folder, open for append) and the outcome of the last append.
 */
import { appendFile, mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { err, ok, type Failure, type Result } from '../result';

/** Why an append (or the health probe) failed; `code` is the system error code, `EINVAL` for a bad record. */
interface AppendFailure extends Failure<'invalid-record' | 'unwritable'> {
  code: string;
}
export type AppendResult = Result<void, AppendFailure>;

export interface AppendLogOptions {
  /** Called when a torn last line was found; the record being appended then starts on a fresh line. */
  onTornTail?: (file: string) => void;
}

const OK: AppendResult = ok(undefined);

function failure(file: string, verb: string, error: unknown): AppendResult {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'EIO';
  const detail =
    (error as NodeJS.ErrnoException | undefined)?.code ?? (error instanceof Error ? error.message : String(error));
  return err({ kind: 'unwritable', code, message: `cannot ${verb} ${file}: ${detail}` });
}

const invalidRecord = (message: string): AppendResult => err({ kind: 'invalid-record', code: 'EINVAL', message });

/**
 * True when the file exists, is not empty and its last byte is not a newline. Never rejects.
 * @internal
 */
export async function endsWithoutNewline(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return false;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return false;
    const buffer = Buffer.alloc(1);
    await handle.read(buffer, 0, 1, size - 1);
    return buffer[0] !== 0x0a;
  } catch {
    return false;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

export class JsonlAppendLog {
  private queue: Promise<unknown> = Promise.resolve();
  private last: AppendResult = OK;

  constructor(
    readonly file: string,
    private readonly options: AppendLogOptions = {},
  ) {}

  /** Appends one record as one JSON line, after every append issued before it. */
  append(record: unknown): Promise<AppendResult> {
    let line: string | undefined;
    try {
      line = JSON.stringify(record);
    } catch (error) {
      return Promise.resolve(invalidRecord(`cannot write a record to ${this.file}: ${(error as Error).message}`));
    }
    if (line === undefined) return Promise.resolve(invalidRecord(`cannot write an empty record to ${this.file}`));
    const text = `${line}\n`;
    const run = async (): Promise<AppendResult> => {
      let result: AppendResult;
      try {
        await this.ensureFolder();
        const torn = await endsWithoutNewline(this.file);
        if (torn) this.report();
        await appendFile(this.file, torn ? `\n${text}` : text, 'utf8');
        result = OK;
      } catch (error) {
        result = failure(this.file, 'append to', error);
      }
      this.last = result;
      return result;
    };
    const next = this.queue.then(run, run);
    this.queue = next;
    return next;
  }

  /** Resolves when every append issued so far has been written (or has failed). */
  flush(): Promise<void> {
    return this.queue.then(
      () => undefined,
      () => undefined,
    );
  }

  /** Whether the file can be written now: the probe's failure first, else the last append's. Never rejects. */
  async health(): Promise<AppendResult> {
    try {
      await this.ensureFolder();
      const handle = await open(this.file, 'a');
      await handle.close();
    } catch (error) {
      return failure(this.file, 'open for appending', error);
    }
    return this.last;
  }

  /** Creates the folder if needed; a failure shows in the open or append that follows, with a clearer code. */
  private async ensureFolder(): Promise<void> {
    await mkdir(path.dirname(path.resolve(this.file)), { recursive: true }).catch(() => undefined);
  }

  private report(): void {
    try {
      this.options.onTornTail?.(this.file);
    } catch {
      // a reporter must not stop the write
    }
  }
}
