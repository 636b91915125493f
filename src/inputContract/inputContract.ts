/**
 * Contracts for structured input: a zod schema (the single definition), the
 * JSON schema derived from it (for `languageModelTools`, Ollama's `format`
 * and the OpenAPI document), and optional semantic checks the schema cannot
 * express (e.g. "code is only whitespace").
 *
 * `preValidate(contract, input)` is the one pre-execution gate used by the
 * language-model tools, the REST request bodies and the pipeline's structured
 * LLM outputs (the judge). It never throws; an invalid input yields
 * `{valid: false, error, suggestions}` meant to be handed verbatim to whoever
 * produced it (a model or an HTTP client), never compacted into a success.
 */
import { z } from 'zod';
import { closestName } from '../parser';

export interface SemanticProblem {
  /** Dotted path of the offending field ('' for the whole input). */
  field: string;
  message: string;
  suggestion?: string;
}

export interface InputContract<T> {
  /** Name used in messages ("avap_validate input", "POST /v1/validate body"). */
  readonly name: string;
  readonly schema: z.ZodType<T>;
  /** Checks beyond the schema, run only when the schema passed. */
  readonly semantic?: (value: T) => SemanticProblem[];
}

/**
 * The answer to input that breaks its contract (docs/design.md D5): what is wrong and how to fix it, handed
 * verbatim to whoever produced the input — a model as a tool result, an HTTP client as a 400 body.
 */
export interface InvalidInput {
  valid: false;
  error: string;
  suggestions: string[];
}

export type PreValidation<T> = { valid: true; value: T } | InvalidInput;

export function defineContract<T>(
  name: string,
  schema: z.ZodType<T>,
  semantic?: (value: T) => SemanticProblem[],
): InputContract<T> {
  return semantic ? { name, schema, semantic } : { name, schema };
}

/**
 * The JSON schema of a contract's input side (defaults are optional), without
 * the `$schema` key (VS Code, Ollama and OpenAPI embed it in their own documents).
 */
export function jsonSchemaOf(contract: InputContract<unknown>): Record<string, unknown> {
  const schema = z.toJSONSchema(contract.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

type Issue = z.core.$ZodIssue;

function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key as string];
  }
  return current;
}

function hasKey(input: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return true;
  const parent = valueAt(input, path.slice(0, -1));
  return (
    parent !== null &&
    typeof parent === 'object' &&
    Object.prototype.hasOwnProperty.call(parent, path[path.length - 1] as string)
  );
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

/** The keys an object schema at `path` accepts (for "did you mean"). */
function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current: z.ZodType | undefined = schema;
  for (const key of path) {
    current = unwrap(current);
    if (!current) return [];
    if (current instanceof z.ZodObject) current = (current.shape as Record<string, z.ZodType>)[String(key)];
    else if (current instanceof z.ZodArray) current = current.element as z.ZodType;
    else return [];
  }
  current = unwrap(current);
  return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  for (let i = 0; i < 8 && current; i += 1) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodNullable) {
      current = current.unwrap() as z.ZodType;
    } else break;
  }
  return current;
}

function expectedName(expected: string): string {
  return expected === 'int' ? 'integer' : expected;
}

