/** A client of the standard grpc.health.v1.Health service. */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath } from 'grpc-health-check';

export type ServingStatus = 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';

export interface HealthClient extends grpc.Client {
  Check(
    request: { service: string },
    metadata: grpc.Metadata,
    options: Partial<grpc.CallOptions>,
    callback: (err: grpc.ServiceError | null, response?: { status: ServingStatus }) => void,
  ): grpc.ClientUnaryCall;
}

let ctor: (new (address: string, credentials: grpc.ChannelCredentials, options?: grpc.ClientOptions) => HealthClient) | undefined;

export function healthClientConstructor(): new (address: string, credentials: grpc.ChannelCredentials, options?: grpc.ClientOptions) => HealthClient {
  if (ctor) return ctor;
  const definition = protoLoader.loadSync(protoPath, { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
  const loaded = grpc.loadPackageDefinition(definition) as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } };
  ctor = loaded.grpc.health.v1.Health as unknown as typeof ctor;
  return ctor as NonNullable<typeof ctor>;
}
