/** Loopback ports for tests. */
import net from 'node:net';

/** A loopback port that was free a moment ago and has nothing listening on it now (a refused connection, or a port to bind). */
export async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