function article(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

function quoteList(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

function bound(issue: { inclusive?: boolean }, word: 'least' | 'most'): string {
  return issue.inclusive === false ? (word === 'least' ? 'more than' : 'less than') : `at ${word}`;
}

/** One issue as an error clause and suggestions. */
function describe(
  issue: Issue,
  contract: InputContract<unknown>,
  input: unknown,
): { error: string; suggestions: string[] } {
  const where = pathText(issue.path);
  const param = where === '' ? 'the input' : `'${where}'`;
  switch (issue.code) {
    case 'invalid_type': {
      const expected = expectedName(issue.expected);
      if (where !== '' && !hasKey(input, issue.path)) {
        return {
          error: `missing required parameter ${param} (${expected})`,
          suggestions: [`Add ${param} with ${article(expected)} value.`],
        };
      }
      const received = typeName(valueAt(input, issue.path));
      if (where === '') {
        const keys = knownKeysAt(contract.schema, []);
        return {
          error: `the input must be a JSON ${expected}, got ${received}`,
          suggestions: keys.length ? [`Send an object with the parameters: ${keys.join(', ')}.`] : [],
        };
      }
      return {
        error: `${param} must be ${article(expected)}, got ${received}`,
        suggestions: [
          `Pass ${param} as ${article(expected)}${expected === 'string' && received !== 'string' ? ' (quote the value)' : ''}.`,
        ],
      };
    }
    case 'unrecognized_keys': {
      const known = knownKeysAt(contract.schema, issue.path);
      const suggestions = issue.keys.map((key) => {
        const near = closestName(key, known);
        return near ? `Did you mean '${near}' instead of '${key}'?` : `Remove '${key}'.`;
      });
      if (known.length) suggestions.push(`Accepted parameters${where ? ` of ${param}` : ''}: ${known.join(', ')}.`);
      const names = issue.keys.map((k) => `'${where ? `${where}.` : ''}${k}'`).join(', ');
      return { error: `unknown parameter${issue.keys.length > 1 ? 's' : ''} ${names}`, suggestions };
    }
    case 'invalid_value': {
      const received = valueAt(input, issue.path);
      const near = typeof received === 'string' ? closestName(received, issue.values.map(String)) : undefined;
      return {
        error: `${param} must be one of ${quoteList(issue.values)}, got ${JSON.stringify(received)}`,
        suggestions: [near ? `Did you mean ${JSON.stringify(near)}?` : `Use one of ${quoteList(issue.values)}.`],
      };
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') {
        return min <= 1
          ? { error: `${param} must not be empty`, suggestions: [`Give ${param} a non-empty value.`] }
          : {
              error: `${param} must have ${bound(issue, 'least')} ${min} characters`,
              suggestions: [`Lengthen ${param}.`],
            };
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        return {
          error: `${param} must have ${bound(issue, 'least')} ${min} item${min === 1 ? '' : 's'}`,
          suggestions: [`Add items to ${param}.`],
        };
      }
      return {
        error: `${param} must be ${bound(issue, 'least')} ${min}, got ${JSON.stringify(valueAt(input, issue.path))}`,
        suggestions: [`Use a value ≥ ${min} for ${param}.`],
      };
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') {
        return {
          error: `${param} must have ${bound(issue, 'most')} ${max} characters`,
          suggestions: [`Shorten ${param} to ${max} characters or fewer.`],
        };
      }
      if (issue.origin === 'array' || issue.origin === 'set') {
        return {
          error: `${param} must have ${bound(issue, 'most')} ${max} items`,
          suggestions: [`Split ${param} into parts of ${max} items or fewer.`],
        };
      }
      return {
        error: `${param} must be ${bound(issue, 'most')} ${max}, got ${JSON.stringify(valueAt(input, issue.path))}`,
        suggestions: [`Use a value ≤ ${max} for ${param}.`],
      };
    }
    case 'not_multiple_of':
      return { error: `${param} must be a multiple of ${String(issue.divisor)}`, suggestions: [] };
    case 'invalid_format':
      return {
        error: `${param} is not a valid ${issue.format}${issue.format === 'regex' && 'pattern' in issue ? ` (pattern ${String(issue.pattern)})` : ''}`,
        suggestions: [issue.message],
      };
    case 'invalid_union':
      return { error: `${param} does not match any accepted shape`, suggestions: [issue.message] };
    default:
      return { error: `${param}: ${issue.message}`, suggestions: [] };
  }
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

/** Prefixes an error with where the input went wrong. */
function framed(contract: InputContract<unknown>, clauses: readonly string[]): string {
  return `Invalid ${contract.name}: ${clauses.join('; ')}.`;
}

/**
 * Pre-execution validation: schema (required and unknown parameters, types,
 * ranges, enums), then the contract's semantic checks. Pure; never throws.
 */
export function preValidate<T>(contract: InputContract<T>, input: unknown): PreValidation<T> {
  const parsed = contract.schema.safeParse(input);
  if (!parsed.success) {
    const described = parsed.error.issues.map((issue) => describe(issue, contract as InputContract<unknown>, input));
    return {
      valid: false,
      error: framed(
        contract as InputContract<unknown>,
        described.map((d) => d.error),
      ),
      suggestions: unique(described.flatMap((d) => d.suggestions)),
    };
  }
  const problems = contract.semantic?.(parsed.data) ?? [];
  if (problems.length) {
    return {
      valid: false,
      error: framed(
        contract as InputContract<unknown>,
        problems.map((p) => (p.field ? `'${p.field}' ${p.message}` : p.message)),
      ),
      suggestions: unique(problems.flatMap((p) => (p.suggestion ? [p.suggestion] : []))),
    };
  }
  return { valid: true, value: parsed.data };
}

/**
 * For structured LLM output: parses the text as JSON (tolerating a Markdown
 * fence around it) and pre-validates it. The error text is kept verbatim for
 * a repair prompt or a failure report.
 */
export function preValidateJsonText<T>(contract: InputContract<T>, text: string): PreValidation<T> {
  const trimmed = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  let data: unknown;
  try {
    data = JSON.parse(trimmed);
  } catch (err) {
    return {
      valid: false,
      error: `Invalid ${contract.name}: not JSON (${(err as Error).message}).`,
      suggestions: ['Answer with one JSON object and nothing else.'],
    };
  }
  return preValidate(contract, data);
}
