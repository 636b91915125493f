/**
 * The one way to connect to the AVAP parser. The assistant (CLI `generate`,
 * `ask`, `eval`, the REST server), the CLI's `validate` and the editor all
 * open their parser here, so they behave the same:
 *
 * | parser settings                     | what happens                                                          | `endpoint` label              |
 * |-------------------------------------|-----------------------------------------------------------------------|-------------------------------|
 * | timeout 0                           | validation disabled: nothing started, nothing dialled; every call is `disabled`, circuit `disabled` | `disabled` |
 * | empty URL                           | the bundled service (dist/parser-server.js) starts on a free loopback port | `bundled 127.0.0.1:PORT` |
 * | empty URL, the service fails to start | logged once; every call is unavailable (`transport`, the start error), circuit `open` with no probe — there is nothing to probe until the settings change | `bundled (failed to start)` |
 * | `host:port`, `grpc(s)://host:port`  | one gRPC channel                                                      | the URL                       |
 * | a list `a:1,b:2`, `dns:///name:port` | one channel, round-robin over every address, each health-checked; a call one endpoint could not answer is retried once on another | the URL |
 * | an unreadable URL                   | `err({kind: 'bad-url', message})` — a usage problem, nothing started   | —                             |
 *
 * Every live connection is the circuit breaker (BreakerParser) behind the
 * client-side admission queue (AdmissionParser): callers wait for capacity,
 * an overloaded service is no verdict for that call and never opens the circuit.
 */
import type { BadParserUrl } from '../../protocol/parserUrl';
import { err, fail, ok, type Result } from '../../result';
import type { ParserConfig } from '../config';
import type { CircuitSnapshot, ParserOutcome, ParserPort } from '../types';
import { silentLogger, type Clock, type Logger } from '../ports';
import { AdmissionParser, type AdmissionOptions } from './admission';
import { BreakerParser } from './breakerParser';
import { startBundledParser, type StartBundledOptions } from './bundled';
import { createGrpcTransport, type GrpcTransportOptions } from './grpcTransport';
import type { ParserTransport } from './transport';

type ParserConnectionKind = 'configured' | 'bundled' | 'disabled' | 'failed' | 'injected';

export interface ParserConnection {
  readonly kind: ParserConnectionKind;
  /** What the pipeline, diagnostics and REST call. */
  readonly port: ParserPort & { readonly parserVersion?: string };
  /** For people: the URL, `bundled 127.0.0.1:PORT`, `disabled`, `bundled (failed to start)`, `injected transport`. */
  readonly endpoint: string;
  /** What is dialled: the configured URL as given, or the bundled service's host:port; absent when nothing is. */
  readonly address?: string;
  /** Why the connection is `failed`. */
  readonly error?: string;
  /** Starts a fresh channel now (before a manual circuit reset, so the next call does not wait out reconnect backoff). */
  reconnect(): void;
  /** Closes the channel and stops the bundled service. Idempotent. */
  close(): Promise<void>;
}

export type OpenParserResult = Result<ParserConnection, BadParserUrl>;

export interface ParserConnectionOptions {
  logger?: Logger;
  /** The breaker's cooldown and the admission's waits run on it. */
  clock?: Clock;
  /** Options of the bundled service (script path, where its log lines go). */
  bundled?: StartBundledOptions;
  /** A transport to put behind the breaker instead of gRPC (tests count calls with it). */
  transport?: ParserTransport;
  grpc?: GrpcTransportOptions;
  admission?: AdmissionOptions;
}

const FAILED_ENDPOINT = 'bundled (failed to start)';

/** A port that answers every call with the reason nothing can be validated (a bundled service that did not start). */
class UnavailablePort implements ParserPort {
  constructor(private readonly detail: string) {}

  validate(): Promise<ParserOutcome> {
    return Promise.resolve({ kind: 'unavailable', reason: 'transport', detail: this.detail });
  }

  circuit(): CircuitSnapshot {
    return { state: 'open', consecutiveFailures: 0 };
  }

  resetCircuit(): void {
    // Nothing to reset: only new settings can bring a parser.
  }

  onCircuitChange(): () => void {
    return () => undefined;
  }
}

const NO_TRANSPORT: ParserTransport = {
  call: () => Promise.resolve(fail('unavailable', 'validation disabled')),
  close: () => undefined,
};

export { /** @internal */ parserUrlProblem } from './url';

/** A connection over a transport, as `openParserConnection` makes it. */
interface LiveConnection {
  kind: ParserConnectionKind;
  /** How the connection is shown (the URL, `bundled <address>`, …). */
  endpoint: string;
  transport: ParserTransport;
  /** The address it reaches, when it has one. */
  address?: string;
  /** Stops what the connection started (the bundled service), after the transport is closed. */
  stop?: () => Promise<void>;
}

export async function openParserConnection(
  config: ParserConfig,
  options: ParserConnectionOptions = {},
): Promise<OpenParserResult> {
  const logger = options.logger ?? silentLogger;
  const breaker = (transport: ParserTransport) =>
    new BreakerParser(transport, {
      timeoutMs: config.timeoutMs,
      threshold: config.breakerThreshold,
      cooldownMs: config.breakerCooldownMs,
      ...(options.clock ? { clock: options.clock } : {}),
      logger,
    });
  const live = ({ kind, endpoint, transport, address, stop }: LiveConnection): OpenParserResult => {
    const port = new AdmissionParser(breaker(transport), {
      ...options.admission,
      ...(options.clock ? { clock: options.clock } : {}),
    });
    let closing: Promise<void> | undefined;
    return ok({
      kind,
      port,
      endpoint,
      ...(address ? { address } : {}),
      reconnect: () => transport.reconnect?.(),
      close() {
        closing ??= (async () => {
          transport.close();
          await stop?.();
        })();
        return closing;
      },
    });
  };

  if (config.timeoutMs <= 0) {
    return ok({
      kind: 'disabled',
      port: breaker(NO_TRANSPORT),
      endpoint: 'disabled',
      reconnect: () => undefined,
      close: () => Promise.resolve(),
    });
  }
  if (options.transport)
    return live({ kind: 'injected', endpoint: 'injected transport', transport: options.transport });

  const url = config.url?.trim() ?? '';
  if (url) {
    const grpc = createGrpcTransport(url, options.grpc);
    if (!grpc.ok) return err(grpc.error);
    return live({ kind: 'configured', endpoint: url, transport: grpc.value.transport, address: url });
  }

  const started = await startBundledParser({
    ...options.bundled,
    onLog: options.bundled?.onLog ?? ((line) => logger.info(`parser-service: ${line}`)),
  });
  if (!started.ok) {
    const { message } = started.error;
    logger.warn(`${message}`);
    const port = new UnavailablePort(message);
    return ok({
      kind: 'failed',
      port,
      endpoint: FAILED_ENDPOINT,
      error: message,
      reconnect: () => undefined,
      close: () => Promise.resolve(),
    });
  }
  const bundled = started.value;
  const { address, pid } = bundled;
  logger.info(`bundled parser service listening on ${address} (pid ${pid})`);
  const grpc = createGrpcTransport(address, options.grpc);
  if (!grpc.ok) {
    await bundled.dispose();
    return err(grpc.error);
  }
  return live({
    kind: 'bundled',
    endpoint: `bundled ${address}`,
    transport: grpc.value.transport,
    address,
    stop: () => bundled.dispose(),
  });
}
