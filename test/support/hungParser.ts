/**
 * A hung parser replica: a real grpc-js server on a free loopback port that
 * serves the parser's service definition and the standard health service —
 * whose Check answers SERVING for the parser service — but whose Validate
 * never answers (the call stays open until the client gives up). It records
 * every Validate call it receives.
 *
 *   const hung = await startHungParser();
 *   // … hung.address is host:port; hung.calls lists the Validate calls …
 *   await hung.close();
 */
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { loadParserPackage } from '../../src/protocol/parserDefinition';
import { PARSER_SERVICE_NAME } from '../../src/protocol';

export interface HungParser {
  /** 127.0.0.1:PORT */
  address: string;
  port: number;
  /** Every Validate call received, in order (the filename tells a caller's call from a probe). */
  calls: { filename: string; bytes: number }[];
  /** Calls whose client has given up (deadline or cancel) so far. */
  abandoned(): number;
  /** Resolves once `n` Validate calls have arrived. */
  waitForCalls(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startHungParser(): Promise<HungParser> {
  const health = new HealthImplementation({ '': 'SERVING', [PARSER_SERVICE_NAME]: 'SERVING' });
  const server = new grpc.Server();
  health.addToServer(server);
  const calls: HungParser['calls'] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  let abandoned = 0;
  server.addService(loadParserPackage().service, {
    // Never calls back: the call is left open, as a wedged parser would leave it.
    Validate: (call: grpc.ServerUnaryCall<{ source: string; filename: string }, unknown>) => {
      calls.push({ filename: call.request.filename, bytes: Buffer.byteLength(call.request.source) });
      call.once('cancelled', () => {
        abandoned += 1;
      });
      for (const waiter of waiters.splice(0)) {
        if (calls.length >= waiter.n) waiter.resolve();
        else waiters.push(waiter);
      }
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    port,
    calls,
    abandoned: () => abandoned,
    waitForCalls: (n) =>
      calls.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.forceShutdown();
        resolve();
      }),
  };
}
