#!/usr/bin/env node
/**
 * `node dist/parser-server.js [--host 127.0.0.1] [--port 50051] [--tls-cert F --tls-key F [--tls-client-ca F]]
 *  [--insecure] [--max-source-bytes N] [--workers N]` — serves the AVAP parser over gRPC. The
 * first stdout line is `listening on HOST:PORT`; logs go to stderr;
 * SIGTERM/SIGINT drain in-flight calls and exit 0. Bound beyond loopback it
 * requires TLS or an explicit `--insecure` (exit 2 otherwise).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isLoopbackHost } from '../net';
import { PARSER_VERSION } from '../parser';
import { startParserServer, type TlsFiles } from './parserService';
import { defaultWorkerCount } from './workerPool';

const USAGE = `Usage: node dist/parser-server.js [--host 127.0.0.1] [--port 50051]
       [--tls-cert FILE --tls-key FILE [--tls-client-ca FILE]] [--insecure] [--max-source-bytes N]
       [--max-message-bytes N] [--grace-ms N] [--workers N] [--max-connection-age-ms N]
  --host HOST            address to bind (default 127.0.0.1, loopback only)
  --port PORT            port (default 50051; 0 picks a free port)
  --tls-cert FILE, --tls-key FILE
                         serve over TLS with this certificate and key (PEM)
  --tls-client-ca FILE   with TLS, require client certificates signed by this CA
  --insecure             allow plaintext on an address beyond loopback; without it, a HOST that is
                         not loopback (e.g. 0.0.0.0) needs --tls-cert and --tls-key, else exit 2
  --max-source-bytes N   largest source accepted (INVALID_ARGUMENT above; default 1 MiB)
  --max-message-bytes N  transport cap per message (RESOURCE_EXHAUSTED above; default the source limit + 64 KiB)
  --grace-ms N           on SIGTERM/SIGINT, how long in-flight calls may finish (default 10000)
  --workers N            parser threads (default $AVAP_PARSER_WORKERS, else one per core: ${defaultWorkerCount()} here)
  --max-connection-age-ms N
                         close client connections after N ms (in-flight calls finish), so clients
                         balancing over dns:///… re-resolve and find new replicas (default: never)
  The first line on stdout is "listening on HOST:PORT".
Exit codes: 0 stopped by a signal, 2 usage error, refused plaintext beyond loopback, or the address could not be bound.`;

function fail(message: string): never {
  process.stderr.write(`parser-server: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function positiveInt(name: string, raw: string | undefined, fallback?: number): number | undefined {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) fail(`--${name} must be a non-negative integer, got '${raw}'`);
  return value;
}

function readTls(values: { 'tls-cert'?: string; 'tls-key'?: string; 'tls-client-ca'?: string }): TlsFiles | undefined {
  const { 'tls-cert': cert, 'tls-key': key, 'tls-client-ca': ca } = values;
  if (!cert && !key && !ca) return undefined;
  if (!cert || !key) fail('TLS needs both --tls-cert and --tls-key');
  try {
    return { cert: readFileSync(cert), key: readFileSync(key), clientCa: ca ? readFileSync(ca) : undefined };
  } catch (err) {
    fail(`cannot read TLS files: ${(err as Error).message}`);
  }
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string', default: '50051' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        'tls-client-ca': { type: 'string' },
        'max-source-bytes': { type: 'string' },
        'max-message-bytes': { type: 'string' },
        'grace-ms': { type: 'string' },
        insecure: { type: 'boolean', default: false },
        workers: { type: 'string' },
        'max-connection-age-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = positiveInt('port', values.port) ?? 50051;
  if (port > 65535) fail(`--port must be at most 65535, got ${port}`);
  const host = values.host ?? '127.0.0.1';
  const tls = readTls(values);
  const plaintextBeyondLoopback = !tls && !isLoopbackHost(host);
  if (plaintextBeyondLoopback && !values.insecure) {
    fail(
      `refusing to serve plaintext gRPC on ${host}, beyond loopback: pass --tls-cert FILE --tls-key FILE, or --insecure to accept unencrypted, unauthenticated calls from the network (or bind 127.0.0.1)`,
    );
  }
  const graceMs = positiveInt('grace-ms', values['grace-ms'], 10_000);
  const log = (line: string) => process.stderr.write(`[parser-server] ${line}\n`);
  const workers =
    positiveInt(
      'workers',
      values.workers ?? (process.env.AVAP_PARSER_WORKERS?.trim() || undefined),
      defaultWorkerCount(),
    ) ?? 1;
  if (workers < 1) fail('--workers must be at least 1');
  const server = await startParserServer(
    host,
    port,
    {
      maxSourceBytes: positiveInt('max-source-bytes', values['max-source-bytes']),
      maxMessageBytes: positiveInt('max-message-bytes', values['max-message-bytes']),
      workers,
      maxConnectionAgeMs: positiveInt('max-connection-age-ms', values['max-connection-age-ms']),
      log,
    },
    tls,
  ).catch((err: Error) => fail(`cannot listen on ${host}:${port}: ${err.message}`));

  const stop = (signal: string) => {
    log(`${signal}: draining in-flight calls`);
    void server.shutdown(graceMs).then(() => {
      log('stopped');
      process.exit(0);
    });
  };
  // Handlers and warnings before the banner: whoever waits for it may signal at once.
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  if (plaintextBeyondLoopback)
    log(`WARNING: --insecure: plaintext gRPC on ${host}; anyone who can reach this port can call the parser`);
  log(
    `${PARSER_VERSION} serving avap.parser.v1.AvapParser and grpc.health.v1.Health${tls ? ' over TLS' : ''} with ${server.workers} parser worker${server.workers === 1 ? '' : 's'}`,
  );
  process.stdout.write(`listening on ${server.address}\n`);
}

void main();
