/** The OpenAPI 3.1 document of the REST API, generated from the zod schemas. */
import { z } from 'zod';
import {
  BatchBodySchema,
  ErrorSchema,
  ExecuteAnswerSchema,
  ExecuteBodySchema,
  ExecuteErrorSchema,
  FeedbackBodySchema,
  GenerateBodySchema,
  HealthSchema,
  InvalidRequestSchema,
  ModelsSchema,
  ResponseMessageSchema,
  ValidateBodySchema,
  ValidationJsonSchema,
} from './schemas';

function schema(s: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

const json = (s: Record<string, unknown>) => ({ 'application/json': { schema: s } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const errors = {
  400: {
    description: 'The body is not valid JSON or does not match the schema.',
    content: json(ref('InvalidRequest')),
  },
  401: { description: 'Missing or wrong bearer token.', content: json(ref('Error')) },
  413: { description: 'The body is larger than the limit.', content: json(ref('Error')) },
  415: { description: 'The body is not application/json.', content: json(ref('Error')) },
  421: {
    description:
      'The Host header is not one this server answers for (a loopback server answers for localhost, 127.0.0.1, [::1] and --allowed-host names).',
    content: json(ref('Error')),
  },
};

export function openApiDocument(version: string, bodyLimit: number): Record<string, unknown> {
  const secured = [{ bearer: [] }];
  return {
    openapi: '3.1.0',
    info: {
      title: 'AVAP Assistant REST API',
      version,
      description: `Generate, explain and validate AVAP code. Request bodies are JSON, at most ${bodyLimit} bytes. A bearer token is required when the server is bound beyond loopback (or started with a token); /health and /openapi.json are public.`,
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        GenerateBody: schema(GenerateBodySchema, 'input'),
        ValidateBody: schema(ValidateBodySchema, 'input'),
        BatchBody: schema(BatchBodySchema, 'input'),
        FeedbackBody: schema(FeedbackBodySchema, 'input'),
        ResponseMessage: schema(ResponseMessageSchema),
        ValidationJson: schema(ValidationJsonSchema),
        Health: schema(HealthSchema),
        Models: schema(ModelsSchema),
        InvalidRequest: schema(InvalidRequestSchema),
        Error: schema(ErrorSchema),
        ExecuteBody: schema(ExecuteBodySchema, 'input'),
        ExecuteAnswer: schema(ExecuteAnswerSchema),
        ExecuteError: schema(ExecuteErrorSchema),
      },
    },
    paths: {
      '/health': {
        get: {
          summary:
            'Liveness, parser endpoint and circuit state; "degraded" with reasons when the signal store or the telemetry log cannot be written',
          security: [],
          responses: {
            200: { description: 'Up (status ok or degraded).', content: json(ref('Health')) },
            421: errors[421],
          },
        },
      },
      '/openapi.json': {
        get: {
          summary: 'This document',
          security: [],
          responses: { 200: { description: 'The OpenAPI document.' }, 421: errors[421] },
        },
      },
      '/v1/models': {
        get: {
          summary: 'Models pulled in Ollama',
          security: secured,
          responses: {
            200: { description: 'Model names.', content: json(ref('Models')) },
            401: errors[401],
            421: errors[421],
            502: { description: 'Ollama unreachable or failing.', content: json(ref('Error')) },
          },
        },
      },
      '/v1/validate': {
        post: {
          summary: 'Validate one AVAP source; the answer is exactly `validate --json` for one file',
          security: secured,
          requestBody: { required: true, content: json(ref('ValidateBody')) },
          responses: {
            200: { description: 'The verdict and trace.', content: json(ref('ValidationJson')) },
            ...errors,
            503: { description: 'The parser is unavailable.', content: json(ref('Error')) },
          },
        },
      },
      '/v1/generate': {
        post: {
          summary:
            'Run the pipeline and stream the response messages (NDJSON or server-sent events); the last message has is_final: true',
          security: secured,
          requestBody: { required: true, content: json(ref('GenerateBody')) },
          responses: {
            200: {
              description:
                'One ResponseMessage per line (application/x-ndjson) or per `message` event (text/event-stream).',
              content: {
                'application/x-ndjson': { schema: ref('ResponseMessage') },
                'text/event-stream': { schema: ref('ResponseMessage') },
              },
            },
            ...errors,
            502: {
              description:
                'No answer could be produced: Ollama unreachable, model not pulled or failing (nothing was streamed yet).',
              content: json(ref('Error')),
            },
            504: {
              description: 'Ollama sent nothing within the time-to-first-byte limit.',
              content: json(ref('Error')),
            },
          },
        },
      },
      '/v1/batch': {
        post: {
          summary: 'Several validate/generate requests in one call, answered in order',
          security: secured,
          requestBody: { required: true, content: json(ref('BatchBody')) },
          responses: { 200: { description: '`{results: [{index, kind, status, body}]}`' }, ...errors },
        },
      },
      '/v1/execute': {
        post: {
          summary:
            "Run an AVAP program in the sandboxed runtime, in AVAP Lite's shape: request parameters from the query string, the namespace's starting variables in the body",
          security: secured,
          requestBody: { required: true, content: json(ref('ExecuteBody')) },
          responses: {
            200: {
              description:
                "The run completed; the HTTP status is the run's own (`_status`, default 200), the body the same for any status.",
              content: json(ref('ExecuteAnswer')),
            },
            400: {
              description:
                'The body is not {script, variables}, the script is empty or rejected by the AVAP parser, or the run ended in an uncaught error (a budget stop included).',
              content: json(ref('ExecuteError')),
            },
            401: errors[401],
            413: errors[413],
            415: errors[415],
            421: errors[421],
            503: { description: 'The server runs no AVAP runtime.', content: json(ref('ExecuteError')) },
          },
        },
      },
      '/v1/feedback': {
        post: {
          summary: 'Record thumbs up/down and the outcome of a generation as a training signal',
          security: secured,
          requestBody: { required: true, content: json(ref('FeedbackBody')) },
          responses: {
            200: { description: 'Recorded.' },
            ...errors,
            404: { description: 'No generation with that id in the signal store.', content: json(ref('Error')) },
            409: {
              description:
                "The server has no signal store, or the generation's answer could not be recorded (`signal-not-recorded`).",
              content: json(ref('Error')),
            },
            503: {
              description:
                'The signal store cannot be read or written now (`signal-store-unwritable`, with the system error `code`); nothing was recorded.',
              content: json(ref('Error')),
            },
          },
        },
      },
    },
  };
}
