/**
 * The REST API, editor-free: `createRestServer` (server.ts, fastify) with its
 * request schemas (schemas.ts), the OpenAPI document (openapi.ts), bearer
 * authentication (auth.ts), the Host allow-list (hostGuard.ts) and error redaction (redact.ts).
 */
export * from './server';
export * from './auth';
export * from './hostGuard';
export { /** @internal */ redactInternals } from './redact';
export * as schemas from './schemas';
