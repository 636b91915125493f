/**
 * The sandbox's HTTP port: a recorded response when the fixtures have one for the method and URL; otherwise a
 * real request only when the URL's host is on the allow-list (with the call's timeout, no redirect followed, the
 * body capped); anything else is a failure — `not-recorded` (no allow-list) or `not-allowed`. Messages say why and
 * what to do; the interpreter puts the method and URL in front of them.
 */
import { fail, ok, type Failure, type Result } from '../../result';
import type { HttpAnswer, HttpCall, HttpFailureKind, HttpPort } from '..';
import { findFixture, formatAllowedHost, hostAllowed, type AllowedHost, type HttpFixture } from './httpFixtures';

export interface SandboxHttpOptions {
  fixtures: readonly HttpFixture[];
  allow: readonly AllowedHost[];
  /** Largest response body read from a real host (default 8 MiB); a larger one is a `network` failure. */
  maxBodyBytes?: number;
  /** Told before a real request goes out (the worker reports such a run's result at once). */
  onRealRequest?: (call: HttpCall) => void;
}

const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

type Answer = Result<HttpAnswer, Failure<HttpFailureKind>>;

async function readCapped(response: Response, max: number): Promise<string | undefined> {
  if (!response.body) return '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function realRequest(call: HttpCall, signal: AbortSignal, maxBody: number): Promise<Answer> {
  const timeout = AbortSignal.timeout(Math.max(1, call.timeoutMs));
  const both = AbortSignal.any([signal, timeout]);
  try {
    const response = await fetch(call.url, {
      method: call.method,
      headers: call.headers,
      ...(call.method === 'POST' && call.body !== undefined ? { body: call.body } : {}),
      redirect: 'manual',
      signal: both,
    });
    const body = await readCapped(response, maxBody);
    if (body === undefined) return fail('network', `the response body is larger than ${maxBody} bytes`);
    const given: [string, string][] = [];
    response.headers.forEach((value, name) => {
      given.push([name.toLowerCase(), value]);
    });
    // Object.fromEntries defines each name: a header named `__proto__` is kept as one.
    const headers: Record<string, string> = Object.fromEntries(given);
    return ok({ status: response.status, headers, body });
  } catch (e) {
    if (timeout.aborted && !signal.aborted) return fail('timeout', `no answer within ${call.timeoutMs} ms`);
    if (signal.aborted) return fail('network', 'the run was stopped');
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return fail('network', `the request failed: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
  }
}

export function createSandboxHttp(options: SandboxHttpOptions): HttpPort {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return {
    fetch(call: HttpCall, signal: AbortSignal): Promise<Answer> {
      const recorded = findFixture(options.fixtures, call.method, call.url);
      if (recorded)
        return Promise.resolve(ok({ status: recorded.status, headers: { ...recorded.headers }, body: recorded.body }));
      if (hostAllowed(call.url, options.allow)) {
        options.onRealRequest?.(call);
        return realRequest(call, signal, maxBody);
      }
      if (options.allow.length === 0)
        return Promise.resolve(
          fail(
            'not-recorded',
            'no recorded response: add one to the fixtures file (--fixtures) or allow its host (--allow-http HOST[:PORT])',
          ),
        );
      return Promise.resolve(
        fail(
          'not-allowed',
          `its host is not on the allow-list (${options.allow.map(formatAllowedHost).join(', ')}) and no recorded response matches`,
        ),
      );
    },
  };
}
