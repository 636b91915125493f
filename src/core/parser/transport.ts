/**
 * The one-call transport under the breaker: the real one is gRPC
 * (`grpcTransport`), unit tests use an in-memory fake. A call never rejects.
 */
import type { ValidationResult } from '../../parser';

/** `overloaded`: the service is up but cannot serve this call within its deadline (no verdict, not a failure). */
export type TransportFailureKind = 'unavailable' | 'timeout' | 'rejected' | 'cancelled' | 'overloaded';

export type TransportResult =
  | { ok: true; result: ValidationResult }
  | { ok: false; kind: TransportFailureKind; message: string; /** overloaded: the service's estimated wait */ retryAfterMs?: number };

export interface ParserTransport {
  call(source: string, filename: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<TransportResult>;
  /**
   * Drops the current connection state and starts afresh (a new channel), so
   * the half-open probe tries the service now rather than waiting out the
   * channel's own reconnect backoff.
   */
  reconnect?(): void;
  /**
   * Asks the service whether it is up (the standard health check) without a
   * verdict: true when it answers SERVING within `timeoutMs`. The breaker
   * asks after a failure, to tell a busy service from a dead one.
   */
  alive?(timeoutMs: number): Promise<boolean>;
  /** Releases the channel. */
  close(): void;
}
