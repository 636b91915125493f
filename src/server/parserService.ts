/**
 * The AVAP parser as a gRPC service: avap.parser.v1.AvapParser/Validate plus the
 * standard grpc.health.v1.Health service. Editor-free; used by the bundled
 * `dist/parser-server.js`, the tests and the benchmark.
 *
 * Parsing runs on a pool of worker threads (one per core by default) behind
 * the scheduler (./scheduler.ts): the gRPC thread only decodes, admits and
 * answers, so health checks stay responsive under load; a call that cannot
 * be served within its deadline is refused at once with RESOURCE_EXHAUSTED
 * (see src/protocol/overload.ts), and a queued call whose deadline passes or
 * whose caller leaves is dropped without being parsed.
 */
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { DEFAULT_MAX_BYTES } from '../parser';
import {
  overloadMetadata,
  PARSER_SERVICE_NAME,
  toWireResponse,
  type WireValidateRequest,
  type WireValidateResponse,
} from '../protocol';
import { loadParserPackage } from '../protocol/parserDefinition';
import { ParseScheduler, type SchedulerOptions } from './scheduler';
import { defaultWorkerCount, startWorkerPool } from './workerPool';

export interface ParserServerOptions {
  /** Sources over this many UTF-8 bytes are refused with INVALID_ARGUMENT. Default 1 MiB. */
  maxSourceBytes?: number;
  /**
   * Transport cap on a received message. Larger messages are refused by gRPC
   * itself with RESOURCE_EXHAUSTED before they are buffered whole. Default:
   * maxSourceBytes + 64 KiB (room for the filename and framing).
   */
  maxMessageBytes?: number;
  /** Receives one line per notable event (start, refusals, shutdown). */
  log?: (line: string) => void;
  /** Parser worker threads. Default: os.availableParallelism(). */
  workers?: number;
  /** Path of parser-worker.js (default: next to this bundle, or dist/). */
  workerScript?: string;
  /** Admission and queue tuning (tests). */
  scheduler?: SchedulerOptions;
  /**
   * Closes each client connection (GOAWAY, in-flight calls finish) after this
   * long, so clients balancing over `dns:///…` re-resolve and find replicas
   * added since. Default: never.
   */
  maxConnectionAgeMs?: number;
}

export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
  /** When given, clients must present a certificate signed by this CA. */
  clientCa?: Buffer;
}

export interface ParserServer {
  /** The address actually bound, e.g. `127.0.0.1:50051`. */
  readonly address: string;
  readonly port: number;
  /** Worker threads parsing. */
  readonly workers: number;
  /**
   * Stops accepting calls, marks health NOT_SERVING, lets in-flight calls
   * finish, and forces the rest closed after `graceMs`.
   */
  shutdown(graceMs?: number): Promise<void>;
}

type ValidateCall = grpc.ServerUnaryCall<WireValidateRequest, WireValidateResponse>;
type ValidateCallback = grpc.sendUnaryData<WireValidateResponse>;

function deadlineOf(call: ValidateCall): number {
  const deadline = call.getDeadline();
  if (deadline === Infinity) return Infinity;
  const at = deadline instanceof Date ? deadline.getTime() : Number(deadline);
  return Number.isFinite(at) ? at : Infinity;
}

function refusal(code: grpc.status, details: string, metadata?: grpc.Metadata): Partial<grpc.StatusObject> {
  return metadata ? { code, details, metadata } : { code, details };
}

/**
 * The Validate handler, separate from the server so tests can drive it with a fake call.
 * @internal
 */
