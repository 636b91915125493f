/**
 * `serve [--host H] [--port P] [--token T] [options]` — the REST server over
 * the core's programmatic API. The first stdout line is `listening on HOST:PORT`
 * (`--port 0` picks a free port). Runs until SIGINT/SIGTERM, then drains.
 * On loopback it answers only for loopback host names (and --allowed-host);
 * slow clients are cut off by header, request and keep-alive timeouts; a
 * signal store or telemetry log that cannot be written is said at start.
 */
import { parseArgs } from 'node:util';
import { prefixedLogger } from '../../core';
import { parseSwitch, parseThreshold, QualityConfigError, qualityConfigFromEnv } from '../../quality';
import {
  isLoopbackHost,
  MIN_TOKEN_CHARS,
  formatHostRule,
  LOOPBACK_HOST_RULES,
  parseHostRules,
  splitHost,
  type HostRule,
  createRestServer,
  DEFAULT_BODY_LIMIT,
  DEFAULT_TIMEOUTS,
  type RestTimeouts,
} from '../../rest';
import { createRunPool, type RunPool } from '../../runtime/host';
import { createAssistantStack } from '../../stack';
import { version as PACKAGE_VERSION } from '../../../package.json';
import { EXIT, UsageError, type CliCommand, type CliIO } from '../command';
import { limitsFromFlags, SANDBOX_OPTIONS, SANDBOX_USAGE, sandboxFromFlags } from '../runtime/options';
import { configFromFlags, PIPELINE_OPTIONS } from './generate';
import { optionLines, PIPELINE_ENV_NOTE, pipelineOptions, VALIDATION_NOTE } from './pipelineUsage';

const USAGE = `Usage: node dist/cli.js serve [--host HOST] [--port PORT] [--token TOKEN] [options]
  Serves the assistant over HTTP: POST /v1/generate (NDJSON or SSE), POST /v1/validate,
  POST /v1/batch, POST /v1/feedback, POST /v1/execute, GET /v1/models, GET /health, GET /openapi.json.
  The first line on standard output is "listening on HOST:PORT".
  --host HOST            address to bind (default 127.0.0.1)
  --port PORT            port (default 8000; 0 picks a free port)
  --token TOKEN          bearer token required on every /v1 route (default $AVAP_API_TOKEN);
                         mandatory when HOST is not a loopback address; at least ${MIN_TOKEN_CHARS} characters
  --max-body-bytes N     largest request body accepted (default ${DEFAULT_BODY_LIMIT})
  --allowed-host NAME    also answer for this Host (NAME or NAME:PORT; repeatable; default $AVAP_API_ALLOWED_HOSTS,
                         comma-separated). On a loopback HOST only localhost, 127.0.0.1 and [::1] (any port) and
                         these are answered, anything else gets 421 (DNS rebinding); beyond loopback the list
                         applies only when given
  --headers-timeout S    seconds a client has to send the request headers (default $AVAP_API_HEADERS_TIMEOUT, else ${DEFAULT_TIMEOUTS.headersMs / 1000})
  --request-timeout S    seconds a client has to send the whole request (default $AVAP_API_REQUEST_TIMEOUT, else ${DEFAULT_TIMEOUTS.requestMs / 1000});
                         a slow client gets 408 and is disconnected; streamed answers are not cut
  --keep-alive-timeout S seconds an idle kept-alive connection stays open (default $AVAP_API_KEEP_ALIVE_TIMEOUT, else ${DEFAULT_TIMEOUTS.keepAliveMs / 1000})
  --judge on|off         score RETRIEVAL answers with the LLM judge, one hinted retry (default $AVAP_JUDGE, else off)
  --judge-threshold X    pass mark of the judge's composite, 0–1 (default $AVAP_JUDGE_THRESHOLD, else 0.6)
  --judge-model NAME     judge model (default $AVAP_JUDGE_MODEL, else the main model)
  --signals FILE         record training signals (JSONL) and accept /v1/feedback (default $AVAP_SIGNALS_FILE)
  POST /v1/execute runs AVAP in the sandboxed runtime (AVAP Lite's {script, variables} → {success, result,
  variables, logs}); its runs get this sandbox, and the budgets of $AVAP_RUN_TIMEOUT (seconds),
  $AVAP_RUN_MAX_STEPS and $AVAP_RUN_MAX_MEMORY (MiB):
${SANDBOX_USAGE}
${optionLines(pipelineOptions(['--json']), 23)}
${PIPELINE_ENV_NOTE}
${VALIDATION_NOTE}
  A signal store or telemetry log that cannot be written is reported on stderr at start and in
  GET /health ("status": "degraded" with reasons); /v1/feedback then answers 503.
Exit codes: 0 stopped by a signal, 2 usage error or the address could not be bound.`;

const { json: _json, ...SERVE_PIPELINE_OPTIONS } = PIPELINE_OPTIONS;

