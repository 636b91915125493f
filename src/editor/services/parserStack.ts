/**
 * The gRPC stack behind the editor's parser connection — grpc-js, protobufjs,
 * the circuit breaker and the bundled-service starter — as one lazy bundle
 * (dist/parser-connection.js). ParserConnection imports it dynamically on its
 * first connect, right after activation, so activating the extension does not
 * wait for it (esbuild.config.mjs, LAZY_BUNDLES).
 */
export { BreakerParser } from '../../core/parser/breakerParser';
export { startBundledParser } from '../../core/parser/bundled';
export { createGrpcTransport } from '../../core/parser/grpcTransport';
