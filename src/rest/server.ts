/**
 * The REST server (fastify 5) over the core's programmatic API:
 *
 *   GET  /health          {"status":"ok"|"degraded", reasons, parser: {endpoint, circuit}, llm, judge, retrieval, storage}   (public)
 *   GET  /openapi.json    the OpenAPI 3.1 document                                           (public)
 *   GET  /v1/models       models pulled in Ollama
 *   POST /v1/validate     {source, filename} → exactly the JSON of `validate --json` for one file
 *   POST /v1/generate     {query, force_type?, stream?} → response messages as NDJSON or SSE
 *   POST /v1/batch        {requests: [{kind: "validate"|"generate", …}]} → {results: [...]}
 *   POST /v1/feedback     {generation_id, thumbs?, outcome?} → a training signal record
 *
 * Bodies are checked with the same pre-validation as the tools (400 with
 * `{valid: false, error, suggestions}`), limited in size (413), JSON only
 * (415). With a token, every route but the public two needs
 * `Authorization: Bearer <token>` (401). With a Host allow-list (a loopback
 * server), any other `Host` is refused before anything else (421). Nothing
 * throws out of a handler: failures are answered as JSON with a status, and
 * an internal failure's paths and peer addresses stay in the log.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AppendResult } from '../jsonl/appendLog';
import type { CircuitSnapshot, ParserOutcome, ParserPort, PipelineRequest, PipelineResult, ResponseMessage } from '../core/contracts';
import type { LlmPort } from '../core/llm/port';
import { firstAttemptFields } from '../core/pipeline/firstAttempt';
import { guardInput } from '../parser/guard';
import { DEFAULT_MAX_BYTES, type ValidationResult } from '../parser/types';
import { PARSER_VERSION } from '../parser/version';
import { validationToJson, type ValidationJson } from '../protocol/validationJson';
import type { QualityReport } from '../quality/assistantRun';
import type { ContextPassage, QualityValidator } from '../quality/port';
import { runRecorded } from '../signals/recordedRun';
import type { SignalStore } from '../signals/store';
import { defineContract, preValidate, type Contract, type PreValidation } from '../tools/contract';
import { bearerMatches, PUBLIC_ROUTES } from './auth';
import { formatHostRule, hostAllowed, type HostRule } from './hostGuard';
import { openApiDocument } from './openapi';
import { redactInternals } from './redact';
import {
  BATCH_ITEM_CONTRACTS, BatchBodyOuterContract, FeedbackBodyContract, GenerateBodyContract, ValidateBodyContract,
  type BatchGenerateItem, type BatchValidateItem, type GenerateBody,
} from './schemas';

export interface RestAssistant {
  run(request: PipelineRequest, options?: { signal?: AbortSignal; onMessage?: (message: ResponseMessage) => void }): Promise<PipelineResult>;
  readonly parser: ParserPort;
  readonly parserEndpoint: string;
  readonly retrievalName: string;
}

export interface RestQuality {
  validator: QualityValidator;
  /** Model that writes the hinted retry. */
  model: string;
  threshold: number;
}

export interface RestDeps {
  assistant: RestAssistant;
  llm: LlmPort;
  /** Set when the judge is on. */
  quality?: RestQuality;
  /** Resolves the texts of retrieved sources (for the judge and for signals). */
  passages: (sources: readonly { id: string; title: string }[]) => ContextPassage[];
  /** Set when training signals are recorded. */
  signals?: SignalStore;
  /** Set when a telemetry log is written: whether it can be written now (for /health). */
  telemetry?: { health(): Promise<AppendResult> };
  /** Model names reported in /health and signals. */
  models: { main: string; host: string; judge?: string };
  /** Receives one line per request and problems (stderr in `serve`). */
  log?: (line: string) => void;
}

export interface RestOptions {
  /** When set, required on every non-public route. */
  token?: string;
  /** Maximum request body in bytes. */
  bodyLimit: number;
  version: string;
  /** When set, only requests whose `Host` matches one of these are answered (421 otherwise). */
  allowedHosts?: readonly HostRule[];
  /** Slow clients: milliseconds to receive the headers, the whole request, and idle keep-alive time. */
  timeouts?: RestTimeouts;
}

