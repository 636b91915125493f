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
 *   POST /v1/execute      {script, variables} → AVAP Lite's {success, result, variables, logs} (the sandboxed runtime)
 *
 * Bodies are checked with the same pre-validation as the tools (400 with
 * `{valid: false, error, suggestions}`), limited in size (413), JSON only
 * (415). With a token, every route but the public two needs
 * `Authorization: Bearer <token>` (401). With a Host allow-list (a loopback
 * server), any other `Host` is refused before anything else (421). Nothing
 * throws out of a handler: failures are answered as JSON with a status, and
 * an internal failure's paths and peer addresses stay in the log.
 *
 * This module makes the fastify instance and what holds for every route
 * (Host allow-list, bearer auth, error answers, the request log, aborting
 * in-flight runs on close); each route group is a fastify plugin of its own
 * in ./routes/, sharing one RestContext (./context.ts).
 */
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { bearerMatches, PUBLIC_ROUTES } from './auth';
import {
  createRestContext,
  DEFAULT_TIMEOUTS,
  invalidBody,
  ROUTE_CONTRACTS,
  routeOf,
  type RestDeps,
  type RestOptions,
  type RestTimeouts,
} from './context';
import { formatHostRule, hostAllowed } from './hostGuard';
import { batchRoutes } from './routes/batch';
import { executeRoutes } from './routes/execute';
import { feedbackRoutes } from './routes/feedback';
import { generateRoutes } from './routes/generate';
import { healthRoutes } from './routes/health';
import { modelsRoutes } from './routes/models';
import { validateRoutes } from './routes/validate';

export {
  DEFAULT_BODY_LIMIT,
  DEFAULT_TIMEOUTS,
  /** @internal */ GENERATION_ERROR_STATUS,
  type RestAssistant,
  type RestDeps,
  type RestOptions,
  type RestTimeouts,
} from './context';
/** How often Node looks for connections past their header/request deadline: often enough for short deadlines. */
function checkingIntervalMs(t: RestTimeouts): number {
  return Math.max(50, Math.min(1000, Math.floor(Math.min(t.headersMs, t.requestMs) / 4)));
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
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: checkingIntervalMs(timeouts),
    },
  });
  // JSON only: fastify also parses text/plain by default.
  app.removeContentTypeParser('text/plain');
  const ctx = createRestContext(deps, options);
  const { inflight, log } = ctx;

  if (options.allowedHosts) {
    const rules = options.allowedHosts;
    const names = rules.map(formatHostRule).join(', ');
    app.addHook('onRequest', async (request, reply) => {
      const host = request.headers.host;
      if (hostAllowed(host, rules)) return;
      log(
        `[rest] refused ${request.method} ${routeOf(request.url)} for Host ${JSON.stringify(host ?? null)} from ${request.ip}`,
      );
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
    return reply
      .code(401)
      .header('WWW-Authenticate', 'Bearer')
      .send({
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
      void reply
        .code(413)
        .send({ error: 'body-too-large', message: `the request body is larger than ${options.bodyLimit} bytes` });
      return;
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      void reply.code(415).send({
        error: 'unsupported-media-type',
        message: `send the body as application/json (got ${request.headers['content-type'] ?? 'no content type'})`,
      });
      return;
    }
    // AVAP Lite's clients read its error shape on the execute route.
    if (
      routeOf(request.url) === '/v1/execute' &&
      (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error.statusCode === 400 || error instanceof SyntaxError)
    ) {
      void reply.code(400).send({ success: false, error: `the body is not JSON (${error.message})` });
      return;
    }
    if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      void reply
        .code(400)
        .send(invalidBody(name, 'the JSON body is empty.', [`Send a body like ${route?.keys ?? '{…}'}.`]));
      return;
    }
    if (error.statusCode === 400 || error instanceof SyntaxError) {
      void reply
        .code(400)
        .send(
          invalidBody(name, `not JSON (${error.message}).`, [
            'Send one JSON object; check quotes, commas and escapes.',
          ]),
        );
      return;
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status < 500) {
      void reply.code(status).send({ error: 'bad-request', message: error.message });
      return;
    }
    log(`[rest] ${request.method} ${request.url} failed (request ${request.id}): ${error.stack ?? error.message}`);
    void reply.code(status).send({
      error: 'internal-error',
      message: `the server failed to answer (request ${request.id}); the details are in its log`,
    });
  });

  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send({
      error: 'not-found',
      message: `no route ${request.method} ${routeOf(request.url)}; the API is described at /openapi.json`,
    });
  });

  app.addHook('onResponse', async (request, reply) => {
    log(`[rest] ${request.method} ${routeOf(request.url)} ${reply.statusCode}`);
  });

  // ---------------------------------------------------------------- route groups

  void app.register(healthRoutes, { ctx });
  void app.register(modelsRoutes, { ctx });
  void app.register(validateRoutes, { ctx });
  void app.register(generateRoutes, { ctx });
  void app.register(batchRoutes, { ctx });
  void app.register(feedbackRoutes, { ctx });
  void app.register(executeRoutes, { ctx });

  return app;
}
