/**
 * Request and response shapes of the REST API, as zod schemas. Request bodies
 * go through the same pre-validation as the language-model tools (clear 400
 * errors: `{valid: false, error, suggestions}`); the OpenAPI document is
 * generated from these schemas.
 */
import { z } from 'zod';
import { defineContract, type InputContract } from '../inputContract';
import { DEFAULT_MAX_BYTES } from '../parser';
import { MAX_FILENAME_CHARS } from '../tools';
import { OUTCOMES, THUMBS } from '../signals';

const QUERY_TYPES = ['CODE_GENERATION', 'RETRIEVAL', 'CONVERSATIONAL', 'PLATFORM'] as const;
const MAX_QUERY_CHARS = 8000;
const MAX_BATCH_ITEMS = 32;

export const GenerateBodySchema = z.strictObject({
  query: z.string().min(1).max(MAX_QUERY_CHARS).describe('The request or question.'),
  force_type: z
    .enum(QUERY_TYPES)
    .optional()
    .describe('Skip classification and take this route (CODE_GENERATION for "generate code").'),
  stream: z
    .enum(['ndjson', 'sse'])
    .optional()
    .describe('Stream format; default from the Accept header (text/event-stream → sse), else ndjson.'),
  filename: z.string().min(1).max(MAX_FILENAME_CHARS).optional().describe('Name used in parser messages.'),
});
export type GenerateBody = z.infer<typeof GenerateBodySchema>;

const nonBlank = (field: string) => (value: { [k: string]: unknown }) =>
  typeof value[field] === 'string' && value[field].trim() === ''
    ? [{ field, message: 'is empty (only whitespace)', suggestion: `Give '${field}' some text.` }]
    : [];

export const GenerateBodyContract: InputContract<GenerateBody> = defineContract(
  'POST /v1/generate body',
  GenerateBodySchema,
  nonBlank('query'),
);

export const ValidateBodySchema = z.strictObject({
  source: z.string().describe('The AVAP source text.'),
  filename: z
    .string()
    .min(1)
    .max(MAX_FILENAME_CHARS)
    .describe('The file name reported back (the "file" field of the answer).'),
});
export type ValidateBody = z.infer<typeof ValidateBodySchema>;
export const ValidateBodyContract: InputContract<ValidateBody> = defineContract(
  'POST /v1/validate body',
  ValidateBodySchema,
);

const BatchValidateItemSchema = z.strictObject({
  kind: z.literal('validate'),
  source: z.string(),
  filename: z.string().min(1).max(MAX_FILENAME_CHARS),
});
const BatchGenerateItemSchema = z.strictObject({
  kind: z.literal('generate'),
  query: z.string().min(1).max(MAX_QUERY_CHARS),
  force_type: z.enum(QUERY_TYPES).optional(),
  filename: z.string().min(1).max(MAX_FILENAME_CHARS).optional(),
});
export type BatchValidateItem = z.infer<typeof BatchValidateItemSchema>;
export type BatchGenerateItem = z.infer<typeof BatchGenerateItemSchema>;

export const BATCH_ITEM_CONTRACTS = {
  validate: defineContract('batch item', BatchValidateItemSchema),
  generate: defineContract('batch item', BatchGenerateItemSchema, nonBlank('query')),
} as const;

/** The outer shape; each item is then checked by its kind's contract (precise errors per item). */
const BatchBodyOuterSchema = z.strictObject({
  requests: z
    .array(z.looseObject({ kind: z.enum(['validate', 'generate']) }))
    .min(1)
    .max(MAX_BATCH_ITEMS),
});
export const BatchBodyOuterContract = defineContract('POST /v1/batch body', BatchBodyOuterSchema);

/** For the OpenAPI document only. */
export const BatchBodySchema = z.strictObject({
  requests: z
    .array(z.discriminatedUnion('kind', [BatchValidateItemSchema, BatchGenerateItemSchema]))
    .min(1)
    .max(MAX_BATCH_ITEMS),
});

/**
 * The largest `final_code` a feedback may carry, in UTF-8 bytes: the parser's
 * source limit — code larger than the parser would validate is no training
 * sample, and nothing unbounded is written to the signal store.
 */
const MAX_FINAL_CODE_BYTES = DEFAULT_MAX_BYTES;

export const FeedbackBodySchema = z.strictObject({
  generation_id: z.string().min(1).max(200).describe('The generation_id of a /v1/generate response.'),
  thumbs: z.enum(THUMBS).optional(),
  outcome: z.enum(OUTCOMES).optional(),
  comment: z.string().max(2000).optional(),
  final_code: z
    .string()
    .max(MAX_FINAL_CODE_BYTES)
    .optional()
    .describe(`The code as the user kept it (with outcome "edited"); at most ${MAX_FINAL_CODE_BYTES} bytes of UTF-8.`),
});
export type FeedbackBody = z.infer<typeof FeedbackBodySchema>;
export const FeedbackBodyContract: InputContract<FeedbackBody> = defineContract(
  'POST /v1/feedback body',
  FeedbackBodySchema,
  (body) => [
    ...(body.thumbs === undefined && body.outcome === undefined
      ? [
          {
            field: '',
            message: 'needs thumbs or outcome',
            suggestion: 'Send "thumbs": "up" | "down" and/or "outcome": "accepted" | "edited" | "discarded".',
          },
        ]
      : []),
    // The schema counts characters; the limit is in bytes (a character may take up to 4).
    ...(body.final_code !== undefined && Buffer.byteLength(body.final_code) > MAX_FINAL_CODE_BYTES
      ? [
          {
            field: 'final_code',
            message: `is ${Buffer.byteLength(body.final_code)} bytes of UTF-8, over the limit of ${MAX_FINAL_CODE_BYTES}`,
            suggestion: `Send at most ${MAX_FINAL_CODE_BYTES} bytes of code (the parser's source limit); nothing was recorded.`,
          },
        ]
      : []),
  ],
);

