/**
 * The one-call transport under the breaker: the real one is gRPC
 * (`grpcTransport`), unit tests use an in-memory fake. A call never rejects.
 */
import type { ValidationResult } from '../../parser';
import type { Failure, Result } from '../../result';

/** `overloaded`: the service is up but cannot serve this call within its deadline (no verdict, not a failure). */
type TransportFailureKind = 'unavailable' | 'timeout' | 'rejected' | 'cancelled' | 'overloaded';

export interface TransportFailure extends Failure<TransportFailureKind> {
  /** overloaded: the service's estimated wait. */
  retryAfterMs?: number;
}

/** The verdict of one call, or why there is none (the one Result type; a success allocates only the Ok). */
export type TransportResult = Result<ValidationResult, TransportFailure>;

export interface ParserTransport {
  call(
    source: string,
    filename: string,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<TransportResult>;
  /**
   * Drops the current connection state and starts afresh (a new channel), so
   * the half-open probe tries the service now rather than waiting out the
   * channel's own reconnect backoff.
   */
  reconnect?(): void;
  /**
   * Asks whether the service's parser answers at all: true when a tiny
   * Validate call gets any answer (a verdict, a refusal, "overloaded") within
   * `timeoutMs`. The breaker asks when a call got no answer, to tell a busy
   * service from a dead or hung one (a hung one may still pass its health check).
   */
  alive?(timeoutMs: number): Promise<boolean>;
  /** Releases the channel. */
  close(): void;
}