export interface RestTimeouts {
  headersMs: number;
  requestMs: number;
  keepAliveMs: number;
}

export const DEFAULT_TIMEOUTS: RestTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 };

/** How often Node looks for connections past their header/request deadline: often enough for short deadlines. */
function checkingIntervalMs(t: RestTimeouts): number {
  return Math.max(50, Math.min(1000, Math.floor(Math.min(t.headersMs, t.requestMs) / 4)));
}

export const DEFAULT_BODY_LIMIT = 4 * 1024 * 1024;

type ErrorBody = { error: string; message: string };

/** HTTP status of a generation that produced nothing, by error code. */
export const GENERATION_ERROR_STATUS: Record<string, number> = {
  'llm-unreachable': 502,
  'model-missing': 502,
  'llm-failed': 502,
  'llm-timeout': 504,
  cancelled: 499,
};

function invalidBody(contract: string, error: string, suggestions: string[]) {
  return { valid: false as const, error: `Invalid ${contract}: ${error}`, suggestions };
}

const ROUTE_CONTRACTS: Record<string, { name: string; keys: string }> = {
  '/v1/validate': { name: 'POST /v1/validate body', keys: '{"source": "...", "filename": "main.avap"}' },
  '/v1/generate': { name: 'POST /v1/generate body', keys: '{"query": "..."}' },
  '/v1/batch': { name: 'POST /v1/batch body', keys: '{"requests": [{"kind": "validate", "source": "...", "filename": "a.avap"}]}' },
  '/v1/feedback': { name: 'POST /v1/feedback body', keys: '{"generation_id": "...", "thumbs": "up"}' },
};

function routeOf(url: string): string {
  return url.split('?')[0] ?? url;
}

/** Pre-validates a body, answering 400 when it is invalid. */
function checkBody<T>(contract: Contract<T>, request: FastifyRequest, reply: FastifyReply): T | undefined {
  if (request.body === undefined || request.body === null) {
    const route = ROUTE_CONTRACTS[routeOf(request.url)];
    void reply.code(400).send(invalidBody(contract.name, 'the request has no JSON body.', [`Send Content-Type: application/json with a body like ${route?.keys ?? '{…}'}.`]));
    return undefined;
  }
  const checked: PreValidation<T> = preValidate(contract, request.body);
  if (!checked.valid) {
    void reply.code(400).send({ valid: false, error: checked.error, suggestions: checked.suggestions });
    return undefined;
  }
  return checked.value;
}

/** One source, as `validate --json` reports it: local guard, then the parser. A failure's `detail` is for the log only. */
export async function validateOne(
  parser: ParserPort, source: string, filename: string, signal?: AbortSignal,
): Promise<{ ok: true; json: ValidationJson } | { ok: false; status: number; body: ErrorBody; detail: string }> {
  const guarded = guardInput(source, DEFAULT_MAX_BYTES);
  if (!guarded.ok) {
    const refused: ValidationResult = { valid: false, trace: [guarded.entry], truncated: false, parserVersion: PARSER_VERSION };
    return { ok: true, json: validationToJson(filename, refused) };
  }
  let outcome: ParserOutcome;
  try {
    outcome = await parser.validate(guarded.text, filename, signal);
  } catch (err) {
    outcome = { kind: 'unavailable', reason: 'transport', detail: err instanceof Error ? err.message : String(err) };
  }
  if (outcome.kind === 'validated') return { ok: true, json: validationToJson(filename, outcome.result) };
  const message = `the AVAP parser could not validate the source (${outcome.reason}): ${outcome.detail}`;
  return {
    ok: false,
    status: outcome.reason === 'cancelled' ? 499 : 503,
    body: { error: 'parser-unavailable', message: redactInternals(message) },
    detail: message,
  };
}

/** A request's lifetime as an AbortSignal: aborted when the client goes away before the answer is complete. */
function clientSignal(reply: FastifyReply, inflight: Set<AbortController>): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  inflight.add(controller);
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('client disconnected'));
  };
  reply.raw.once('close', onClose);
  return {
    signal: controller.signal,
    done: () => {
      inflight.delete(controller);
      reply.raw.removeListener('close', onClose);
    },
  };
}