// ------------------------------------------------------------------ responses (documentation)

export const InvalidRequestSchema = z.object({
  valid: z.literal(false),
  error: z.string(),
  suggestions: z.array(z.string()),
});

export const ErrorSchema = z.object({ error: z.string(), message: z.string() });

const TextEditJsonSchema = z
  .object({
    line: z.number().int(),
    column: z.number().int(),
    endLine: z.number().int(),
    endColumn: z.number().int(),
    newText: z.string(),
  })
  .describe('Replace [line:column, endLine:endColumn) with newText: 1-based, UTF-16 columns, end exclusive.');

const TraceFixJsonSchema = z
  .object({
    title: z.string(),
    edits: z.array(TextEditJsonSchema),
  })
  .describe('A repair the parser proved on this program: applying the edits removes the entry and adds no other.');

const TraceEntryJsonSchema = z.object({
  line: z.number().int(),
  column: z.number().int(),
  endColumn: z.number().int(),
  severity: z.string(),
  category: z.string(),
  code: z.string().describe('Stable code of the parser rule that reported the entry, e.g. unknown-command.'),
  message: z.string(),
  suggestion: z.string(),
  token: z.string(),
  fix: TraceFixJsonSchema.nullable(),
});

export const ValidationJsonSchema = z.object({
  file: z.string(),
  valid: z.boolean(),
  trace: z.array(TraceEntryJsonSchema),
  parserVersion: z.string(),
  truncated: z.boolean(),
});

export const ResponseMessageSchema = z.object({
  text: z
    .string()
    .describe(
      'On a draft: a streamed piece of the answer. On the final message: the whole answer delivered — the text whose every AVAP code block was validated (repaired when the parser fixed it); show it in place of the drafts.',
    ),
  avap_code: z.string(),
  is_final: z.boolean(),
  draft: z
    .literal(true)
    .optional()
    .describe(
      'On every message but the last: streamed text the parser has not judged yet (no validation_status, empty avap_code).',
    ),
  validation_status: z
    .enum(['', 'INVALID_UNRESOLVED', 'PARSER_UNAVAILABLE'])
    .optional()
    .describe(
      'On the final message only: "" when the parser validated every AVAP code block of the answer (or it shows none). Absent when the run failed or was cancelled (see error).',
    ),
  attempt: z.number().int().optional(),
  replace: z
    .literal(true)
    .optional()
    .describe(
      "On a draft: its text is the whole answer of its attempt as repaired by the parser's proven fixes; it replaces the attempt's earlier drafts.",
    ),
  repaired_by: z
    .literal('parser-fixes')
    .optional()
    .describe("On the final message: the answer is the model's answer repaired by the parser's proven fixes."),
  generation_id: z.string().optional().describe('On the final message.'),
  query_type: z.enum(QUERY_TYPES).optional().describe('On the final message.'),
  quality: z.unknown().optional().describe('On the final message, when the judge is on: scores of every attempt.'),
  parser_trace: z
    .string()
    .optional()
    .describe(
      'On the final message of a code generation: the raw trace of the first validation (Line N: message per error), empty when it was valid or got no verdict.',
    ),
  context_relevant: z
    .boolean()
    .optional()
    .describe("On the final message of a RETRIEVAL answer: the relevance check's verdict on the first retrieval."),
  few_shot_injection: z
    .literal('degraded')
    .optional()
    .describe(
      'On the final message of a code generation whose few-shot example retrieval failed (generation went on without examples).',
    ),
  error: ErrorSchema.optional().describe('On the final message, when no answer could be produced.'),
  retrieval: z
    .object({ status: z.enum(['ok', 'degraded']), reason: z.string().optional() })
    .optional()
    .describe('On the final message of a route that retrieves: degraded when the answer had no documentation context.'),
  retry: z
    .object({
      limit: z.number().int(),
      usedBy: z.string().optional(),
      skipped: z.array(z.object({ trigger: z.string(), reason: z.string(), usedBy: z.string().optional() })),
    })
    .optional()
    .describe(
      "On the final message: the request's one retry cycle — what used it, and retries skipped with their reason.",
    ),
});

const StorageStateSchema = z.object({
  enabled: z.boolean(),
  writable: z.boolean().optional(),
  code: z.string().optional(),
});

export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  /** Why the server is degraded (empty when ok): a store that cannot be written. */
  reasons: z.array(z.string()),
  parser: z.object({
    endpoint: z.string(),
    circuit: z.object({ state: z.string(), consecutiveFailures: z.number(), nextProbeAt: z.number().optional() }),
  }),
  llm: z.object({ host: z.string(), model: z.string() }),
  judge: z.object({ enabled: z.boolean(), threshold: z.number() }),
  retrieval: z.string(),
  storage: z.object({ signals: StorageStateSchema, telemetry: StorageStateSchema }),
});

export const ModelsSchema = z.object({ models: z.array(z.string()) });

// ------------------------------------------------------------------ the runtime (AVAP Lite's execute shape)

export const ExecuteBodySchema = z.object({
  script: z.string().describe('The AVAP program to run.'),
  variables: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("The namespace's starting variables (AVAP Lite's `variables`)."),
});

export const ExecuteAnswerSchema = z.object({
  success: z.literal(true),
  result: z.record(z.string(), z.unknown()).describe('The response object addResult built.'),
  variables: z.record(z.string(), z.unknown()).describe('Every variable at the end of the run.'),
  logs: z.array(z.unknown()),
});

export const ExecuteErrorSchema = z.object({
  success: z.literal(false),
  error: z.string().describe("Why the script could not run or stopped (the run-time error's message)."),
});
