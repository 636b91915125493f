/**
 * The one-call transport under the breaker: the real one is gRPC
 * (`grpcTransport`), unit tests use an in-memory fake. A call never rejects.
 */
import type { ValidationResult } from '../../parser/types';

export type TransportFailureKind = 'unavailable' | 'timeout' | 'rejected' | 'cancelled';

export type TransportResult =
  | { ok: true; result: ValidationResult }
  | { ok: false; kind: TransportFailureKind; message: string };

export interface ParserTransport {
  call(source: string, filename: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<TransportResult>;
  /**
   * Drops the current connection state and starts afresh (a new channel), so
   * the half-open probe tries the service now rather than waiting out the
   * channel's own reconnect backoff.
   */
  reconnect?(): void;
  /** Releases the channel. */
  close(): void;
}
