/**
 * A TCP proxy for fault injection between a client and a real server (the
 * parser's gRPC service, Ollama, anything over TCP).
 *
 *   const proxy = await startTcpProxy('127.0.0.1', parserPort, { http2: true });
 *   proxy.setMode('reset');           // accept and close at once: the service looks down
 *   proxy.setMode('stall');           // accept, swallow every byte: nothing ever answers (not even the handshake)
 *   proxy.setMode('hold-responses');  // HTTP/2 only: the handshake passes, the call reaches the server,
 *                                     // but no response frame comes back — a server hanging mid-call
 *   proxy.cutAll();                   // destroy every open connection now (a service killed mid-call)
 *   proxy.setMode('pass');            // forward both ways again
 *
 * Modes apply to new connections and to data arriving on open ones; leaving
 * `hold-responses` cuts the connections it held (their HTTP/2 state is no
 * longer consistent). With `http2: true` the proxy reads the HTTP/2 frames in
 * both directions and counts the requests it saw (`requestsSeen`: HEADERS
 * frames opening a client stream — for gRPC, one per call).
 * `bytesFromClient` counts what clients sent; `waitForRequests(n)` and
 * `waitForClientBytes(n)` resolve once that much has arrived.
 */
import net from 'node:net';

type ProxyMode = 'pass' | 'stall' | 'reset' | 'hold-responses';

export interface TcpProxyOptions {
  /** Parse HTTP/2 frames (needed for `hold-responses` and `requestsSeen`). */
  http2?: boolean;
}

export interface TcpProxy {
  /** 127.0.0.1:PORT */
  address: string;
  port: number;
  readonly mode: ProxyMode;
  setMode(mode: ProxyMode): void;
  /** Destroys every open client and upstream connection. */
  cutAll(): void;
  /** Connections accepted so far. */
  readonly connections: number;
  readonly bytesFromClient: number;
  /** HTTP/2 requests (client-opened streams) seen so far; needs `http2: true`. */
  readonly requestsSeen: number;
  waitForClientBytes(atLeast: number): Promise<void>;
  waitForRequests(atLeast: number): Promise<void>;
  close(): Promise<void>;
}

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
const HEADERS = 0x1;

/** Splits a byte stream into HTTP/2 frames (after an optional connection preface). */
class FrameSplitter {
  private buffer = Buffer.alloc(0);
  private prefaceLeft: number;

  constructor(expectPreface: boolean) {
    this.prefaceLeft = expectPreface ? PREFACE.length : 0;
  }

  push(data: Buffer, onChunk: (chunk: Buffer, frame?: { type: number; streamId: number }) => void): void {
    this.buffer = Buffer.concat([this.buffer, data]);
    if (this.prefaceLeft > 0) {
      const take = Math.min(this.prefaceLeft, this.buffer.length);
      onChunk(this.buffer.subarray(0, take));
      this.buffer = this.buffer.subarray(take);
      this.prefaceLeft -= take;
    }
    while (this.buffer.length >= 9) {
      const length = this.buffer.readUIntBE(0, 3);
      if (this.buffer.length < 9 + length) break;
      const type = this.buffer.readUInt8(3);
      const streamId = this.buffer.readUInt32BE(5) & 0x7fffffff;
      onChunk(this.buffer.subarray(0, 9 + length), { type, streamId });
      this.buffer = this.buffer.subarray(9 + length);
    }
  }
}

export async function startTcpProxy(
  targetHost: string,
  targetPort: number,
  options: TcpProxyOptions = {},
): Promise<TcpProxy> {
  let mode: ProxyMode = 'pass';
  let connections = 0;
  let bytesFromClient = 0;
  let requestsSeen = 0;
  const open = new Set<net.Socket>();
  const held = new Set<net.Socket>();
  const waiters: { ready: () => boolean; resolve: () => void }[] = [];

  const track = (socket: net.Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      held.delete(socket);
    });
    socket.on('error', () => undefined);
  };
  const notify = () => {
    for (const waiter of [...waiters]) {
      if (waiter.ready()) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  const waitUntil = (ready: () => boolean) =>
    ready() ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ ready, resolve }));

  const server = net.createServer((client) => {
    connections += 1;
    track(client);
    if (mode === 'reset') {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    track(upstream);
    const fromClient = options.http2 ? new FrameSplitter(true) : undefined;
    const fromServer = options.http2 ? new FrameSplitter(false) : undefined;

    client.on('data', (data: Buffer) => {
      bytesFromClient += data.length;
      if (mode === 'reset') {
        client.destroy();
        return;
      }
      const forward = (chunk: Buffer) => {
        if (mode === 'pass' || mode === 'hold-responses') upstream.write(chunk);
      };
      if (fromClient) {
        fromClient.push(data, (chunk, frame) => {
          if (frame && frame.type === HEADERS && frame.streamId % 2 === 1) requestsSeen += 1;
          forward(chunk);
        });
      } else {
        forward(data);
      }
      notify();
    });
    upstream.on('data', (data: Buffer) => {
      if (fromServer) {
        fromServer.push(data, (chunk, frame) => {
          if (mode === 'pass') client.write(chunk);
          else if (mode === 'hold-responses') {
            if (!frame || frame.streamId === 0) client.write(chunk);
            else {
              held.add(client);
              held.add(upstream);
            }
          }
        });
      } else if (mode === 'pass') {
        client.write(data);
      }
    });
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    address: `127.0.0.1:${port}`,
    port,
    get mode() {
      return mode;
    },
    setMode(next) {
      if (next === 'hold-responses' && !options.http2)
        throw new Error("'hold-responses' needs startTcpProxy(…, { http2: true })");
      if (mode === 'hold-responses' && next !== 'hold-responses') for (const socket of held) socket.destroy();
      mode = next;
      if (next === 'reset') for (const socket of open) socket.destroy();
    },
    cutAll() {
      for (const socket of open) socket.destroy();
    },
    get connections() {
      return connections;
    },
    get bytesFromClient() {
      return bytesFromClient;
    },
    get requestsSeen() {
      return requestsSeen;
    },
    waitForClientBytes: (atLeast) => waitUntil(() => bytesFromClient >= atLeast),
    waitForRequests: (atLeast) => waitUntil(() => requestsSeen >= atLeast),
    close() {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
