/**
 * Parser URLs: what `AVAP_PARSER_URL`, `avap.parser.url` and `--parser-url`
 * accept, turned into the gRPC target a channel dials. Pure, with no gRPC
 * import, so the editor can check its setting without loading the gRPC stack.
 */
import { fail, ok, type Failure, type Result } from '../result';

/** The resolver scheme of a list of host names (registered by the balancer). */
export const HOST_LIST_SCHEME = 'avap-hosts';

export interface ParserTarget {
  /** The gRPC target the channel dials: `host:port`, `dns:///name:port`, `ipv4:a:1,b:2`, `avap-hosts:a:1,b:2`. */
  address: string;
  tls: boolean;
  /** The endpoints as written (`host:port` each; the name for `dns:`). */
  endpoints?: string[];
  /** Several endpoints or a DNS name: balanced round-robin over every address, health-checked. */
  balanced?: boolean;
}

/** A URL that is not one of the accepted forms: a usage problem, reported before anything starts. */
export type BadParserUrl = Failure<'bad-url'>;

export type ParsedUrl = Result<ParserTarget, BadParserUrl>;

const HOST = String.raw`(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)`;
const ENTRY = new RegExp(String.raw`^(?:(grpcs?):\/\/)?${HOST}:(\d{1,5})\/?$`);
const DNS = new RegExp(String.raw`^(?:(grpcs?):\/\/)?dns:(?:\/\/\/)?${HOST}:(\d{1,5})\/?$`);
const EXPECTED =
  'expected host:port, grpc://host:port, grpcs://host:port, a comma-separated list of those, or dns:///name:port';

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
    if (bad) return fail('bad-url', bad);
    return ok({
      address: `dns:///${dns[2]}:${port}`,
      tls: dns[1] === 'grpcs',
      endpoints: [`${dns[2]}:${port}`],
      balanced: true,
    });
  }
  const entries: { host: string; port: number; tls: boolean }[] = [];
  for (const part of text.split(',').map((p) => p.trim())) {
    const match = ENTRY.exec(part);
    if (!match) return fail('bad-url', `'${raw}' is not a parser URL (${EXPECTED})`);
    const port = Number(match[3]);
    const bad = checkPort(raw, port);
    if (bad) return fail('bad-url', bad);
    entries.push({ host: match[2] as string, port, tls: match[1] === 'grpcs' });
  }
  const endpoints = entries.map((e) => `${e.host}:${e.port}`);
  if (new Set(endpoints).size !== endpoints.length) return fail('bad-url', `'${raw}' lists an endpoint twice`);
  const tls = entries.some((e) => e.tls);
  if (entries.length > 1 && entries.some((e) => e.tls !== tls)) {
    return fail('bad-url', `'${raw}' mixes TLS (grpcs://) and plaintext endpoints; use one kind for all`);
  }
  if (entries.length === 1) return ok({ address: endpoints[0] as string, tls, endpoints, balanced: false });
  const scheme = entries.every((e) => IPV4.test(e.host))
    ? 'ipv4'
    : entries.every((e) => e.host.startsWith('['))
      ? 'ipv6'
      : HOST_LIST_SCHEME;
  return ok({ address: `${scheme}:${endpoints.join(',')}`, tls, endpoints, balanced: true });
}
