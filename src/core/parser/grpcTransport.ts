/**
 * The gRPC transport: a @grpc/grpc-js client of avap.parser.v1.AvapParser
 * with a deadline per call; the caller's AbortSignal cancels the call.
 *
 * With several endpoints (a list or `dns:///name:port`) the channel balances
 * round-robin over every address and health-checks each one
 * (src/protocol/balancer.ts). A call that one endpoint could not answer —
 * unreachable, dropped mid-call, or overloaded — is sent once more within
 * the same deadline; round-robin hands it to another endpoint, so one
 * replica dying does not cost a verdict while another serves. A call that
 * ran out of its deadline is sent once more with a deadline of its own: the
 * balancer has taken the endpoint that did not answer out of the rotation,
 * so a hung replica costs one deadline, not the verdict.
 */
import {
  callValidate,
  createParserClient,
  DEFAULT_HEALTH_CHECK,
  parseParserUrl,
  type ClientTlsOptions,
  type ValidateCallResult,
  type BadParserUrl,
} from '../../protocol';
import { err, ok, type Result } from '../../result';
import { CANARY_SOURCE } from './breakerParser';
import type { ParserTransport } from './transport';

/** The file name of the liveness check's call (the service's logs and tests tell it from real work by it). */
const LIVENESS_FILENAME = '<liveness-check>';

export type GrpcTransportResult = Result<{ transport: ParserTransport; address: string }, BadParserUrl>;

export interface GrpcTransportOptions {
  tls?: ClientTlsOptions;
  /** Health checks of a balanced target (default: every second, 1 s timeout). */
  healthCheck?: { intervalMs: number; timeoutMs: number };
  /** Sees the endpoint that answered each call (tests check the balancing with it). */
  onAnswer?: (peer: string | undefined, result: ValidateCallResult) => void;
}

/** Failures another endpoint may not share. */
function worthAnotherEndpoint(result: ValidateCallResult): boolean {
  return !result.ok && (result.error.kind === 'unavailable' || result.error.kind === 'overloaded');
}

export function createGrpcTransport(url: string, options: GrpcTransportOptions = {}): GrpcTransportResult {
  const parsed = parseParserUrl(url);
  if (!parsed.ok) return err(parsed.error);
  const target = parsed.value;
  const connect = () =>
    createParserClient(
      target,
      options.tls ?? {},
      {
        // Reconnect quickly after the service comes back: the breaker already limits how often we try.
        'grpc.initial_reconnect_backoff_ms': 200,
        'grpc.max_reconnect_backoff_ms': 2000,
      },
      options.healthCheck ?? DEFAULT_HEALTH_CHECK,
    );
  let client = connect();
  const once = async (source: string, filename: string, call: { timeoutMs: number; signal?: AbortSignal }) => {
    const result = await callValidate(client, source, filename, call);
    options.onAnswer?.(result.peer, result);
    return result;
  };
  return ok({
    address: target.address,
    transport: {
      async call(source, filename, call) {
        const startedAt = Date.now();
        let result = await once(source, filename, call);
        if (target.balanced && !call.signal?.aborted) {
          if (worthAnotherEndpoint(result)) {
            const left = call.timeoutMs - (Date.now() - startedAt);
            if (left >= 1) result = await once(source, filename, { ...call, timeoutMs: left });
          } else if (!result.ok && result.error.kind === 'timeout') {
            // The deadline is spent; the endpoint is out of the rotation, the next one gets a deadline of its own.
            result = await once(source, filename, call);
          }
        }
        // The protocol's Ok is already the transport's (its `peer` rides along unread): no second object per call.
        if (result.ok) return result;
        const { kind, message, code, retryAfterMs } = result.error;
        return err({
          kind,
          message: `${message} (gRPC status ${code})`,
          ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        });
      },
      reconnect() {
        client.close();
        client = connect();
      },
      async alive(timeoutMs) {
        // The parser itself must answer: a hung service still answers its health check with SERVING.
        const result = await callValidate(client, CANARY_SOURCE, LIVENESS_FILENAME, { timeoutMs });
        return result.ok || result.error.kind === 'rejected' || result.error.kind === 'overloaded';
      },
      close: () => client.close(),
    },
  });
}
