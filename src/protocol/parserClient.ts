/**
 * A plain client of the parser service: URL parsing, channel creation and one
 * Validate call whose failures come back as data. No retries and no breaker —
 * those belong to the pipeline core, which wraps this.
 */
import * as grpc from '@grpc/grpc-js';
import type { ValidationResult } from '../parser/types';
import { balancedChannelOptions, HOST_LIST_SCHEME, type HealthCheckSettings } from './balancer';
import { overloadWaitMs } from './overload';
import { fromWireResponse, loadParserPackage, PARSER_SERVICE_NAME, type ParserServiceClient } from './parserProto';

export interface ParserTarget {
  /** The gRPC target the channel dials: `host:port`, `dns:///name:port`, `ipv4:a:1,b:2`, `avap-hosts:a:1,b:2`. */
  address: string;
  tls: boolean;
  /** The endpoints as written (`host:port` each; the name for `dns:`). */
  endpoints?: string[];
  /** Several endpoints or a DNS name: balanced round-robin over every address, health-checked. */
  balanced?: boolean;
}

export type ParsedUrl = { ok: true; target: ParserTarget } | { ok: false; error: string };

const HOST = String.raw`(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)`;
const ENTRY = new RegExp(String.raw`^(?:(grpcs?):\/\/)?${HOST}:(\d{1,5})\/?$`);
const DNS = new RegExp(String.raw`^(?:(grpcs?):\/\/)?dns:(?:\/\/\/)?${HOST}:(\d{1,5})\/?$`);
const EXPECTED = 'expected host:port, grpc://host:port, grpcs://host:port, a comma-separated list of those, or dns:///name:port';

function checkPort(raw: string, port: number): string | undefined {
  return port < 1 || port > 65535 ? `port ${port} in '${raw}' is out of range` : undefined;
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * Accepts `host:port`, `grpc://host:port` and `grpcs://host:port` (TLS); a
 * comma-separated list of those (one TLS mode for all), balanced over every
 * endpoint; and `dns:///name:port`, balanced over every address the name
 * resolves to (`grpcs://dns:///name:port` for TLS).
 */
export function parseParserUrl(raw: string): ParsedUrl {
  const text = raw.trim();
  const dns = DNS.exec(text);
  if (dns) {
    const port = Number(dns[3]);
    const bad = checkPort(raw, port);
    if (bad) return { ok: false, error: bad };
    return { ok: true, target: { address: `dns:///${dns[2]}:${port}`, tls: dns[1] === 'grpcs', endpoints: [`${dns[2]}:${port}`], balanced: true } };
  }
  const entries: { host: string; port: number; tls: boolean }[] = [];
  for (const part of text.split(',').map((p) => p.trim())) {
    const match = ENTRY.exec(part);
    if (!match) return { ok: false, error: `'${raw}' is not a parser URL (${EXPECTED})` };
    const port = Number(match[3]);
    const bad = checkPort(raw, port);
    if (bad) return { ok: false, error: bad };
    entries.push({ host: match[2] as string, port, tls: match[1] === 'grpcs' });
  }
  const endpoints = entries.map((e) => `${e.host}:${e.port}`);
  if (new Set(endpoints).size !== endpoints.length) return { ok: false, error: `'${raw}' lists an endpoint twice` };
  const tls = entries.some((e) => e.tls);
  if (entries.length > 1 && entries.some((e) => e.tls !== tls)) {
    return { ok: false, error: `'${raw}' mixes TLS (grpcs://) and plaintext endpoints; use one kind for all` };
  }
  if (entries.length === 1) return { ok: true, target: { address: endpoints[0] as string, tls, endpoints, balanced: false } };
  const scheme = entries.every((e) => IPV4.test(e.host)) ? 'ipv4'
    : entries.every((e) => e.host.startsWith('[')) ? 'ipv6'
      : HOST_LIST_SCHEME;
  return { ok: true, target: { address: `${scheme}:${endpoints.join(',')}`, tls, endpoints, balanced: true } };
}

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
  const { Client } = loadParserPackage();
  const balancing = target.balanced ? balancedChannelOptions({ serviceName: PARSER_SERVICE_NAME, ...healthCheck }) : {};
  return new Client(target.address, credentials, { ...balancing, ...options });
}

export type ValidateFailureKind = 'unavailable' | 'timeout' | 'rejected' | 'cancelled' | 'overloaded';

export type ValidateCallResult =
  | { ok: true; result: ValidationResult; peer?: string }
  | { ok: false; kind: ValidateFailureKind; code: grpc.status; message: string; peer?: string; retryAfterMs?: number };

export interface ValidateCallOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

function classify(code: grpc.status, metadata?: grpc.Metadata): ValidateFailureKind {
  if (code === grpc.status.RESOURCE_EXHAUSTED && overloadWaitMs(metadata) !== undefined) return 'overloaded';
  switch (code) {
    case grpc.status.DEADLINE_EXCEEDED: return 'timeout';
    case grpc.status.CANCELLED: return 'cancelled';
    case grpc.status.INVALID_ARGUMENT:
    case grpc.status.RESOURCE_EXHAUSTED: return 'rejected';
    default: return 'unavailable';
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
      resolve({ ok: false, kind: 'cancelled', code: grpc.status.CANCELLED, message: 'cancelled before the call' });
      return;
    }
    const deadline = new Date(Date.now() + Math.max(1, options.timeoutMs));
    const onAbort = () => call.cancel();
    const call = client.Validate({ source, filename }, new grpc.Metadata(), { deadline }, (err, response) => {
      options.signal?.removeEventListener('abort', onAbort);
      const peer = peerOf(call);
      if (err || !response) {
        const code = err?.code ?? grpc.status.UNKNOWN;
        const kind = classify(code, err?.metadata);
        const retryAfterMs = kind === 'overloaded' ? overloadWaitMs(err?.metadata) : undefined;
        resolve({
          ok: false, kind, code, message: err?.details || err?.message || 'empty response',
          ...(peer ? { peer } : {}), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        });
        return;
      }
      resolve({ ok: true, result: fromWireResponse(response), ...(peer ? { peer } : {}) });
    });
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