export function validateHandler(maxSourceBytes: number, log: (line: string) => void, scheduler: ParseScheduler) {
  return (call: ValidateCall, callback: ValidateCallback): void => {
    if (call.cancelled) return;
    const deadline = deadlineOf(call);
    if (deadline <= Date.now()) {
      callback(refusal(grpc.status.DEADLINE_EXCEEDED, 'deadline passed before validation started'));
      return;
    }
    const source = call.request.source ?? '';
    const bytes = Buffer.byteLength(source, 'utf8');
    if (bytes > maxSourceBytes) {
      log(`refused ${call.request.filename || '<unnamed>'}: ${bytes} bytes over the ${maxSourceBytes}-byte limit`);
      callback(
        refusal(
          grpc.status.INVALID_ARGUMENT,
          `source is ${bytes} bytes; this service accepts at most ${maxSourceBytes} bytes per call`,
        ),
      );
      return;
    }
    const ticket = scheduler.submit({
      source,
      filename: call.request.filename ?? '',
      bytes,
      deadline,
      cancelled: () => call.cancelled,
    });
    const onCancelled = () => ticket.cancel();
    call.once?.('cancelled', onCancelled);
    void ticket.outcome.then((outcome) => {
      call.removeListener?.('cancelled', onCancelled);
      if (call.cancelled) return;
      switch (outcome.kind) {
        case 'verdict':
          callback(null, toWireResponse(outcome.result));
          return;
        case 'expired':
          callback(
            refusal(
              grpc.status.DEADLINE_EXCEEDED,
              'deadline passed while the call waited for a parser worker; it was not parsed',
            ),
          );
          return;
        case 'cancelled':
          return;
        case 'overloaded':
          callback(
            refusal(
              grpc.status.RESOURCE_EXHAUSTED,
              `parser service overloaded: ${outcome.reason}`,
              overloadMetadata(outcome.estimatedMs),
            ),
          );
          return;
        case 'failed':
          log(`validation of ${call.request.filename || '<unnamed>'} failed: ${outcome.message}`);
          callback(refusal(grpc.status.INTERNAL, `the parser worker failed: ${outcome.message}`));
          return;
      }
    });
  };
}

function formatAddress(host: string, port: number): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Starts the service on host:port (port 0 = a free port). */
export async function startParserServer(
  host: string,
  port: number,
  options: ParserServerOptions = {},
  tls?: TlsFiles,
): Promise<ParserServer> {
  const maxSourceBytes = options.maxSourceBytes ?? DEFAULT_MAX_BYTES;
  const maxMessageBytes = options.maxMessageBytes ?? maxSourceBytes + 64 * 1024;
  const log = options.log ?? (() => undefined);

  const server = new grpc.Server({
    'grpc.max_receive_message_length': maxMessageBytes,
    'grpc.max_send_message_length': Math.max(maxMessageBytes, 4 * 1024 * 1024),
    ...(options.maxConnectionAgeMs ? { 'grpc.max_connection_age_ms': options.maxConnectionAgeMs } : {}),
  });
  const workers = Math.max(1, options.workers ?? defaultWorkerCount());
  const pool = startWorkerPool({
    size: workers,
    maxBytes: maxSourceBytes,
    log,
    ...(options.workerScript ? { script: options.workerScript } : {}),
  });
  const scheduler = new ParseScheduler(pool.executors, options.scheduler);
  const health = new HealthImplementation({ '': 'SERVING', [PARSER_SERVICE_NAME]: 'SERVING' });
  health.addToServer(server);
  server.addService(loadParserPackage().service, { Validate: validateHandler(maxSourceBytes, log, scheduler) });

  const credentials = tls
    ? grpc.ServerCredentials.createSsl(
        tls.clientCa ?? null,
        [{ private_key: tls.key, cert_chain: tls.cert }],
        Boolean(tls.clientCa),
      )
    : grpc.ServerCredentials.createInsecure();

  const boundPort = await new Promise<number>((resolve, reject) => {
    server.bindAsync(formatAddress(host, port), credentials, (err, actual) => (err ? reject(err) : resolve(actual)));
  }).catch(async (err: unknown) => {
    await pool.close();
    throw err;
  });

  let stopping: Promise<void> | undefined;
  return {
    address: formatAddress(host, boundPort),
    port: boundPort,
    workers,
    shutdown(graceMs = 10_000) {
      stopping ??= new Promise<void>((resolve) => {
        health.setStatus('', 'NOT_SERVING');
        health.setStatus(PARSER_SERVICE_NAME, 'NOT_SERVING');
        const force = setTimeout(() => {
          log(`in-flight calls still running after ${graceMs} ms; closing them`);
          server.forceShutdown();
          resolve();
        }, graceMs);
        force.unref();
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }).then(() => pool.close());
      return stopping;
    },
  };
}
