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
 * - Failures are data: `append` resolves `{ok: false, code, error}` and never
 *   rejects; `code` is the system error code (`ENOSPC`, `EACCES`…), `error`
 *   names the file and is meant for logs, not for remote clients.
 * - `health()` says whether the file can be written now: a probe (create the
 *   folder, open for append) and the outcome of the last append.
 */
import { appendFile, mkdir, open } from 'node:fs/promises';
import path from 'node:path';

export type AppendFailure = { ok: false; code: string; error: string };
export type AppendResult = { ok: true } | AppendFailure;

export interface AppendLogOptions {
  /** Called when a torn last line was found; the record being appended then starts on a fresh line. */
  onTornTail?: (file: string) => void;
}

const OK: AppendResult = { ok: true };

function failure(file: string, verb: string, err: unknown): AppendFailure {
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? 'EIO';
  const detail = (err as NodeJS.ErrnoException | undefined)?.code ?? (err instanceof Error ? err.message : String(err));
  return { ok: false, code, error: `cannot ${verb} ${file}: ${detail}` };
}

/** True when the file exists, is not empty and its last byte is not a newline. Never rejects. */
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

  constructor(readonly file: string, private readonly options: AppendLogOptions = {}) {}

  /** Appends one record as one JSON line, after every append issued before it. */
  append(record: unknown): Promise<AppendResult> {
    let line: string | undefined;
    try {
      line = JSON.stringify(record);
    } catch (err) {
      return Promise.resolve({ ok: false, code: 'EINVAL', error: `cannot write a record to ${this.file}: ${(err as Error).message}` });
    }
    if (line === undefined) return Promise.resolve({ ok: false, code: 'EINVAL', error: `cannot write an empty record to ${this.file}` });
    const text = `${line}\n`;
    const run = async (): Promise<AppendResult> => {
      let result: AppendResult;
      try {
        await this.ensureFolder();
        const torn = await endsWithoutNewline(this.file);
        if (torn) this.report();
        await appendFile(this.file, torn ? `\n${text}` : text, 'utf8');
        result = OK;
      } catch (err) {
        result = failure(this.file, 'append to', err);
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
    return this.queue.then(() => undefined, () => undefined);
  }

  /** Whether the file can be written now: the probe's failure first, else the last append's. Never rejects. */
  async health(): Promise<AppendResult> {
    try {
      await this.ensureFolder();
      const handle = await open(this.file, 'a');
      await handle.close();
    } catch (err) {
      return failure(this.file, 'open for appending', err);
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
