/**
 * What the REST route plugins share: the server's dependencies
 * and options, its log, the in-flight runs (aborted on close), generations
 * whose signal was lost, and the helpers every route group uses — body
 * pre-validation, a request's lifetime as an AbortSignal, one validation as
 * `validate --json` reports it, one recorded generation and its final fields.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  firstAttemptFields,
  type ParserOutcome,
  type ParserPort,
  type PipelineRequest,
  type PipelineResult,
  type ResponseMessage,
  type LlmPort,
} from '../core';
import { preValidate, type InputContract, type PreValidation } from '../inputContract';
import type { AppendResult } from '../jsonl';
import { guardInput, DEFAULT_MAX_BYTES, type ValidationResult, PARSER_VERSION } from '../parser';
import { validationToJson, type ValidationJson } from '../protocol';
import type { QualityReport } from '../quality';
import { err, ok, type Result } from '../result';
import { runThroughStack, type StackParts } from '../stack';
import type { RunPool, SandboxSpec } from '../runtime/host';
import type { HostRule } from './hostGuard';
import { redactInternals } from './redact';

export interface RestAssistant {
  run(
    request: PipelineRequest,
    options?: { signal?: AbortSignal; onMessage?: (message: ResponseMessage) => void },
  ): Promise<PipelineResult>;
  readonly parser: ParserPort;
  readonly parserEndpoint: string;
  readonly retrievalName: string;
}

/**
 * What the server serves: the assistant stack's parts (src/stack — the assistant, the judge when it is on, the
 * signal store, the passages, the model names reported in /health and on signals), the Ollama client for
 * /v1/models, and the rest of the server's own.
 */
