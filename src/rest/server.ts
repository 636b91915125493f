/**
 * The REST server (fastify 5) over the core's programmatic API:
 *
 *   GET  /health          {"status":"ok", parser: {endpoint, circuit}, llm, judge, retrieval}   (public)
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
 * `Authorization: Bearer <token>` (401). Nothing throws out of a handler:
 * failures are answered as JSON with a status.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
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
import { openApiDocument } from './openapi';
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

/** One source, as `validate --json` reports it: local guard, then the parser. */
export async function validateOne(
  parser: ParserPort, source: string, filename: string, signal?: AbortSignal,
): Promise<{ ok: true; json: ValidationJson } | { ok: false; status: number; body: ErrorBody }> {
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
  return {
    ok: false,
    status: outcome.reason === 'cancelled' ? 499 : 503,
    body: { error: 'parser-unavailable', message: `the AVAP parser could not validate the source (${outcome.reason}): ${outcome.detail}` },
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
  const app = Fastify({ bodyLimit: options.bodyLimit, logger: false, return503OnClosing: true, forceCloseConnections: true });
  // JSON only: fastify also parses text/plain by default.
  app.removeContentTypeParser('text/plain');
  const inflight = new Set<AbortController>();
  const log = deps.log ?? (() => undefined);

  app.addHook('onRequest', async (request, reply) => {
    if (!options.token || PUBLIC_ROUTES.has(routeOf(request.url))) return;
    if (bearerMatches(request.headers.authorization, options.token)) return;
    const sent = request.headers.authorization !== undefined;
    return reply.code(401).header('WWW-Authenticate', 'Bearer').send({
      error: 'unauthorized',
      message: sent ? 'the bearer token is not valid' : 'this server requires Authorization: Bearer <token>',
    });
  });

  app.addHook('preClose', async () => {
    for (const controller of inflight) controller.abort(new Error('server shutting down'));
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
    if (status >= 500) log(`[rest] ${request.method} ${request.url} failed: ${error.stack ?? error.message}`);
    void reply.code(status).send({ error: status >= 500 ? 'internal-error' : 'bad-request', message: error.message });
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
    return {
      status: 'ok',
      parser: { endpoint: deps.assistant.parserEndpoint, circuit },
      llm: { host: deps.models.host, model: deps.models.main },
      judge: { enabled: Boolean(deps.quality), threshold: deps.quality?.threshold ?? 0 },
      retrieval: deps.assistant.retrievalName,
    };
  });

  const openapi = openApiDocument(options.version, options.bodyLimit);
  app.get('/openapi.json', async () => openapi);

  // ---------------------------------------------------------------- models

  app.get('/v1/models', async (_request, reply) => {
    const { signal, done } = clientSignal(reply, inflight);
    try {
      const models = await deps.llm.models(signal);
      if (models.ok) return { models: models.value };
      return reply.code(502).send({ error: models.error.code, message: models.error.message });
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
      return result.ok ? result.json : reply.code(result.status).send(result.body);
    } finally {
      done();
    }
  });

  // ---------------------------------------------------------------- generate

  async function runOne(request: PipelineRequest, signal: AbortSignal, onMessage?: (m: ResponseMessage) => void): Promise<{ result: PipelineResult; quality?: QualityReport }> {
    return runRecorded({
      assistant: deps.assistant,
      llm: deps.llm,
      ...(deps.quality ? { quality: { validator: deps.quality.validator, model: deps.quality.model } } : {}),
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
    return {
      generation_id: run.result.generationId,
      query_type: run.result.queryType,
      ...(run.quality ? { quality: run.quality } : {}),
      ...firstAttemptFields(run.result),
      ...(run.result.fewShot?.status === 'degraded' ? { few_shot_injection: 'degraded' as const } : {}),
      ...(run.result.error ? { error: { error: run.result.error.code, message: run.result.error.message } } : {}),
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
      const { error } = run.result;
      if (error && !started) {
        fail(GENERATION_ERROR_STATUS[error.code] ?? 502, { error: error.code, message: error.message, generation_id: run.result.generationId, query_type: run.result.queryType });
      } else {
        const final = held ?? { text: '', avap_code: run.result.code, is_final: true, validation_status: run.result.validationStatus };
        write({ ...final, ...finalExtras(run) });
      }
      outcome = error ? error.code : `${run.result.queryType} status="${run.result.validationStatus}"`;
    } catch (err) {
      // runOne does not throw by contract; keep the answer well-formed if it ever does.
      const body = { error: 'internal-error', message: err instanceof Error ? err.message : String(err) };
      if (started) write({ text: '', avap_code: '', is_final: true, validation_status: '', error: body });
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
          results.push({ index, kind: 'validate', status: one.ok ? 200 : one.status, body: one.ok ? one.json : one.body });
          continue;
        }
        const run = await runOne({ query: item.query, ...(item.force_type ? { forceType: item.force_type } : {}), ...(item.filename ? { filename: item.filename } : {}) }, signal);
        const { result } = run;
        results.push({
          index,
          kind: 'generate',
          status: result.error ? GENERATION_ERROR_STATUS[result.error.code] ?? 502 : 200,
          body: {
            text: result.text,
            avap_code: result.code,
            validation_status: result.validationStatus,
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
    const known = await deps.signals.has(body.generation_id);
    if (!known.ok) return reply.code(500).send({ error: 'signal-store', message: known.error });
    if (!known.value) return reply.code(404).send({ error: 'unknown-generation', message: `no generation '${body.generation_id}' in the signal store` });
    const writes = [];
    if (body.thumbs) writes.push(await deps.signals.recordFeedback(body.generation_id, body.thumbs, 'rest', body.comment));
    if (body.outcome) writes.push(await deps.signals.recordOutcome(body.generation_id, body.outcome, 'rest', body.final_code));
    const failed = writes.find((w) => !w.ok);
    if (failed && !failed.ok) return reply.code(500).send({ error: 'signal-store', message: failed.error });
    return { recorded: true, generation_id: body.generation_id };
  });

  return app;
}
