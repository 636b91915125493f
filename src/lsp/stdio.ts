/**
 * The server over a pair of streams (standard input and output for
 * `avap lsp --stdio`): JSON-RPC with the protocol's `Content-Length` framing.
 * Resolves with the exit code once the client is gone: 0 after `shutdown`
 * and `exit`, 1 when the input closed without them (the protocol's rule).
 */
import type { Readable, Writable } from 'node:stream';
import { createConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { serveLanguage, type ServerInfo } from './server';

export interface StdioServerOptions {
  readonly input: Readable;
  readonly output: Writable;
  readonly info: ServerInfo;
}

export function startStdioServer({ input, output, info }: StdioServerOptions): Promise<number> {
  const reader = new StreamMessageReader(input);
  const writer = new StreamMessageWriter(output);
  const connection = createConnection(reader, writer);
  let shutdown = false;
  return new Promise((resolve) => {
    let done = false;
    const finish = (code: number) => {
      if (done) return;
      done = true;
      connection.dispose();
      resolve(code);
    };
    const stop = serveLanguage(connection, info);
    connection.onShutdown(() => {
      shutdown = true;
      stop();
    });
    // The library ends the process after `exit` (0 after shutdown, else 1); a closed input ends the server too.
    connection.onExit(() => finish(shutdown ? 0 : 1));
    reader.onClose(() => finish(shutdown ? 0 : 1));
    connection.listen();
  });
}
