/**
 * How the parser service says "too busy for your deadline": status
 * RESOURCE_EXHAUSTED with the trailing metadata key below, whose value is the
 * wait it estimated in milliseconds. Clients tell it apart from the other
 * RESOURCE_EXHAUSTED (a message over the transport cap, which has no such key):
 * an overloaded answer is no verdict for this call, but the service is up.
 */
import * as grpc from '@grpc/grpc-js';

const OVERLOAD_METADATA_KEY = 'avap-overload-wait-ms';

export function overloadMetadata(estimatedMs: number): grpc.Metadata {
  const metadata = new grpc.Metadata();
  metadata.set(OVERLOAD_METADATA_KEY, String(Math.max(0, Math.ceil(estimatedMs))));
  return metadata;
}

/** The estimated wait of an overloaded answer, or undefined when the metadata is not an overload signal. */
export function overloadWaitMs(metadata: grpc.Metadata | undefined): number | undefined {
  const value = metadata?.get(OVERLOAD_METADATA_KEY)[0];
  if (value === undefined) return undefined;
  const ms = Number(value);
  return Number.isFinite(ms) && ms >= 0 ? ms : 0;
}