/** An integer flag's default and bounds (inclusive): three numbers, so named. */
interface IntegerRange {
  fallback: number;
  min: number;
  max: number;
}

function integer(name: string, raw: string | undefined, range: IntegerRange): number {
  const { fallback, min, max } = range;
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(value) || value < min || value > max)
    throw new UsageError(`${name} must be an integer from ${min} to ${max}, got '${raw}'`);
  return value;
}

/** A setting in seconds: its flag (and the value given to it), the environment variable it mirrors, the default. */
interface SecondsSetting {
  flag: string;
  raw: string | undefined;
  envName: string;
  fallbackMs: number;
}

/** Seconds (decimals allowed) from a flag, else the environment, else the default; in ms. */
function seconds(setting: SecondsSetting, env: NodeJS.ProcessEnv): number {
  const { flag, raw, envName, fallbackMs } = setting;
  const fromEnv = env[envName]?.trim() || undefined;
  const text = raw ?? fromEnv;
  if (text === undefined) return fallbackMs;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0 || value > 3600) {
    throw new UsageError(
      `${raw !== undefined ? flag : envName} must be a number of seconds above 0 and at most 3600, got '${text}'`,
    );
  }
  return Math.max(1, Math.round(value * 1000));
}

function timeoutsFrom(
  values: { 'headers-timeout'?: string; 'request-timeout'?: string; 'keep-alive-timeout'?: string },
  env: NodeJS.ProcessEnv,
): RestTimeouts {
  const timeouts = {
    headersMs: seconds(
      {
        flag: '--headers-timeout',
        raw: values['headers-timeout'],
        envName: 'AVAP_API_HEADERS_TIMEOUT',
        fallbackMs: DEFAULT_TIMEOUTS.headersMs,
      },
      env,
    ),
    requestMs: seconds(
      {
        flag: '--request-timeout',
        raw: values['request-timeout'],
        envName: 'AVAP_API_REQUEST_TIMEOUT',
        fallbackMs: DEFAULT_TIMEOUTS.requestMs,
      },
      env,
    ),
    keepAliveMs: seconds(
      {
        flag: '--keep-alive-timeout',
        raw: values['keep-alive-timeout'],
        envName: 'AVAP_API_KEEP_ALIVE_TIMEOUT',
        fallbackMs: DEFAULT_TIMEOUTS.keepAliveMs,
      },
      env,
    ),
  };
  if (timeouts.headersMs > timeouts.requestMs) {
    throw new UsageError(
      `the headers timeout (${timeouts.headersMs / 1000} s) cannot be longer than the request timeout (${timeouts.requestMs / 1000} s)`,
    );
  }
  return timeouts;
}

