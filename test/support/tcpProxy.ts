/**
 * A TCP proxy for fault injection between a client and a real server (the
 * parser's gRPC service, Ollama, anything over TCP).
 *
 *   const proxy = await startTcpProxy('127.0.0.1', parserPort);
 *   proxy.setMode('stall');   // accept, read, forward nothing: calls hang until their deadline
 *   proxy.setMode('reset');   // accept and close at once: the service looks down
 *   proxy.cutAll();           // destroy every open connection now (a service killed mid-call)
 *   proxy.setMode('pass');    // forward both ways again
 *
 * Modes apply to new connections and to data arriving on open ones (in
 * `stall`, bytes are swallowed; in `reset`, open connections are cut).
 * `bytesFromClient` counts what clients sent (what actually hit the proxy);
 * `waitForClientBytes(n)` resolves once at least n bytes have arrived.
 */
import net from 'node:net';

export type ProxyMode = 'pass' | 'stall' | 'reset';

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
  waitForClientBytes(atLeast: number): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let mode: ProxyMode = 'pass';
  let connections = 0;
  let bytesFromClient = 0;
  const open = new Set<net.Socket>();
  const waiters: { atLeast: number; resolve: () => void }[] = [];

  const track = (socket: net.Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    socket.on('error', () => undefined);
  };
  const notify = () => {
    for (const waiter of [...waiters]) {
      if (bytesFromClient >= waiter.atLeast) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };

  const server = net.createServer((client) => {
    connections += 1;
    track(client);
    if (mode === 'reset') {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    track(upstream);
    client.on('data', (data: Buffer) => {
      bytesFromClient += data.length;
      notify();
      if (mode === 'pass') upstream.write(data);
      else if (mode === 'reset') client.destroy();
    });
    upstream.on('data', (data: Buffer) => {
      if (mode === 'pass') client.write(data);
    });
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    address: `127.0.0.1:${port}`,
    port,
    get mode() { return mode; },
    setMode(next) {
      mode = next;
      if (next === 'reset') for (const socket of open) socket.destroy();
    },
    cutAll() {
      for (const socket of open) socket.destroy();
    },
    get connections() { return connections; },
    get bytesFromClient() { return bytesFromClient; },
    waitForClientBytes(atLeast) {
      if (bytesFromClient >= atLeast) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ atLeast, resolve }));
    },
    close() {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
