/**
 * The parser service's definition loaded from src/proto/avap_parser.proto with
 * @grpc/proto-loader, as the service (src/server) registers it. Clients do not
 * load it: they use the hand-written codecs (./parserProto.ts, ./wire.ts),
 * which the tests check against this reflection of the .proto.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ParserClientConstructor } from './parserProto';

/**
 * The options the service loads the proto with (what ./wire.ts decodes to).
 * @internal
 */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
};

/**
 * Where the .proto files are: next to the bundle (dist/proto, copied by the
 * build) or in the source tree when running from TypeScript (src/proto).
 * @internal
 */
export function protoDirectory(): string {
  const candidates = [
    path.join(__dirname, 'proto'),
    path.join(__dirname, '..', 'proto'),
    path.join(__dirname, '..', '..', 'src', 'proto'),
  ];
  for (const dir of candidates) {
    if (existsSync(path.join(dir, 'avap_parser.proto'))) return dir;
  }
  throw new Error(`avap_parser.proto not found (looked in ${candidates.join(', ')})`);
}

export interface ParserPackage {
  service: grpc.ServiceDefinition;
  /** A client built by reflection of the .proto (tests compare it with the hand-written one). */
  Client: ParserClientConstructor;
}

let cached: ParserPackage | undefined;

export function loadParserPackage(): ParserPackage {
  if (cached) return cached;
  const definition = protoLoader.loadSync(path.join(protoDirectory(), 'avap_parser.proto'), LOADER_OPTIONS);
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    avap: { parser: { v1: { AvapParser: grpc.ServiceClientConstructor } } };
  };
  const ctor = loaded.avap.parser.v1.AvapParser;
  cached = { service: ctor.service, Client: ctor as unknown as ParserClientConstructor };
  return cached;
}