/** The Host allow-list: on loopback always (loopback names, the bound address, extras); beyond loopback only when extras are given. */
function hostRulesFor(host: string, flags: string[] | undefined, env: NodeJS.ProcessEnv): HostRule[] | undefined {
  const extras =
    flags ??
    (env.AVAP_API_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
  const parsed = parseHostRules(extras);
  if (!parsed.ok) {
    throw new UsageError(`${flags ? '--allowed-host' : 'AVAP_API_ALLOWED_HOSTS'}: ${parsed.error.message}`);
  }
  if (!isLoopbackHost(host) && parsed.value.length === 0) return undefined;
  const bound = splitHost(host);
  return [...LOOPBACK_HOST_RULES, ...(bound && isLoopbackHost(host) ? [bound] : []), ...parsed.value].filter(
    (rule, i, all) => all.findIndex((r) => formatHostRule(r) === formatHostRule(rule)) === i,
  );
}

function formatAddress(address: string, port: number): string {
  return `${address.includes(':') ? `[${address}]` : address}:${port}`;
}

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...SERVE_PIPELINE_OPTIONS,
      host: { type: 'string' },
      port: { type: 'string' },
      token: { type: 'string' },
      'max-body-bytes': { type: 'string' },
      'allowed-host': { type: 'string', multiple: true },
      'headers-timeout': { type: 'string' },
      'request-timeout': { type: 'string' },
      'keep-alive-timeout': { type: 'string' },
      judge: { type: 'string' },
      'judge-threshold': { type: 'string' },
      'judge-model': { type: 'string' },
      signals: { type: 'string' },
      ...SANDBOX_OPTIONS,
    },
    allowPositionals: false,
    strict: true,
  });
  void positionals;
  const host = values.host ?? '127.0.0.1';
  const port = integer('--port', values.port, { fallback: 8000, min: 0, max: 65535 });
  const bodyLimit = integer('--max-body-bytes', values['max-body-bytes'], {
    fallback: DEFAULT_BODY_LIMIT,
    min: 1024,
    max: 1024 * 1024 * 1024,
  });
  const token = values.token ?? (io.env.AVAP_API_TOKEN?.trim() || undefined);
  if (token !== undefined && token.length < MIN_TOKEN_CHARS)
    throw new UsageError(`the bearer token must have at least ${MIN_TOKEN_CHARS} characters`);
  if (!token && !isLoopbackHost(host)) {
    throw new UsageError(
      `refusing to listen on ${host} without a bearer token: pass --token or set AVAP_API_TOKEN (or bind 127.0.0.1)`,
    );
  }
  const allowedHosts = hostRulesFor(host, values['allowed-host'], io.env);
  const timeouts = timeoutsFrom(values, io.env);
  const config = configFromFlags(values, io.env);
  let quality;
  try {
    quality = qualityConfigFromEnv(io.env);
    if (values.judge !== undefined) quality.judge.enabled = parseSwitch('--judge', values.judge);
    if (values['judge-threshold'] !== undefined)
      quality.judge.threshold = parseThreshold('--judge-threshold', values['judge-threshold']);
    if (values['judge-model'] !== undefined) quality.judge.model = values['judge-model'];
  } catch (err) {
    if (err instanceof QualityConfigError) throw new UsageError(err.message);
    throw err;
  }
  const signalsFile = values.signals ?? (io.env.AVAP_SIGNALS_FILE?.trim() || undefined);
  const sandbox = await sandboxFromFlags(values, io.env);
  const runLimits = limitsFromFlags({}, io.env);

  const logLine = (line: string) => {
    if (!values.quiet) io.stderr(`${line}\n`);
  };
  const logger = prefixedLogger(logLine);
  const created = await createAssistantStack(
    { core: config, quality, ...(signalsFile ? { signalsFile } : {}) },
    {
      logger,
      bundled: { onLog: () => undefined },
      caller: { source: 'rest', assistantVersion: PACKAGE_VERSION, log: (line) => logLine(`[rest] ${line}`) },
      signalWarn: (line) => logLine(`[rest] ${line}`),
    },
  );
  if (!created.ok) throw new UsageError(created.error.message);
  const stack = created.value;
  const { assistant, signals, telemetry } = stack;
  const started = createRunPool({ ...runLimits, log: logLine });
  let runtime: RunPool | undefined;
  if (started.ok) runtime = started.value;
  else io.stderr(`[rest] degraded: ${started.error.message}; POST /v1/execute answers 503\n`);

  if (stack.knowledgeProblem !== undefined)
    logLine(`[rest] knowledge base not loaded (${stack.knowledgeProblem}) — the judge sees only retrieved titles`);
  // Said at start whatever --quiet says: a store that cannot be written loses data.
  for (const [what, target, consequence] of [
    ['training-signal store', signals, 'answers are not recorded and /v1/feedback answers 503'],
    ['telemetry log', telemetry, 'attempt events are not recorded'],
  ] as const) {
    const health = await target?.health();
    if (health && !health.ok)
      io.stderr(
        `[rest] degraded: the ${what} is not writable — ${health.error.message}; ${consequence} until it is (GET /health)\n`,
      );
  }

  const app = createRestServer(
    {
      assistant,
      llm: stack.llm,
      ...(stack.quality ? { quality: stack.quality } : {}),
      passages: stack.passages,
      ...(signals ? { signals } : {}),
      ...(telemetry ? { telemetry } : {}),
      models: stack.models,
      log: logLine,
      ...(runtime ? { runtime: { pool: runtime, sandbox } } : {}),
    },
    {
      ...(token ? { token } : {}),
      bodyLimit,
      version: PACKAGE_VERSION,
      timeouts,
      ...(allowedHosts ? { allowedHosts } : {}),
    },
  );

  try {
    await app.listen({ host, port });
  } catch (err) {
    io.stderr(
      `avap serve: cannot listen on ${host}:${port}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`,
    );
    await stack.dispose();
    await runtime?.close();
    return EXIT.usage;
  }
  const address = app.server.address();
  const bound =
    address && typeof address === 'object' ? formatAddress(address.address, address.port) : `${host}:${port}`;
  io.stdout(`listening on ${bound}\n`);
  logLine(
    `[rest] parser ${assistant.parserEndpoint}; Ollama ${config.ollama.host} (${config.ollama.model}); judge ${stack.models.judge ? `on (${stack.models.judge}, ≥ ${quality.judge.threshold})` : 'off'}; signals ${signalsFile ?? 'off'}; token ${token ? 'required' : 'not required (loopback)'}; hosts ${allowedHosts ? allowedHosts.map(formatHostRule).join(', ') : 'any (token required)'}; timeouts headers ${timeouts.headersMs / 1000} s, request ${timeouts.requestMs / 1000} s, keep-alive ${timeouts.keepAliveMs / 1000} s`,
  );

  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  logLine('[rest] shutting down');
  await app.close();
  await stack.dispose();
  await runtime?.close();
  return EXIT.ok;
}

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'serve the assistant over HTTP (REST, NDJSON/SSE streaming, OpenAPI)',
  usage: USAGE,
  run,
};
