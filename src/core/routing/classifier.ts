/**
 * The `classify` node. The answer shape is enforced twice: at the transport
 * (Ollama's `format` with the JSON schema derived from the zod schema) and
 * here (zod re-check). A malformed answer gets one repair attempt with the
 * validation error verbatim; a second failure falls back to a safe default
 * route, logged. Platform prompts recognised by prefix skip the LLM.
 */
import { z } from 'zod';
import type { QueryType } from '../types';
import type { LlmError, LlmPort } from '../llm/port';
import type { Logger } from '../ports';
import type { ValidationError } from '../validation/errors';
import { fail, ok, type Failure, type Result } from '../../result';
import { CLASSIFY_TYPES, classifyMessages, classifyRepairMessages, type ConversationTurn } from './prompts';

const ClassificationSchema = z
  .object({
    type: z.enum(CLASSIFY_TYPES as [QueryType, ...QueryType[]]),
  })
  .strict();

/** @internal */
export const CLASSIFICATION_JSON_SCHEMA: Record<string, unknown> = (() => {
  const schema = z.toJSONSchema(ClassificationSchema) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
})();

/** Messages the platform injects; they go straight to PLATFORM (the design's fast path). */
const PLATFORM_PREFIXES: readonly string[] = ['You have a project usage percentage of'];

/** Where a malformed classification goes: an explanation with retrieval is the least harmful answer. */
export const DEFAULT_ROUTE: QueryType = 'RETRIEVAL';

interface Classification {
  type: QueryType;
  how: 'forced' | 'fast-path' | 'llm' | 'repaired' | 'default';
  /** E008 errors of the malformed answers, if any. */
  errors: ValidationError[];
}

/** The route, or the model's failure (a malformed answer is no failure: it is repaired once, then defaulted). */
export type ClassifyOutcome = Result<Classification, LlmError>;

/** Why an answer is no classification; the message is the parser's or the schema's text, verbatim (it goes back to the model). */
export type ClassificationParseFailure = Failure<'not-json' | 'wrong-shape'>;

/**
 * Parses one answer: JSON, then the zod schema. Pure.
 * @internal
 */
export function parseClassification(text: string): Result<QueryType, ClassificationParseFailure> {
  const trimmed = text.trim().replace(/^```(?:json)?\s*|\s*```$/g, '');
  let data: unknown;
  try {
    data = JSON.parse(trimmed);
  } catch (err) {
    return fail('not-json', `not JSON: ${(err as Error).message}`);
  }
  const parsed = ClassificationSchema.safeParse(data);
  if (!parsed.success) return fail('wrong-shape', z.prettifyError(parsed.error));
  return ok(parsed.data.type);
}

/**
 * Logged when the classifier's first answer cannot be read; `reason` is the first line of the schema error.
 * @internal
 */
export const logClassifierMalformed = (reason: string): string =>
  `classifier answer malformed (${reason}) — asking once more`;
/**
 * Logged when the repaired answer cannot be read either.
 * @internal
 */
export const LOG_CLASSIFIER_DEFAULT_ROUTE = `classifier answer malformed twice — routing to ${DEFAULT_ROUTE} by default`;

function malformed(answer: string, error: string): ValidationError {
  return {
    code: 'E008',
    field: 'classification',
    expected: JSON.stringify(CLASSIFICATION_JSON_SCHEMA),
    received: answer.slice(0, 200),
    severity: 'error',
    message: error,
  };
}

export interface ClassifyInput {
  query: string;
  forceType?: QueryType;
  history?: readonly ConversationTurn[];
}

/** Who classifies: the model (through its port), where its warnings go, and the caller's cancellation. */
interface Classifier {
  llm: LlmPort;
  model: string;
  logger: Logger;
  signal?: AbortSignal;
}

export async function classify(classifier: Classifier, input: ClassifyInput): Promise<ClassifyOutcome> {
  const { llm, model, logger, signal } = classifier;
  if (input.forceType) return ok({ type: input.forceType, how: 'forced', errors: [] });
  const text = input.query.trimStart();
  if (PLATFORM_PREFIXES.some((prefix) => text.startsWith(prefix)))
    return ok({ type: 'PLATFORM', how: 'fast-path', errors: [] });

  const messages = classifyMessages(input.query, input.history);
  const first = await llm.chat({ model, messages, format: CLASSIFICATION_JSON_SCHEMA, signal, maxTokens: 64 });
  if (!first.ok) return first;
  const parsed = parseClassification(first.value.text);
  if (parsed.ok) return ok({ type: parsed.value, how: 'llm', errors: [] });

  const errors = [malformed(first.value.text, parsed.error.message)];
  logger.warn(logClassifierMalformed(parsed.error.message.split('\n')[0] ?? ''));
  const second = await llm.chat({
    model,
    messages: classifyRepairMessages(messages, first.value.text, parsed.error.message),
    format: CLASSIFICATION_JSON_SCHEMA,
    signal,
    maxTokens: 64,
  });
  if (!second.ok) return second;
  const reparsed = parseClassification(second.value.text);
  if (reparsed.ok) return ok({ type: reparsed.value, how: 'repaired', errors });
  errors.push(malformed(second.value.text, reparsed.error.message));
  logger.warn(LOG_CLASSIFIER_DEFAULT_ROUTE);
  return ok({ type: DEFAULT_ROUTE, how: 'default', errors });
}