export interface RestDeps extends StackParts {
  assistant: RestAssistant;
  llm: LlmPort;
  /** Set when a telemetry log is written: whether it can be written now (for /health). */
  telemetry?: { health(): Promise<AppendResult> };
  /** Receives one line per request and problems (stderr in `serve`). */
  log?: (line: string) => void;
  /** The sandboxed AVAP runtime behind POST /v1/execute (503 without it), and the sandbox its runs get. */
  runtime?: { pool: RunPool; sandbox: SandboxSpec };
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

export function invalidBody(contract: string, error: string, suggestions: string[]) {
  return { valid: false as const, error: `Invalid ${contract}: ${error}`, suggestions };
}

export const ROUTE_CONTRACTS: Record<string, { name: string; keys: string }> = {
  '/v1/validate': { name: 'POST /v1/validate body', keys: '{"source": "...", "filename": "main.avap"}' },
  '/v1/generate': { name: 'POST /v1/generate body', keys: '{"query": "..."}' },
  '/v1/batch': {
    name: 'POST /v1/batch body',
    keys: '{"requests": [{"kind": "validate", "source": "...", "filename": "a.avap"}]}',
  },
  '/v1/feedback': { name: 'POST /v1/feedback body', keys: '{"generation_id": "...", "thumbs": "up"}' },
  '/v1/execute': { name: 'POST /v1/execute body', keys: '{"script": "...", "variables": {}}' },
};

export function routeOf(url: string): string {
  return url.split('?')[0] ?? url;
}

/** Pre-validates a body, answering 400 when it is invalid. */
export function checkBody<T>(contract: InputContract<T>, request: FastifyRequest, reply: FastifyReply): T | undefined {
  if (request.body === undefined || request.body === null) {
    const route = ROUTE_CONTRACTS[routeOf(request.url)];
    void reply
      .code(400)
      .send(
        invalidBody(contract.name, 'the request has no JSON body.', [
          `Send Content-Type: application/json with a body like ${route?.keys ?? '{…}'}.`,
        ]),
      );
    return undefined;
  }
  const checked: PreValidation<T> = preValidate(contract, request.body);
  if (!checked.valid) {
    void reply.code(400).send({ valid: false, error: checked.error, suggestions: checked.suggestions });
    return undefined;
  }
  return checked.value;
}

/** A refusal as the route answers it: the HTTP status, the body (no paths), and the `detail` for the log only. */
export interface HttpRefusal {
  status: number;
  body: ErrorBody;
  detail: string;
}

/** One source, as `validate --json` reports it: local guard, then the parser. */
export async function validateOne(
  parser: ParserPort,
  source: string,
  filename: string,
  signal?: AbortSignal,
): Promise<Result<ValidationJson, HttpRefusal>> {
  const guarded = guardInput(source, DEFAULT_MAX_BYTES);
  if (!guarded.ok) {
    const refused: ValidationResult = {
      valid: false,
      trace: [guarded.error],
      truncated: false,
      parserVersion: PARSER_VERSION,
    };
    return ok(validationToJson(filename, refused));
  }
  let outcome: ParserOutcome;
  try {
    outcome = await parser.validate(guarded.value, filename, signal);
  } catch (err) {
    outcome = { kind: 'unavailable', reason: 'transport', detail: err instanceof Error ? err.message : String(err) };
  }
  if (outcome.kind === 'validated') return ok(validationToJson(filename, outcome.result));
  const message = `the AVAP parser could not validate the source (${outcome.reason}): ${outcome.detail}`;
  return err({
    status: outcome.reason === 'cancelled' ? 499 : 503,
    body: { error: 'parser-unavailable', message: redactInternals(message) },
    detail: message,
  });
}

/** A request's lifetime as an AbortSignal: aborted when the client goes away before the answer is complete. */
export function clientSignal(
  reply: FastifyReply,
  inflight: Set<AbortController>,
): { signal: AbortSignal; done: () => void } {
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

/** What the route plugins share; made once per server by createRestServer. */
export interface RestContext {
  readonly deps: RestDeps;
  readonly options: RestOptions;
  log: (line: string) => void;
  /** Runs in flight, aborted when the server closes. */
  readonly inflight: Set<AbortController>;
  /** Generations whose training signal could not be written (feedback on them cannot be stored either). */
  readonly unrecorded: Set<string>;
  noteUnrecorded: (run: { result: PipelineResult; signalId?: string }) => void;
  /** An internal failure: the client gets the redacted text, the log the whole of it. */
  internal: (where: string, error: string, message: string) => ErrorBody;
  /** One generation through the recorded run (signals, judge). */
  runOne: (
    request: PipelineRequest,
    signal: AbortSignal,
    onMessage?: (m: ResponseMessage) => void,
  ) => Promise<{ result: PipelineResult; quality?: QualityReport }>;
  /** The fields of a generation's final message beyond the response message itself. */
  finalExtras: (run: { result: PipelineResult; quality?: QualityReport }) => Record<string, unknown>;
}

export function createRestContext(deps: RestDeps, options: RestOptions): RestContext {
  const inflight = new Set<AbortController>();
  const log = deps.log ?? (() => undefined);
  const unrecorded = new Set<string>();
  const noteUnrecorded = (run: { result: PipelineResult; signalId?: string }) => {
    if (!deps.signals || run.result.error || run.signalId) return;
    unrecorded.add(run.result.generationId);
    if (unrecorded.size > 10_000) unrecorded.delete(unrecorded.values().next().value as string);
  };
  const internal = (where: string, error: string, message: string): ErrorBody => {
    const redacted = redactInternals(message);
    if (redacted !== message) log(`[rest] ${where}: ${error}: ${message}`);
    return { error, message: redacted };
  };

  async function runOne(
    request: PipelineRequest,
    signal: AbortSignal,
    onMessage?: (m: ResponseMessage) => void,
  ): Promise<{ result: PipelineResult; quality?: QualityReport }> {
    return runThroughStack(
      deps,
      { source: 'rest', assistantVersion: options.version, log: (line) => log(`[rest] ${line}`) },
      request,
      { signal, ...(onMessage ? { onMessage } : {}) },
    );
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

  return { deps, options, log, inflight, unrecorded, noteUnrecorded, internal, runOne, finalExtras };
}
