/**
 * Recorded HTTP responses (`--fixtures F`: a JSON list of `{method, url, status, headers, body}`) and the
 * allow-list of hosts a run may really call (`--allow-http HOST[:PORT]`). Pure: parsing and matching only;
 * httpPort.ts does the calling.
 */
import { err, fail, ok, type Failure, type Result } from '../../result';

export interface HttpFixture {
  method: 'GET' | 'POST';
  /** As written in the file. */
  url: string;
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The response body as text (a JSON value in the file is stored as its JSON text). */
  body: string;
}

export type FixtureError = Failure<'bad-fixtures'>;

const METHODS = new Set(['GET', 'POST']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One entry of the fixtures list, checked field by field. */
function fixtureAt(entry: unknown, index: number): Result<HttpFixture, FixtureError> {
  const where = `fixture ${index}`;
  if (!isRecord(entry)) return fail('bad-fixtures', `${where} is not an object {method, url, status, headers, body}`);
  const method = typeof entry.method === 'string' ? entry.method.toUpperCase() : 'GET';
  if (entry.method !== undefined && (typeof entry.method !== 'string' || !METHODS.has(method)))
    return fail('bad-fixtures', `${where}: method must be "GET" or "POST", got ${JSON.stringify(entry.method)}`);
  if (typeof entry.url !== 'string' || normalizeUrl(entry.url) === undefined)
    return fail('bad-fixtures', `${where}: url must be an absolute http(s) URL, got ${JSON.stringify(entry.url)}`);
  const status = entry.status ?? 200;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)
    return fail('bad-fixtures', `${where}: status must be an HTTP status 100–599, got ${JSON.stringify(entry.status)}`);
  const given: [string, string][] = [];
  if (entry.headers !== undefined) {
    if (!isRecord(entry.headers)) return fail('bad-fixtures', `${where}: headers must be an object of strings`);
    for (const [name, value] of Object.entries(entry.headers)) {
      if (typeof value !== 'string') return fail('bad-fixtures', `${where}: header ${name} must be a string`);
      given.push([name.toLowerCase(), value]);
    }
  }
  // Object.fromEntries defines each name: a header named `__proto__` is kept as one.
  const headers: Record<string, string> = Object.fromEntries(given);
  const raw = entry.body ?? '';
  const body = typeof raw === 'string' ? raw : JSON.stringify(raw);
  if (typeof raw !== 'string' && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  return ok({ method: method as 'GET' | 'POST', url: entry.url, status, headers, body });
}

/** Parses a fixtures file's text; the error names the entry and the field. */
export function parseFixtures(text: string): Result<HttpFixture[], FixtureError> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return fail('bad-fixtures', `not JSON (${(e as Error).message})`);
  }
  return checkFixtures(data);
}

/** Checks an already-parsed fixtures list (e.g. a test case's `fixtures`). */
export function checkFixtures(data: unknown): Result<HttpFixture[], FixtureError> {
  if (!Array.isArray(data)) return fail('bad-fixtures', 'expected a JSON list of {method, url, status, headers, body}');
  const out: HttpFixture[] = [];
  for (const [i, entry] of data.entries()) {
    const fixture = fixtureAt(entry, i);
    if (!fixture.ok) return err(fixture.error);
    out.push(fixture.value);
  }
  return ok(out);
}

/**
 * The URL as compared: scheme and host in lower case, default port dropped, query parameters in sorted order.
 * @internal
 */
export function normalizeUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.hash = '';
  url.searchParams.sort();
  return url.href;
}

/** The first recorded response for this method and URL. */
export function findFixture(fixtures: readonly HttpFixture[], method: string, url: string): HttpFixture | undefined {
  const wanted = normalizeUrl(url);
  if (wanted === undefined) return undefined;
  const verb = method.toUpperCase();
  return fixtures.find((f) => f.method === verb && normalizeUrl(f.url) === wanted);
}

// ------------------------------------------------------------------ allow-list

export interface AllowedHost {
  /** Lower case; IPv6 literals in brackets. */
  host: string;
  /** Undefined: any port. */
  port?: number;
}

const HOST_NAME = /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*$/;

/**
 * `HOST`, `HOST:PORT`, `[v6]` or `[v6]:PORT`; undefined when it is none of these.
 * @internal
 */
export function parseAllowedHost(raw: string): AllowedHost | undefined {
  const text = raw.trim().toLowerCase();
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(text);
  if (!match) return undefined;
  const host = match[1] as string;
  if (!host.startsWith('[') && !HOST_NAME.test(host)) return undefined;
  if (host.startsWith('[')) {
    try {
      new URL(`http://${host}/`);
    } catch {
      return undefined;
    }
  }
  if (match[2] === undefined) return { host };
  const port = Number(match[2]);
  return port >= 1 && port <= 65535 ? { host, port } : undefined;
}

/** Parses `--allow-http` values; the error names the bad one. */
export function parseAllowList(values: readonly string[]): Result<AllowedHost[], Failure<'bad-host'>> {
  const out: AllowedHost[] = [];
  for (const value of values) {
    const parsed = parseAllowedHost(value);
    if (!parsed)
      return fail('bad-host', `'${value}' is not HOST or HOST:PORT (e.g. api.example.com or 127.0.0.1:8080)`);
    out.push(parsed);
  }
  return ok(out);
}

/** Whether a URL's host and port are on the list (the port of a URL without one is its scheme's default). */
export function hostAllowed(url: string, allowed: readonly AllowedHost[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
  const host = parsed.hostname.toLowerCase();
  return allowed.some((rule) => rule.host === host && (rule.port === undefined || rule.port === port));
}

export function formatAllowedHost(rule: AllowedHost): string {
  return rule.port === undefined ? rule.host : `${rule.host}:${rule.port}`;
}
