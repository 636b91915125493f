/**
 * Bearer-token access. A server bound to a loopback address may run without a
 * token; bound beyond loopback it must have one (the serve command refuses to
 * start otherwise). When a token is set it is required on every route except
 * the health check and the OpenAPI document.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export { isLoopbackHost } from '../net';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Constant-time comparison of the `Authorization` header with `Bearer <token>`. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (!header) return false;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!match) return false;
  return timingSafeEqual(digest(match[1] as string), digest(token));
}

export const PUBLIC_ROUTES: ReadonlySet<string> = new Set(['/health', '/openapi.json']);

export const MIN_TOKEN_CHARS = 16;
