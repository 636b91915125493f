/**
 * A plain client of the parser service: URL parsing, channel creation and one
 * Validate call whose failures come back as data. No retries and no breaker —
 * those belong to the pipeline core, which wraps this.
 */
import * as grpc from '@grpc/grpc-js';
import type { ValidationResult } from '../parser/types';
import { fromWireResponse, loadParserPackage, type ParserServiceClient } from './parserProto';

export interface ParserTarget {
  /** host:port as gRPC expects it. */
  address: string;
  tls: boolean;
}

export type ParsedUrl = { ok: true; target: ParserTarget } | { ok: false; error: string };

/** Accepts `host:port`, `grpc://host:port` and `grpcs://host:port` (TLS). */
export function parseParserUrl(raw: string): ParsedUrl {
  const text = raw.trim();
  const match = /^(?:(grpcs?):\/\/)?(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})\/?$/.exec(text);
  if (!match) {
    return { ok: false, error: `'${raw}' is not a parser URL (expected host:port, grpc://host:port or grpcs://host:port)` };
  }
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return { ok: false, error: `port ${port} in '${raw}' is out of range` };
  return { ok: true, target: { address: `${match[2]}:${port}`, tls: match[1] === 'grpcs' } };
}

export interface ClientTlsOptions {
  /** PEM of the CA that signed the server's certificate (default: system roots). */
  rootCert?: Buffer;
  /** Client certificate and key, for services that require mutual TLS. */
  cert?: Buffer;
  key?: Buffer;
}

export function createParserClient(target: ParserTarget, tls: ClientTlsOptions = {}, options: grpc.ClientOptions = {}): ParserServiceClient {
  const credentials = target.tls
    ? grpc.credentials.createSsl(tls.rootCert ?? null, tls.key ?? null, tls.cert ?? null)
    : grpc.credentials.createInsecure();
  const { Client } = loadParserPackage();
  return new Client(target.address, credentials, options);
}

export type ValidateFailureKind = 'unavailable' | 'timeout' | 'rejected' | 'cancelled';

export type ValidateCallResult =
  | { ok: true; result: ValidationResult }
  | { ok: false; kind: ValidateFailureKind; code: grpc.status; message: string };

export interface ValidateCallOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

function classify(code: grpc.status): ValidateFailureKind {
  switch (code) {
    case grpc.status.DEADLINE_EXCEEDED: return 'timeout';
    case grpc.status.CANCELLED: return 'cancelled';
    case grpc.status.INVALID_ARGUMENT:
    case grpc.status.RESOURCE_EXHAUSTED: return 'rejected';
    default: return 'unavailable';
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
      resolve({ ok: false, kind: 'cancelled', code: grpc.status.CANCELLED, message: 'cancelled before the call' });
      return;
    }
    const deadline = new Date(Date.now() + Math.max(1, options.timeoutMs));
    const onAbort = () => call.cancel();
    const call = client.Validate({ source, filename }, new grpc.Metadata(), { deadline }, (err, response) => {
      options.signal?.removeEventListener('abort', onAbort);
      if (err || !response) {
        const code = err?.code ?? grpc.status.UNKNOWN;
        resolve({ ok: false, kind: classify(code), code, message: err?.details || err?.message || 'empty response' });
        return;
      }
      resolve({ ok: true, result: fromWireResponse(response) });
    });
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
