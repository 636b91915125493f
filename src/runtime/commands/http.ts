/**
 * RequestGet and RequestPost through the HTTP port. The specification: GET
 * raises on 4xx/5xx (try() catches it), JSON answers are parsed, a dict body
 * is sent as JSON and text as it is. Where it is silent the reference decides:
 * query string and headers are a dict, or text holding one (single quotes
 * allowed), anything else none; POST keeps a 4xx/5xx answer and turns a
 * failed request into {"error": message} instead of raising. A request the
 * sandbox does not let out (not recorded, host not allowed) is always an
 * error naming the URL.
 */
import { RunFailure } from '../failure';
import type { HttpCall, HttpFailureKind } from '../ports';
import { pyJsonDumps, pyStr } from '../pytext';
import type { RunErrorCode } from '../types';
import { fromPlain, isDict, setPlain, type Dict, type Value } from '../values';
import { command, type CallContext } from './types';

/** The reference's timeout for both requests (seconds). */
const TIMEOUT_MS = 30_000;

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

const FAILURE_CODES: Readonly<Record<HttpFailureKind, RunErrorCode>> = {
  'not-recorded': 'http-not-recorded',
  'not-allowed': 'http-not-allowed',
  network: 'http-network',
  timeout: 'http-timeout',
};

/** A dict argument: a dict, or text holding a JSON object (single quotes read as double); anything else none. */
function ensureDict(v: Value): Dict {
  if (isDict(v)) return v;
  if (typeof v === 'string' && v.trim() !== '') {
    try {
      const parsed = fromPlain(JSON.parse(v.replace(/'/g, '"')));
      if (isDict(parsed)) return parsed;
    } catch {
      // not JSON: none, as the reference
    }
  }
  return new Map();
}

function urlOf(c: CallContext, params: Dict): string {
  if (c.isEmpty(0)) throw RunFailure.of('argument-error', `${c.name} needs a URL`);
  const value = c.read(0);
  c.checkReference(0, value);
  const text = pyStr(value).trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw RunFailure.of(
      'argument-error',
      `Invalid URL '${text}': No scheme supplied. Perhaps you meant https://${text}?`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw RunFailure.of('argument-error', `No connection adapters were found for '${text}'`);
  }
  const extra: string[] = [];
  for (const [k, v] of params) {
    if (v === null) continue;
    for (const one of Array.isArray(v) ? v : [v]) {
      extra.push(`${encodeURIComponent(pyStr(k))}=${encodeURIComponent(pyStr(one))}`);
    }
  }
  if (extra.length === 0) return text;
  return `${text}${text.includes('?') ? '&' : '?'}${extra.join('&')}`;
}

function headersOf(d: Dict): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of d) setPlain(out, pyStr(k), pyStr(v));
  return out;
}

function parseBody(body: string): Value {
  try {
    return fromPlain(JSON.parse(body));
  } catch {
    return body;
  }
}

async function send(c: CallContext, call: HttpCall): Promise<{ status: number; body: string } | RunFailure> {
  let answer;
  try {
    answer = await c.ports.http.fetch(call, c.signal);
  } catch (e) {
    return RunFailure.of(
      'http-network',
      `${call.method} ${call.url} failed: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  if (!answer.ok) {
    const code = FAILURE_CODES[answer.error.kind] ?? 'http-network';
    return RunFailure.of(code, `${call.method} ${call.url}: ${answer.error.message}`);
  }
  return answer.value;
}

export const RequestGet = command({
  name: 'RequestGet',
  arity: [4, 4],
  target: 3,
  inReference: true,
  async run(c) {
    const url = urlOf(c, ensureDict(c.read(1)));
    const headers = headersOf(ensureDict(c.read(2)));
    const target = c.targetName(3);
    const answer = await send(c, { method: 'GET', url, headers, timeoutMs: TIMEOUT_MS });
    if (answer instanceof RunFailure) throw answer;
    if (answer.status >= 400) {
      const kind = answer.status < 500 ? 'Client' : 'Server';
      const reason = REASONS[answer.status] ?? '';
      throw RunFailure.of('http-error', `${answer.status} ${kind} Error: ${reason} for url: ${url}`);
    }
    c.set(target, parseBody(answer.body));
  },
});

export const RequestPost = command({
  name: 'RequestPost',
  arity: [5, 5],
  target: 4,
  inReference: true,
  async run(c) {
    const url = urlOf(c, ensureDict(c.read(1)));
    const headers = headersOf(ensureDict(c.read(2)));
    const target = c.targetName(4);
    const raw = c.isEmpty(3) ? null : c.read(3);
    let body: string | undefined;
    let json: Value | undefined;
    if (isDict(raw)) json = raw;
    else if (typeof raw === 'string') {
      try {
        json = fromPlain(JSON.parse(raw.replace(/'/g, '"')));
      } catch {
        body = raw;
      }
    } else if (raw !== null) {
      throw RunFailure.unsupported(
        `a ${Array.isArray(raw) ? 'list' : 'number'} as the body of RequestPost`,
        'the command reference sends a dict as JSON or text as it is',
      );
    }
    if (json !== undefined) {
      body = pyJsonDumps(json);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
        headers['Content-Type'] = 'application/json';
      }
    }
    const call: HttpCall = {
      method: 'POST',
      url,
      headers,
      timeoutMs: TIMEOUT_MS,
      ...(body !== undefined ? { body } : {}),
    };
    const answer = await send(c, call);
    if (answer instanceof RunFailure) {
      if (answer.code === 'http-network' || answer.code === 'http-timeout') {
        c.set(target, new Map([['error', answer.message]]));
        return;
      }
      throw answer;
    }
    c.set(target, parseBody(answer.body));
  },
});