function wantsSse(body: GenerateBody, accept: string | undefined): boolean {
  if (body.stream) return body.stream === 'sse';
  return /text\/event-stream/i.test(accept ?? '');
}

export function createRestServer(deps: RestDeps, options: RestOptions): FastifyInstance {
  // On close, in-flight runs are aborted first (preClose), then every
  // connection is closed: a half-closed streaming client must not keep the
  // process alive.
  // Slow clients cannot hold a connection: the headers, then the whole request,
  // must arrive within their deadlines (408 and close), and an idle kept-alive
  // connection is closed. A streamed answer is not cut: the deadlines end when
  // the request has been received.
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const app = Fastify({
    bodyLimit: options.bodyLimit,
    logger: false,
    return503OnClosing: true,
    forceCloseConnections: true,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: { headersTimeout: timeouts.headersMs, requestTimeout: timeouts.requestMs, connectionsCheckingInterval: checkingIntervalMs(timeouts) },
  });
  // JSON only: fastify also parses text/plain by default.
  app.removeContentTypeParser('text/plain');
  const inflight = new Set<AbortController>();
  const log = deps.log ?? (() => undefined);
  /** Generations whose training signal could not be written (feedback on them cannot be stored either). */
  const unrecorded = new Set<string>();
  const noteUnrecorded = (run: { result: PipelineResult; signalId?: string }) => {
    if (!deps.signals || run.result.error || run.signalId) return;
    unrecorded.add(run.result.generationId);
    if (unrecorded.size > 10_000) unrecorded.delete(unrecorded.values().next().value as string);
  };
  /** An internal failure: the client gets the redacted text, the log the whole of it. */
  const internal = (where: string, error: string, message: string): ErrorBody => {
    const redacted = redactInternals(message);
    if (redacted !== message) log(`[rest] ${where}: ${error}: ${message}`);
    return { error, message: redacted };
  };

  if (options.allowedHosts) {
    const rules = options.allowedHosts;
    const names = rules.map(formatHostRule).join(', ');
    app.addHook('onRequest', async (request, reply) => {
      const host = request.headers.host;
      if (hostAllowed(host, rules)) return;
      log(`[rest] refused ${request.method} ${routeOf(request.url)} for Host ${JSON.stringify(host ?? null)} from ${request.ip}`);
      return reply.code(421).send({
        error: 'misdirected-request',
        message: `this server does not answer for the host ${host === undefined ? '(none)' : `'${host}'`}; it answers for ${names} (start it with --allowed-host NAME to add one)`,
      });
    });
  }

  app.addHook('onRequest', async (request, reply) => {
    if (!options.token || PUBLIC_ROUTES.has(routeOf(request.url))) return;
    if (bearerMatches(request.headers.authorization, options.token)) return;
    const sent = request.headers.authorization !== undefined;
    return reply.code(401).header('WWW-Authenticate', 'Bearer').send({
      error: 'unauthorized',
      message: sent ? 'the bearer token is not valid' : 'this server requires Authorization: Bearer <token>',
    });
  });

  app.addHook('preClose', (done) => {
    for (const controller of inflight) controller.abort(new Error('server shutting down'));
    done();
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const route = ROUTE_CONTRACTS[routeOf(request.url)];
    const name = route?.name ?? `${request.method} ${routeOf(request.url)} body`;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      void reply.code(413).send({ error: 'body-too-large', message: `the request body is larger than ${options.bodyLimit} bytes` });
      return;
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      void reply.code(415).send({ error: 'unsupported-media-type', message: `send the body as application/json (got ${request.headers['content-type'] ?? 'no content type'})` });
      return;
    }
    if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      void reply.code(400).send(invalidBody(name, 'the JSON body is empty.', [`Send a body like ${route?.keys ?? '{…}'}.`]));
      return;
    }
    if (error.statusCode === 400 || error instanceof SyntaxError) {
      void reply.code(400).send(invalidBody(name, `not JSON (${error.message}).`, ['Send one JSON object; check quotes, commas and escapes.']));
      return;
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status < 500) {
      void reply.code(status).send({ error: 'bad-request', message: error.message });
      return;
    }
    log(`[rest] ${request.method} ${request.url} failed (request ${request.id}): ${error.stack ?? error.message}`);
    void reply.code(status).send({ error: 'internal-error', message: `the server failed to answer (request ${request.id}); the details are in its log` });
  });

  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send({ error: 'not-found', message: `no route ${request.method} ${routeOf(request.url)}; the API is described at /openapi.json` });
  });

  app.addHook('onResponse', async (request, reply) => {
    log(`[rest] ${request.method} ${routeOf(request.url)} ${reply.statusCode}`);
  });

  // ---------------------------------------------------------------- public

  app.get('/health', async () => {
    const circuit: CircuitSnapshot = deps.assistant.parser.circuit();
    const storage = await storageHealth(deps);
    const reasons = storageReasons(storage);
    return {
      status: reasons.length ? 'degraded' : 'ok',
      reasons,
      parser: { endpoint: deps.assistant.parserEndpoint, circuit },
      llm: { host: deps.models.host, model: deps.models.main },
      judge: { enabled: Boolean(deps.quality), threshold: deps.quality?.threshold ?? 0 },
      retrieval: deps.assistant.retrievalName,
      storage,
    };
  });

  const openapi = openApiDocument(options.version, options.bodyLimit);
  app.get('/openapi.json', () => openapi);

  // ---------------------------------------------------------------- models

  app.get('/v1/models', async (_request, reply) => {
    const { signal, done } = clientSignal(reply, inflight);
    try {
      const models = await deps.llm.models(signal);
      if (models.ok) return { models: models.value };
      return reply.code(502).send(internal('GET /v1/models', models.error.code, models.error.message));
    } finally {
      done();
    }
  });

  // ---------------------------------------------------------------- validate

  app.post('/v1/validate', async (request, reply) => {
    const body = checkBody(ValidateBodyContract, request, reply);
    if (!body) return reply;
    const { signal, done } = clientSignal(reply, inflight);
    try {
      const result = await validateOne(deps.assistant.parser, body.source, body.filename, signal);
      if (result.ok) return result.json;
      log(`[rest] POST /v1/validate ${result.status}: ${result.detail}`);
      return reply.code(result.status).send(result.body);
    } finally {
      done();
    }
  });

  // ---------------------------------------------------------------- generate

  async function runOne(request: PipelineRequest, signal: AbortSignal, onMessage?: (m: ResponseMessage) => void): Promise<{ result: PipelineResult; quality?: QualityReport }> {
    return runRecorded({
      assistant: deps.assistant,
      ...(deps.quality ? { quality: { validator: deps.quality.validator } } : {}),
      passages: deps.passages,
      ...(deps.signals ? { signals: deps.signals } : {}),
      signal: {
        source: 'rest',
        model: deps.models.main,
        ...(deps.models.judge ? { judgeModel: deps.models.judge } : {}),
        parserVersion: PARSER_VERSION,
        assistantVersion: options.version,
      },
      log: (line) => log(`[rest] ${line}`),
    }, request, { signal, ...(onMessage ? { onMessage } : {}) });
  }

  function finalExtras(run: { result: PipelineResult; quality?: QualityReport }) {
    const { error } = run.result;
    return {
      generation_id: run.result.generationId,
      query_type: run.result.queryType,
      ...(run.quality ? { quality: run.quality } : {}),
      ...firstAttemptFields(run.result),
      ...(run.result.fewShot?.status === 'degraded' ? { few_shot_injection: 'degraded' as const } : {}),
      ...(run.result.retrieval ? { retrieval: run.result.retrieval } : {}),
      ...(run.result.retry ? { retry: run.result.retry } : {}),
      ...(error ? { error: internal(`generation ${run.result.generationId}`, error.code, error.message) } : {}),
    };
  }

  app.post('/v1/generate', async (request, reply) => {
    const body = checkBody(GenerateBodyContract, request, reply);
    if (!body) return reply;
    const sse = wantsSse(body, request.headers.accept);
    const { signal, done } = clientSignal(reply, inflight);
    reply.hijack();
    const raw = reply.raw;
    // Headers go out with the first message, so a run that fails before
    // producing anything gets a real HTTP error status instead of a 200 stream.
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      raw.writeHead(200, {
        'Content-Type': sse ? 'text/event-stream; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
        'Cache-Control': 'no-cache',
        'X-Accel-Buffering': 'no',
        ...(sse ? { Connection: 'keep-alive' } : {}),
      });
    };
    let sequence = 0;
    const write = (message: Record<string, unknown>) => {
      if (raw.destroyed || raw.writableEnded) return;
      start();
      sequence += 1;
      raw.write(sse ? `id: ${sequence}\nevent: message\ndata: ${JSON.stringify(message)}\n\n` : `${JSON.stringify(message)}\n`);
    };
    const fail = (status: number, body: Record<string, unknown>) => {
      if (raw.destroyed || raw.writableEnded) return;
      raw.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
      raw.end(JSON.stringify(body));
    };
    let held: ResponseMessage | undefined;
    let outcome = 'ok';
    try {
      const run = await runOne(
        { query: body.query, ...(body.force_type ? { forceType: body.force_type } : {}), ...(body.filename ? { filename: body.filename } : {}) },
        signal,
        (message) => {
          if (message.is_final) held = message;
          else write({ ...message });
        },
      );
      noteUnrecorded(run);
      const { error } = run.result;
      if (error && !started) {
        fail(GENERATION_ERROR_STATUS[error.code] ?? 502, {
          ...internal(`generation ${run.result.generationId}`, error.code, error.message), generation_id: run.result.generationId, query_type: run.result.queryType,
        });
      } else {
        const final: ResponseMessage = held ?? {
          text: '', avap_code: run.result.code, is_final: true,
          ...(run.result.validationStatus !== undefined ? { validation_status: run.result.validationStatus } : {}),
        };
        write({ ...final, ...finalExtras(run) });
      }
      outcome = error ? error.code : `${run.result.queryType} status="${run.result.validationStatus}"`;
    } catch (err) {
      // runOne does not throw by contract; keep the answer well-formed if it ever does.
      const body = { error: 'internal-error', message: `the server failed to answer (request ${request.id}); the details are in its log` };
      if (started) write({ text: '', avap_code: '', is_final: true, error: body });
      else fail(500, body);
      outcome = `failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`;
    } finally {
      done();
      if (!raw.writableEnded) raw.end();
      log(`[rest] POST /v1/generate ${raw.statusCode} ${outcome}`);
    }
  });

  // ---------------------------------------------------------------- batch

  app.post('/v1/batch', async (request, reply) => {
    const outer = checkBody(BatchBodyOuterContract, request, reply);
    if (!outer) return reply;
    const items: (BatchValidateItem | BatchGenerateItem)[] = [];
    for (const [index, raw] of outer.requests.entries()) {
      const base = BATCH_ITEM_CONTRACTS[raw.kind];
      const contract = defineContract(`POST /v1/batch body, requests[${index}]`, base.schema as never, base.semantic as never);
      const checked = preValidate(contract as Contract<BatchValidateItem | BatchGenerateItem>, raw);
      if (!checked.valid) return reply.code(400).send({ valid: false, error: checked.error, suggestions: checked.suggestions });
      items.push(checked.value);
    }
    const { signal, done } = clientSignal(reply, inflight);
    try {
      const results: { index: number; kind: string; status: number; body: unknown }[] = [];
      for (const [index, item] of items.entries()) {
        if (signal.aborted) break;
        if (item.kind === 'validate') {
          const one = await validateOne(deps.assistant.parser, item.source, item.filename, signal);
          if (!one.ok) log(`[rest] POST /v1/batch requests[${index}] ${one.status}: ${one.detail}`);
          results.push({ index, kind: 'validate', status: one.ok ? 200 : one.status, body: one.ok ? one.json : one.body });
          continue;
        }
        const run = await runOne({ query: item.query, ...(item.force_type ? { forceType: item.force_type } : {}), ...(item.filename ? { filename: item.filename } : {}) }, signal);
        noteUnrecorded(run);
        const { result } = run;
        results.push({
          index,
          kind: 'generate',
          status: result.error ? GENERATION_ERROR_STATUS[result.error.code] ?? 502 : 200,
          body: {
            text: result.text,
            avap_code: result.code,
            ...(result.validationStatus !== undefined ? { validation_status: result.validationStatus } : {}),
            attempts: result.attempts.length,
            sources: result.sources,
            ...finalExtras(run),
          },
        });
      }
      return { results };
    } finally {
      done();
    }
  });

  // ---------------------------------------------------------------- feedback

  app.post('/v1/feedback', async (request, reply) => {
    const body = checkBody(FeedbackBodyContract, request, reply);
    if (!body) return reply;
    if (!deps.signals) {
      return reply.code(409).send({ error: 'no-signal-store', message: 'this server records no training signals; start it with --signals FILE or AVAP_SIGNALS_FILE' });
    }
    // Nothing is lost silently: a store that cannot take the feedback says so
    // (503, with the reason; the log has the file), never "unknown generation".
    const refuse = (status: number, error: string, why: string, logged: string, code?: string) => {
      log(`[rest] POST /v1/feedback ${status} ${error} for ${body.generation_id}: ${logged}`);
      return reply.code(status).send({
        error,
        message: `${why}; GET /health shows the store's state`,
        generation_id: body.generation_id,
        ...(code ? { code } : {}),
      });
    };
    const codeOf = (code: string | undefined) => (code ? ` (${code})` : '');
    const unwritable = (code: string | undefined) => `the feedback was not recorded: the training-signal store cannot be written${codeOf(code)}`;
    const known = await deps.signals.has(body.generation_id);
    if (!known.ok) return refuse(503, 'signal-store-unreadable', `the feedback was not recorded: the training-signal store cannot be read${codeOf(known.code)}`, known.error, known.code);
    if (!known.value) {
      const health = await deps.signals.health();
      if (!health.ok) return refuse(503, 'signal-store-unwritable', unwritable(health.code), health.error, health.code);
      if (unrecorded.has(body.generation_id)) {
        return refuse(409, 'signal-not-recorded', `the feedback was not recorded: the answer of generation '${body.generation_id}' could not be written to the training-signal store when it was generated`, 'its signal was lost');
      }
      return reply.code(404).send({ error: 'unknown-generation', message: `no generation '${body.generation_id}' in the signal store` });
    }
    const writes = [];
    if (body.thumbs) writes.push(await deps.signals.recordFeedback(body.generation_id, body.thumbs, 'rest', body.comment));
    if (body.outcome) writes.push(await deps.signals.recordOutcome(body.generation_id, body.outcome, 'rest', body.final_code));
    const failed = writes.find((w) => !w.ok);
    if (failed && !failed.ok) {
      const why = writes.some((w) => w.ok)
        ? `the feedback was only partly recorded (the thumbs, not the outcome): the training-signal store cannot be written${codeOf(failed.code)}`
        : unwritable(failed.code);
      return refuse(503, 'signal-store-unwritable', why, failed.error, failed.code);
    }
    return { recorded: true, generation_id: body.generation_id };
  });

  return app;
}

