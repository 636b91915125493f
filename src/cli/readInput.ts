/**
 * Reading a command's input with a byte limit: a file or standard input is
 * read only up to one byte past the limit, so `/dev/zero`, a FIFO or an
 * endless pipe costs at most the limit in memory, and the read stops when
 * the command's AbortSignal fires (SIGINT/SIGTERM). A regular file larger
 * than the limit is not read at all: its size is known from the file system.
 */
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { oversizeEntry, type TraceEntry } from '../parser';

export interface LimitedInput {
  /** What was read: the whole input, or its first `maxBytes + 1` bytes when it goes on past the limit. */
  bytes: Buffer;
  /** The input is larger than the limit; `bytes` is only its beginning. */
  over: boolean;
  /** The full size when it is known (a regular file), for the message. */
  size?: number;
}

const CHUNK = 64 * 1024;

/** An error with the errno-style code the commands print (`cannot read X: EISDIR`). */
function ioError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

function aborted(signal: AbortSignal | undefined): NodeJS.ErrnoException {
  return ioError('ABORT_ERR', signal?.reason instanceof Error ? signal.reason.message : 'reading was interrupted');
}

/** Reads a file up to `maxBytes + 1` bytes (a directory is an EISDIR error, as `readFile` reports it). */
export async function readFileLimited(file: string, maxBytes: number, signal?: AbortSignal): Promise<LimitedInput> {
  if (signal?.aborted) throw aborted(signal);
  const handle = await open(file, 'r');
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw ioError('EISDIR', `${file} is a directory`);
    if (stat.isFile() && stat.size > maxBytes) return { bytes: Buffer.alloc(0), over: true, size: stat.size };
    const chunks: Buffer[] = [];
    let total = 0;
    // Devices and FIFOs report no size (or a wrong one): read in chunks, never past the limit + 1.
    while (total <= maxBytes) {
      if (signal?.aborted) throw aborted(signal);
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
    }
    const bytes = Buffer.concat(chunks, total);
    return total > maxBytes ? { bytes, over: true } : { bytes, over: false };
  } finally {
    await handle.close();
  }
}

/** Reads a stream (standard input) up to `maxBytes + 1` bytes, then stops reading it. */
export async function readStreamLimited(
  stream: Readable,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<LimitedInput> {
  if (signal?.aborted) throw aborted(signal);
  const chunks: Buffer[] = [];
  let total = 0;
  const onAbort = () => stream.destroy(aborted(signal));
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const chunk of stream) {
      const piece = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      const room = maxBytes + 1 - total;
      chunks.push(piece.length > room ? piece.subarray(0, room) : piece);
      total += Math.min(piece.length, room);
      // Leaving the loop destroys the stream: nothing more is read.
      if (total > maxBytes) break;
    }
  } catch (err) {
    if (signal?.aborted) throw aborted(signal);
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (signal?.aborted) throw aborted(signal);
  const bytes = Buffer.concat(chunks, total);
  return total > maxBytes ? { bytes, over: true } : { bytes, over: false };
}

/** The size-limit entry for an input cut at the limit: its full size is known only for a regular file. */
export function overLimitEntry(input: LimitedInput, maxBytes: number): TraceEntry {
  const entry = oversizeEntry(input.size ?? input.bytes.length, maxBytes);
  if (input.size !== undefined) return entry;
  // "… over the 1000 bytes limit — …": the limit as the parser words it; the size is unknown.
  const limit = /over (the .+? limit)/.exec(entry.message)?.[1];
  return limit
    ? { ...entry, message: `source goes on past ${limit} (reading stopped there) — split it into smaller files` }
    : entry;
}
