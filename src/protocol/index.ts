/**
 * The parser's wire protocol, editor-free: the gRPC service definition and
 * its client (health checks, balancing over several endpoints, overload
 * metadata), the parser URL grammar and the JSON shape of a validation
 * (`validate --json`, `POST /v1/validate`). `parserUrl.ts` is also a light
 * entry of its own (the editor's settings reader checks the URL without the gRPC stack).
 */
export * from './parserUrl';
export * from './parserClient';
export * from './parserProto';
export * from './health';
export * from './balancer';
export * from './overload';
export * from './validationJson';
