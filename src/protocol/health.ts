/**
 * A client of the standard grpc.health.v1.Health service (Check and Watch),
 * built on grpc-js's generic client with the hand-written codecs of ./wire.ts:
 * no health.proto is read on the client side.
 */
import * as grpc from '@grpc/grpc-js';
import {
  decodeHealthCheckRequest,
  decodeHealthCheckResponse,
  encodeHealthCheckRequest,
  encodeHealthCheckResponse,
  type HealthCheckRequest,
  type HealthCheckResponse,
  type ServingStatus,
} from './wire';

export type { ServingStatus } from './wire';

const HEALTH_SERVICE_NAME = 'grpc.health.v1.Health';

export interface HealthClient extends grpc.Client {
  Check(
    request: HealthCheckRequest,
    metadata: grpc.Metadata,
    options: Partial<grpc.CallOptions>,
    callback: (err: grpc.ServiceError | null, response?: { status: ServingStatus }) => void,
  ): grpc.ClientUnaryCall;
  Watch(
    request: HealthCheckRequest,
    options?: Partial<grpc.CallOptions>,
  ): grpc.ClientReadableStream<HealthCheckResponse>;
}

export type HealthClientConstructor = new (
  address: string,
  credentials: grpc.ChannelCredentials,
  options?: grpc.ClientOptions,
) => HealthClient;

const codecs = {
  requestSerialize: encodeHealthCheckRequest,
  requestDeserialize: decodeHealthCheckRequest,
  responseSerialize: encodeHealthCheckResponse,
  responseDeserialize: decodeHealthCheckResponse,
};

/**
 * grpc.health.v1.Health's Check and Watch as grpc-js sees them.
 * @internal
 */
export const HEALTH_METHODS = {
  Check: { path: `/${HEALTH_SERVICE_NAME}/Check`, requestStream: false, responseStream: false, ...codecs },
  Watch: { path: `/${HEALTH_SERVICE_NAME}/Watch`, requestStream: false, responseStream: true, ...codecs },
} satisfies grpc.ServiceDefinition;

let ctor: HealthClientConstructor | undefined;

export function healthClientConstructor(): HealthClientConstructor {
  ctor ??= grpc.makeGenericClientConstructor(HEALTH_METHODS, 'Health') as unknown as HealthClientConstructor;
  return ctor;
}
