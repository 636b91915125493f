/**
 * The editor's ParserPort, configured by the settings: it delegates to the
 * core's parser connection (`openParserConnection` in
 * core/parser/connection.ts, the same factory the CLI and REST server use)
 * opened for the `avap.parser.*` settings — `avap.parser.url`, or the bundled
 * parser service on a free loopback port when that is empty (stopped with the
 * extension). Reconnected when the parser settings change; listeners survive
 * reconnections.
 */
import path from 'node:path';
import type { CircuitSnapshot, ParserOutcome, ParserPort } from '../../core';
import type { ParserConnection } from '../../core/parser/connection';
import type { Logger } from '../../core/ports';
import { fail, ok, type Failure, type Result } from '../../result';
import { toParserConfig } from '../settings/parserConfig';
import type { EditorSettings } from '../settings/editorSettings';
import type * as ParserStack from './parserStack';

/** The lazily loaded gRPC stack (dist/parser-connection.js). */
type ParserStackModule = typeof ParserStack;

interface Live {
  connection: ParserConnection;
  unsubscribe: () => void;
  address: string;
}

/**
 * Why a connect gave no parser: newer settings replaced it while it started (not a problem: say nothing),
 * the gRPC bundle did not load, the URL is unreadable, or the bundled service did not start.
 */
type ConnectFailure = Failure<'superseded' | 'client-not-loaded' | 'bad-url' | 'start-failed'>;

/** The address in use, or why there is none. */
export type ConnectResult = Result<string, ConnectFailure>;

/** A ParserPort that delegates to the current connection; while none exists it validates nothing ("unavailable") and its state is `not-connected`. */
export class ConfiguredParser implements ParserPort {
  private live: Live | undefined;
  private connecting: Promise<ConnectResult> | undefined;
  private lastError = 'the parser connection is not set up yet';
  private readonly listeners = new Set<(snapshot: CircuitSnapshot) => void>();
  private generation = 0;

  constructor(
    private readonly extensionPath: string,
    private readonly logger: Logger,
    /** Loads the gRPC stack (its own bundle); tests pass the module itself. */
    private readonly loadStack: () => Promise<ParserStackModule> = () => import('./parserStack.js'),
  ) {}

  /** (Re)connects with these settings; resolves once the port is ready or failed. */
  connect(settings: EditorSettings['parser']): Promise<ConnectResult> {
    const generation = ++this.generation;
    const previous = this.live;
    this.live = undefined;
    const attempt = (async (): Promise<ConnectResult> => {
      await this.release(previous);
      // The gRPC stack is a bundle of its own, loaded on the first connect; activation does not wait for it, and
      // loading it waits for the next turn of the event loop so the editor finishes activating the extension first.
      await new Promise((resolve) => setImmediate(resolve));
      const stack = await this.loadStack().catch(
        (err: unknown) => `the parser client could not be loaded: ${err instanceof Error ? err.message : String(err)}`,
      );
      if (typeof stack === 'string') {
        this.lastError = stack;
        this.logger.warn(`${stack}`);
        return fail('client-not-loaded', stack);
      }
      const opened = await stack.openParserConnection(toParserConfig(settings), {
        logger: this.logger,
        bundled: {
          script: path.join(this.extensionPath, 'dist', 'parser-server.js'),
          onLog: (line) => this.logger.info(`bundled parser: ${line}`),
        },
      });
      if (!opened.ok) {
        this.lastError = opened.error.message;
        this.logger.warn(`${opened.error.message}`);
        return fail(opened.error.kind, opened.error.message);
      }
      const connection = opened.value;
      const live: Live = {
        connection,
        address: connection.kind === 'disabled' ? '(validation disabled)' : (connection.address ?? connection.endpoint),
        unsubscribe: connection.port.onCircuitChange((snapshot) => this.emit(snapshot)),
      };
      if (generation !== this.generation) {
        // Superseded while starting.
        await this.release(live);
        return fail('superseded', 'superseded by newer settings');
      }
      this.live = live;
      this.emit(connection.port.circuit());
      if (connection.kind === 'failed') {
        this.lastError = connection.error ?? connection.endpoint;
        return fail('start-failed', this.lastError);
      }
      return ok(live.address);
    })();
    this.connecting = attempt;
    return attempt;
  }

  /** Parser version of the last verdict (telemetry reads it). */
  get parserVersion(): string | undefined {
    return this.live?.connection.port.parserVersion;
  }

  /** Address in use (host:port or the configured URL), if connected. */
  address(): string | undefined {
    return this.live?.connection.kind === 'failed' ? undefined : this.live?.address;
  }

  async validate(source: string, filename: string, signal?: AbortSignal): Promise<ParserOutcome> {
    if (!this.live && this.connecting) await this.connecting;
    const live = this.live;
    if (!live) return { kind: 'unavailable', reason: 'transport', detail: this.lastError };
    return live.connection.port.validate(source, filename, signal);
  }

  circuit(): CircuitSnapshot {
    return this.live?.connection.port.circuit() ?? { state: 'not-connected', consecutiveFailures: 0 };
  }

  resetCircuit(): void {
    this.live?.connection.reconnect();
    this.live?.connection.port.resetCircuit();
  }

  onCircuitChange(listener: (snapshot: CircuitSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(snapshot: CircuitSnapshot): void {
    for (const listener of this.listeners) {
      try {
        listener(snapshot);
      } catch {
        // A listener's failure must not break validation.
      }
    }
  }

  private async release(live: Live | undefined): Promise<void> {
    if (!live) return;
    live.unsubscribe();
    await live.connection.close();
  }

  async dispose(): Promise<void> {
    this.generation++;
    const live = this.live;
    this.live = undefined;
    await this.release(live);
  }
}
