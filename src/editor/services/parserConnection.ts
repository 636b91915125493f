/**
 * The editor's ParserPort: the core's gRPC transport behind its circuit
 * breaker, aimed at `avap.parser.url` or, when that is empty, at the bundled
 * parser service started on a free loopback port (stopped with the extension).
 * Rebuilt when the parser settings change; listeners survive rebuilds.
 */
import path from 'node:path';
import type { CircuitSnapshot, ParserOutcome, ParserPort } from '../../core/contracts';
import type { BundledParser } from '../../core/parser/bundled';
import type { BreakerParser } from '../../core/parser/breakerParser';
import type { ParserTransport } from '../../core/parser/transport';
import type { Logger } from '../../core/ports';
import type { EditorSettings } from '../settings/editorSettings';

interface Live {
  port: BreakerParser;
  transport?: ParserTransport;
  bundled?: BundledParser;
  unsubscribe: () => void;
  address: string;
}

export type ConnectResult = { ok: true; address: string } | { ok: false; error: string };

/** A ParserPort that delegates to the current connection and reports "unavailable" while none exists. */
export class ParserConnection implements ParserPort {
  private live: Live | undefined;
  private connecting: Promise<ConnectResult> | undefined;
  private lastError = 'the parser connection is not set up yet';
  private readonly listeners = new Set<(snapshot: CircuitSnapshot) => void>();
  private generation = 0;

  constructor(private readonly extensionPath: string, private readonly logger: Logger) {}

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
      const stack = await import('./parserStack.js').catch((err: unknown) => `the parser client could not be loaded: ${err instanceof Error ? err.message : String(err)}`);
      if (typeof stack === 'string') {
        this.lastError = stack;
        this.logger.warn(`[ptvl] ${stack}`);
        return { ok: false, error: stack };
      }
      const { BreakerParser, createGrpcTransport, startBundledParser } = stack;
      let bundled: BundledParser | undefined;
      let url = settings.url;
      if (settings.timeoutSeconds > 0 && url === '') {
        const started = await startBundledParser({
          script: path.join(this.extensionPath, 'dist', 'parser-server.js'),
          onLog: (line) => this.logger.info(`bundled parser: ${line}`),
        });
        if (!started.ok) {
          this.lastError = started.error;
          this.logger.warn(`[ptvl] ${started.error}`);
          return { ok: false, error: started.error };
        }
        bundled = started.parser;
        url = bundled.address;
        this.logger.info(`[ptvl] bundled parser service listening on ${url} (pid ${bundled.pid})`);
      }
      let transport: ParserTransport | undefined;
      if (settings.timeoutSeconds > 0) {
        const created = createGrpcTransport(url);
        if (!created.ok) {
          await bundled?.dispose();
          this.lastError = created.error;
          this.logger.warn(`[ptvl] ${created.error}`);
          return { ok: false, error: created.error };
        }
        transport = created.transport;
      }
      const port = new BreakerParser(transport ?? { call: async () => ({ ok: false, kind: 'unavailable', message: 'disabled' }), close: () => undefined }, {
        timeoutMs: Math.round(settings.timeoutSeconds * 1000),
        threshold: settings.breakerThreshold,
        cooldownMs: Math.round(settings.breakerCooldownSeconds * 1000),
        logger: this.logger,
      });
      const live: Live = {
        port, transport, bundled, address: url || '(validation disabled)',
        unsubscribe: port.onCircuitChange((snapshot) => this.emit(snapshot)),
      };
      if (generation !== this.generation) {
        // Superseded while starting.
        await this.release(live);
        return { ok: false, error: 'superseded by newer settings' };
      }
      this.live = live;
      this.emit(port.circuit());
      return { ok: true, address: live.address };
    })();
    this.connecting = attempt;
    return attempt;
  }

  /** Parser version of the last verdict (telemetry reads it). */
  get parserVersion(): string | undefined {
    return this.live?.port.parserVersion;
  }

  /** Address in use (host:port), if connected. */
  address(): string | undefined {
    return this.live?.address;
  }

  async validate(source: string, filename: string, signal?: AbortSignal): Promise<ParserOutcome> {
    if (!this.live && this.connecting) await this.connecting;
    const live = this.live;
    if (!live) return { kind: 'unavailable', reason: 'transport', detail: this.lastError };
    return live.port.validate(source, filename, signal);
  }

  circuit(): CircuitSnapshot {
    return this.live?.port.circuit() ?? { state: 'open', consecutiveFailures: 0 };
  }

  resetCircuit(): void {
    this.live?.transport?.reconnect?.();
    this.live?.port.resetCircuit();
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
    live.transport?.close();
    await live.bundled?.dispose();
  }

  async dispose(): Promise<void> {
    this.generation++;
    const live = this.live;
    this.live = undefined;
    await this.release(live);
  }
}
