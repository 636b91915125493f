/**
 * The gRPC stack behind the editor's parser connection — the core's parser
 * connection factory with grpc-js, the hand-written wire codecs (no .proto is
 * read: src/protocol/wire.ts), the circuit breaker and the bundled-service
 * starter — as one lazy bundle (dist/parser-connection.js).
 * ConfiguredParser imports it dynamically on its first connect, right after
 * activation, so activating the extension does not wait for it
 * (esbuild.config.mjs, LAZY_BUNDLES).
 */
export { openParserConnection } from '../../core/parser/connection';
