/**
 * `serve [--host H] [--port P] [--token T] [options]` — the REST server over
 * the core's programmatic API. The first stdout line is `listening on HOST:PORT`
 * (`--port 0` picks a free port). Runs until SIGINT/SIGTERM, then drains.
 */
import { parseArgs } from 'node:util';
import { createAssistant, prefixedLogger } from '../../core';
import { createOllamaLlm } from '../../core/llm/ollamaLlm';
import { loadKnowledgeBase } from '../../knowledge';
import { createLlmJudge } from '../../quality/judge';
import { parseSwitch, parseThreshold, QualityConfigError, qualityConfigFromEnv } from '../../quality/config';
import type { ContextPassage } from '../../quality/port';
import { isLoopbackHost, MIN_TOKEN_CHARS } from '../../rest/auth';
import { createRestServer, DEFAULT_BODY_LIMIT, type RestQuality } from '../../rest/server';
import { SignalStore } from '../../signals/store';
import { version as PACKAGE_VERSION } from '../../../package.json';
import { EXIT, UsageError, type CliCommand, type CliIO } from '../command';
import { configFromFlags, PIPELINE_OPTIONS, PIPELINE_OPTIONS_USAGE } from './generate';

const USAGE = `Usage: node dist/cli.js serve [--host HOST] [--port PORT] [--token TOKEN] [options]
  Serves the assistant over HTTP: POST /v1/generate (NDJSON or SSE), POST /v1/validate,
  POST /v1/batch, POST /v1/feedback, GET /v1/models, GET /health, GET /openapi.json.
  The first line on standard output is "listening on HOST:PORT".
  --host HOST            address to bind (default 127.0.0.1)
  --port PORT            port (default 8000; 0 picks a free port)
  --token TOKEN          bearer token required on every /v1 route (default $AVAP_API_TOKEN);
                         mandatory when HOST is not a loopback address; at least ${MIN_TOKEN_CHARS} characters
  --max-body-bytes N     largest request body accepted (default ${DEFAULT_BODY_LIMIT})
  --judge on|off         score RETRIEVAL answers with the LLM judge, one hinted retry (default $AVAP_JUDGE, else off)
  --judge-threshold X    pass mark of the judge's composite, 0–1 (default $AVAP_JUDGE_THRESHOLD, else 0.6)
  --judge-model NAME     judge model (default $AVAP_JUDGE_MODEL, else the main model)
  --signals FILE         record training signals (JSONL) and accept /v1/feedback (default $AVAP_SIGNALS_FILE)
${PIPELINE_OPTIONS_USAGE.split('\n').filter((l) => !l.includes('--json') && !l.startsWith('Exit codes') && !l.trim().startsWith('2 usage')).join('\n')}
Exit codes: 0 stopped by a signal, 2 usage error or the address could not be bound.`;

const { json: _json, ...SERVE_PIPELINE_OPTIONS } = PIPELINE_OPTIONS;

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(value) || value < min || value > max) throw new UsageError(`${name} must be an integer from ${min} to ${max}, got '${raw}'`);
  return value;
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
      judge: { type: 'string' },
      'judge-threshold': { type: 'string' },
      'judge-model': { type: 'string' },
      signals: { type: 'string' },
    },
    allowPositionals: false,
    strict: true,
  });
  void positionals;
  const host = values.host ?? '127.0.0.1';
  const port = integer('--port', values.port, 8000, 0, 65535);
  const bodyLimit = integer('--max-body-bytes', values['max-body-bytes'], DEFAULT_BODY_LIMIT, 1024, 1024 * 1024 * 1024);
  const token = values.token ?? (io.env.AVAP_API_TOKEN?.trim() || undefined);
  if (token !== undefined && token.length < MIN_TOKEN_CHARS) throw new UsageError(`the bearer token must have at least ${MIN_TOKEN_CHARS} characters`);
  if (!token && !isLoopbackHost(host)) {
    throw new UsageError(`refusing to listen on ${host} without a bearer token: pass --token or set AVAP_API_TOKEN (or bind 127.0.0.1)`);
  }
  const config = configFromFlags(values, io.env);
  let quality;
  try {
    quality = qualityConfigFromEnv(io.env);
    if (values.judge !== undefined) quality.judge.enabled = parseSwitch('--judge', values.judge);
    if (values['judge-threshold'] !== undefined) quality.judge.threshold = parseThreshold('--judge-threshold', values['judge-threshold']);
    if (values['judge-model'] !== undefined) quality.judge.model = values['judge-model'];
  } catch (err) {
    if (err instanceof QualityConfigError) throw new UsageError(err.message);
    throw err;
  }
  const signalsFile = values.signals ?? (io.env.AVAP_SIGNALS_FILE?.trim() || undefined);

  const logLine = (line: string) => { if (!values.quiet) io.stderr(`${line}\n`); };
  const logger = prefixedLogger(logLine);
  const created = await createAssistant(config, { logger, bundled: { onLog: () => undefined } });
  if (!created.ok) throw new UsageError(created.error);
  const { assistant } = created;

  const llm = createOllamaLlm(config.ollama);
  const kb = loadKnowledgeBase();
  if (!kb.ok) logLine(`[rest] knowledge base not loaded (${kb.error.message}) — the judge sees only retrieved titles`);
  const passages = (sources: readonly { id: string; title: string }[]): ContextPassage[] => sources.map((s) => {
    const chunk = kb.ok ? kb.value.chunk(s.id) : undefined;
    return { id: s.id, title: chunk?.title ?? s.title, text: chunk?.text ?? '' };
  });
  const judgeModel = quality.judge.model ?? config.ollama.model;
  const restQuality: RestQuality | undefined = quality.judge.enabled
    ? { validator: createLlmJudge({ llm, model: judgeModel, threshold: quality.judge.threshold }), model: config.ollama.model, threshold: quality.judge.threshold }
    : undefined;

  const app = createRestServer({
    assistant,
    llm,
    ...(restQuality ? { quality: restQuality } : {}),
    passages,
    ...(signalsFile ? { signals: new SignalStore(signalsFile) } : {}),
    models: { main: config.ollama.model, host: config.ollama.host, ...(restQuality ? { judge: judgeModel } : {}) },
    log: logLine,
  }, { ...(token ? { token } : {}), bodyLimit, version: PACKAGE_VERSION });

  try {
    await app.listen({ host, port });
  } catch (err) {
    io.stderr(`avap serve: cannot listen on ${host}:${port}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
    await assistant.dispose();
    return EXIT.usage;
  }
  const address = app.server.address();
  const bound = address && typeof address === 'object' ? formatAddress(address.address, address.port) : `${host}:${port}`;
  io.stdout(`listening on ${bound}\n`);
  logLine(`[rest] parser ${assistant.parserEndpoint}; Ollama ${config.ollama.host} (${config.ollama.model}); judge ${restQuality ? `on (${judgeModel}, ≥ ${quality.judge.threshold})` : 'off'}; signals ${signalsFile ?? 'off'}; token ${token ? 'required' : 'not required (loopback)'}`);

  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  logLine('[rest] shutting down');
  await app.close();
  await assistant.dispose();
  return EXIT.ok;
}

export const serveCommand: CliCommand = { name: 'serve', summary: 'serve the assistant over HTTP (REST, NDJSON/SSE streaming, OpenAPI)', usage: USAGE, run };
