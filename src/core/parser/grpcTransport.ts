/**
 * The gRPC transport: a @grpc/grpc-js client of avap.parser.v1.AvapParser
 * with a deadline per call; the caller's AbortSignal cancels the call.
 */
import { callValidate, createParserClient, parseParserUrl, type ClientTlsOptions } from '../../protocol/parserClient';
import type { ParserTransport } from './transport';

export type GrpcTransportResult = { ok: true; transport: ParserTransport; address: string } | { ok: false; error: string };

export function createGrpcTransport(url: string, tls: ClientTlsOptions = {}): GrpcTransportResult {
  const parsed = parseParserUrl(url);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const connect = () => createParserClient(parsed.target, tls, {
    // Reconnect quickly after the service comes back: the breaker already limits how often we try.
    'grpc.initial_reconnect_backoff_ms': 200,
    'grpc.max_reconnect_backoff_ms': 2000,
  });
  let client = connect();
  return {
    ok: true,
    address: parsed.target.address,
    transport: {
      async call(source, filename, options) {
        const result = await callValidate(client, source, filename, options);
        if (result.ok) return result;
        return { ok: false, kind: result.kind, message: `${result.message} (gRPC status ${result.code})` };
      },
      reconnect() {
        client.close();
        client = connect();
      },
      close: () => client.close(),
    },
  };
}