export interface StorageState {
  enabled: boolean;
  writable?: boolean;
  /** The system error code when it cannot be written (`EACCES`, `ENOSPC`…). */
  code?: string;
}

/** Whether the signal store and the telemetry log can be written now. Never rejects. */
export async function storageHealth(deps: Pick<RestDeps, 'signals' | 'telemetry'>): Promise<{ signals: StorageState; telemetry: StorageState }> {
  const state = async (target: { health(): Promise<AppendResult> } | undefined): Promise<StorageState> => {
    if (!target) return { enabled: false };
    const health = await target.health().catch((err: unknown): AppendResult => ({ ok: false, code: 'EIO', error: String(err) }));
    return health.ok ? { enabled: true, writable: true } : { enabled: true, writable: false, code: health.code };
  };
  const [signals, telemetry] = await Promise.all([state(deps.signals), state(deps.telemetry)]);
  return { signals, telemetry };
}

/** One sentence per store that cannot be written (no paths: /health is public). */
export function storageReasons(storage: { signals: StorageState; telemetry: StorageState }): string[] {
  const reasons: string[] = [];
  if (storage.signals.writable === false) {
    reasons.push(`the training-signal store cannot be written (${storage.signals.code}): answers are not recorded and /v1/feedback answers 503`);
  }
  if (storage.telemetry.writable === false) {
    reasons.push(`the telemetry log cannot be written (${storage.telemetry.code}): attempt events are not recorded`);
  }
  return reasons;
}
