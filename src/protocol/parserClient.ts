/**
 * A plain client of the parser service: URL parsing, channel creation and one
 * Validate call whose failures come back as data. No retries and no breaker —
 * those belong to the pipeline core, which wraps this.
 */
import * as grpc from '@grpc/grpc-js';
import type { ValidationResult } from '../parser';
import { balancedChannelOptions, type HealthCheckSettings } from './balancer';
import { overloadWaitMs } from './overload';
import type { ParserTarget } from './parserUrl';
import { err, ok, type Failure, type Result } from '../result';
import {
  fromWireResponse,
  parserClientConstructor,
  PARSER_SERVICE_NAME,
  type ParserServiceClient,
} from './parserProto';

export { parseParserUrl, type ParserTarget } from './parserUrl';

export interface ClientTlsOptions {
  /** PEM of the CA that signed the server's certificate (default: system roots). */
  rootCert?: Buffer;
  /** Client certificate and key, for services that require mutual TLS. */
  cert?: Buffer;
  key?: Buffer;
}

/** How often, and how patiently, a balanced client checks each endpoint's health. */
export const DEFAULT_HEALTH_CHECK: Omit<HealthCheckSettings, 'serviceName'> = { intervalMs: 1000, timeoutMs: 1000 };

/**
 * A client of the parser service. A balanced target (a list, `dns:`) gets
 * round-robin over every resolved address with each endpoint health-checked
 * (./balancer.ts); `healthCheck` tunes how often.
 */
export function createParserClient(
  target: ParserTarget,
  tls: ClientTlsOptions = {},
  options: grpc.ClientOptions = {},
  healthCheck: Omit<HealthCheckSettings, 'serviceName'> = DEFAULT_HEALTH_CHECK,
): ParserServiceClient {
  const credentials = target.tls
    ? grpc.credentials.createSsl(tls.rootCert ?? null, tls.key ?? null, tls.cert ?? null)
    : grpc.credentials.createInsecure();
  const Client = parserClientConstructor();
  const balancing = target.balanced ? balancedChannelOptions({ serviceName: PARSER_SERVICE_NAME, ...healthCheck }) : {};
  return new Client(target.address, credentials, { ...balancing, ...options });
}

type ValidateFailureKind = 'unavailable' | 'timeout' | 'rejected' | 'cancelled' | 'overloaded';

/** Why a call gave no verdict: the kind drives logic, `code` is the gRPC status, `retryAfterMs` an overloaded service's estimated wait. */
interface ValidateCallFailure extends Failure<ValidateFailureKind> {
  code: grpc.status;
  retryAfterMs?: number;
}

/** The verdict or why there is none (the one Result type), with the endpoint that answered when grpc-js knows it. */
export type ValidateCallResult = Result<ValidationResult, ValidateCallFailure> & { peer?: string };

export interface ValidateCallOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

function classify(code: grpc.status, metadata?: grpc.Metadata): ValidateFailureKind {
  if (code === grpc.status.RESOURCE_EXHAUSTED && overloadWaitMs(metadata) !== undefined) return 'overloaded';
  switch (code) {
    case grpc.status.DEADLINE_EXCEEDED:
      return 'timeout';
    case grpc.status.CANCELLED:
      return 'cancelled';
    case grpc.status.INVALID_ARGUMENT:
    case grpc.status.RESOURCE_EXHAUSTED:
      return 'rejected';
    default:
      return 'unavailable';
  }
}

/** The address that answered (grpc-js reports it once the call has a transport). */
function peerOf(call: grpc.ClientUnaryCall): string | undefined {
  try {
    const peer = call.getPeer();
    return peer && peer !== 'unknown' ? peer : undefined;
  } catch {
    return undefined;
  }
}

/** One Validate call with a deadline; resolves (never rejects) with the verdict or the failure. */
export function callValidate(
  client: ParserServiceClient,
  source: string,
  filename: string,
  options: ValidateCallOptions,
): Promise<ValidateCallResult> {
  return new Promise((resolve) => {
    if (options.signal?.aborted) {
      resolve(err({ kind: 'cancelled', code: grpc.status.CANCELLED, message: 'cancelled before the call' }));
      return;
    }
    const deadline = new Date(Date.now() + Math.max(1, options.timeoutMs));
    const onAbort = () => call.cancel();
    const call = client.Validate({ source, filename }, new grpc.Metadata(), { deadline }, (error, response) => {
      options.signal?.removeEventListener('abort', onAbort);
      const peer = peerOf(call);
      if (error || !response) {
        const code = error?.code ?? grpc.status.UNKNOWN;
        const kind = classify(code, error?.metadata);
        const retryAfterMs = kind === 'overloaded' ? overloadWaitMs(error?.metadata) : undefined;
        resolve({
          ...err({
            kind,
            code,
            message: error?.details || error?.message || 'empty response',
            ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
          }),
          ...(peer ? { peer } : {}),
        });
        return;
      }
      resolve(peer ? { ok: true, value: fromWireResponse(response), peer } : ok(fromWireResponse(response)));
    });
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
