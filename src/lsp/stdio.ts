/**
 * The server over a pair of streams (standard input and output for
 * `avap lsp --stdio`): JSON-RPC with the protocol's `Content-Length` framing.
 * Resolves with the exit code once the client is gone: 0 after `shutdown`,
 * 1 when it left without it (the input closed, its process died, or a signal
 * came), the protocol's rule. After `exit` the library itself ends the
 * process with that code.
 *
 * The client's process is watched here rather than by the library (whose
 * watch cannot be stopped and would keep a finished server alive): the
 * `processId` of `initialize` is taken out before the library sees it.
 */
import type { Readable, Writable } from 'node:stream';
import {
  createConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type DataCallback,
  type Message,
  type MessageReader,
} from 'vscode-languageserver/node';
import { serveLanguage, type ServerInfo } from './server';

export interface StdioServerOptions {
  readonly input: Readable;
  readonly output: Writable;
  readonly info: ServerInfo;
  /** Aborted (SIGINT, SIGTERM): the server stops at once, as a client that left without shutdown. */
  readonly signal?: AbortSignal;
  /** How often the client's process is checked, in ms (default 3000). */
  readonly watchMs?: number;
}

/** A reader that hands the client's process id of `initialize` to `onClient` instead of to the library. */
function withClientWatch(inner: MessageReader, onClient: (pid: number) => void): MessageReader {
  return {
    onError: inner.onError,
    onClose: inner.onClose,
    onPartialMessage: inner.onPartialMessage,
    dispose: () => inner.dispose(),
    listen: (callback: DataCallback) =>
      inner.listen((message: Message) => {
        const request = message as { method?: string; params?: { processId?: unknown } };
        if (request.method === 'initialize' && request.params && typeof request.params.processId === 'number') {
          onClient(request.params.processId);
          request.params.processId = null;
        }
        callback(message);
      }),
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, it is only not ours to signal.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function startStdioServer({ input, output, info, signal, watchMs = 3000 }: StdioServerOptions): Promise<number> {
  let watch: NodeJS.Timeout | undefined;
  let finish: (code: number) => void = () => undefined;
  const reader = withClientWatch(new StreamMessageReader(input), (pid) => {
    watch = setInterval(() => {
      if (!alive(pid)) finish(1);
    }, watchMs);
    watch.unref();
  });
  const connection = createConnection(reader, new StreamMessageWriter(output));
  let shutdown = false;
  return new Promise((resolve) => {
    let done = false;
    finish = (code: number) => {
      if (done) return;
      done = true;
      if (watch) clearInterval(watch);
      connection.dispose();
      // Nothing more is read: the process may end.
      input.destroy();
      resolve(code);
    };
    if (signal?.aborted) {
      finish(1);
      return;
    }
    signal?.addEventListener('abort', () => finish(shutdown ? 0 : 1), { once: true });
    const stop = serveLanguage(connection, info);
    connection.onShutdown(() => {
      shutdown = true;
      stop();
    });
    connection.onExit(() => finish(shutdown ? 0 : 1));
    reader.onClose(() => finish(shutdown ? 0 : 1));
    connection.listen();
  });
}
