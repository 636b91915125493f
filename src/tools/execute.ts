/**
 * Running the tools, editor-free: pre-validation first (an invalid input
 * yields `{valid: false, error, suggestions}` and nothing runs), then the
 * tool, then a post-execution status with the facts extracted from the
 * result:
 *
 *   SATISFIED        the tool answered what it was asked (valid code; sections found)
 *   NEEDS_MORE_TOOLS the answer calls for another tool call (invalid code: fix, look
 *                    up unknown commands, validate again; no section found: rephrase)
 *   NEED_USER_INPUT  the input cannot be processed as given (binary or refused source)
 *   FAILED           the tool could not run (parser unavailable, knowledge base unreadable)
 */
import type { Failure, Result } from '../result';
import type { ParserOutcome } from '../core';
import { guardInput, DEFAULT_MAX_BYTES, type TraceEntry } from '../parser';
import { preValidate, type InvalidInput } from '../inputContract';
import {
  DEFAULT_SEARCH_RESULTS,
  SEARCH_DOCS_TOOL,
  SEARCH_DOCS_TOOL_DEFINITION,
  VALIDATE_TOOL,
  VALIDATE_TOOL_DEFINITION,
  type SearchDocsInput,
  type ValidateInput,
} from './definitions';

type ToolStatus = 'SATISFIED' | 'NEEDS_MORE_TOOLS' | 'NEED_USER_INPUT' | 'FAILED';

export interface ToolOutcome<F = Record<string, unknown>> {
  tool: string;
  status: ToolStatus;
  /** One sentence for people and models. */
  summary: string;
  facts: F;
  /** What to do next, most useful first (empty when SATISFIED). */
  next: string[];
}

export type ToolRun = { kind: 'invalid'; result: InvalidInput } | { kind: 'done'; result: ToolOutcome };

// ------------------------------------------------------------------ validate

interface TraceFact {
  line: number;
  column: number;
  severity: string;
  category: string;
  /** The parser rule's stable code, e.g. `unknown-command`. */
  code: string;
  message: string;
  token: string;
  suggestion?: string;
}

export interface ValidateFacts {
  filename: string;
  valid?: boolean;
  errorCount?: number;
  warningCount?: number;
  trace?: TraceFact[];
  /** Names the parser did not know (commands the model may have invented). */
  unknownNames?: string[];
  /** Tokens from other languages (Python, JS, Go…). */
  foreignTokens?: string[];
  truncated?: boolean;
  parserVersion?: string;
  /** Why there is no verdict. */
  reason?: string;
  detail?: string;
}

export type ValidateFn = (source: string, filename: string, signal?: AbortSignal) => Promise<ParserOutcome>;

const DEFAULT_TOOL_FILENAME = 'snippet.avap';

function traceFact(entry: TraceEntry): TraceFact {
  return {
    line: entry.line,
    column: entry.column,
    severity: entry.severity,
    category: entry.category,
    code: entry.code,
    message: entry.message,
    token: entry.token,
    ...(entry.suggestion ? { suggestion: entry.suggestion } : {}),
  };
}

function uniqueTokens(trace: readonly TraceEntry[], category: TraceEntry['category']): string[] {
  return [
    ...new Set(trace.filter((e) => e.category === category && e.severity === 'error' && e.token).map((e) => e.token)),
  ];
}

/**
 * The facts and status of a parser outcome. Pure.
 * @internal
 */
export function validateOutcome(filename: string, outcome: ParserOutcome): ToolOutcome<ValidateFacts> {
  if (outcome.kind === 'unavailable') {
    const needsUser = outcome.reason === 'rejected';
    return {
      tool: VALIDATE_TOOL,
      status: needsUser ? 'NEED_USER_INPUT' : 'FAILED',
      summary: needsUser
        ? `The parser refused the code: ${outcome.detail}`
        : `The AVAP parser is unavailable (${outcome.reason}): the code could not be validated.`,
      facts: { filename, reason: outcome.reason, detail: outcome.detail },
      next: needsUser
        ? ['Ask the user for a smaller or plain-text version of the code.']
        : ['Tell the user the code is unvalidated; do not claim it is valid.'],
    };
  }
  const { result } = outcome;
  const errors = result.trace.filter((e) => e.severity === 'error');
  const warnings = result.trace.filter((e) => e.severity === 'warning');
  const unknownNames = uniqueTokens(result.trace, 'unknown_token');
  const foreignTokens = uniqueTokens(result.trace, 'foreign_keyword');
  const facts: ValidateFacts = {
    filename,
    valid: result.valid,
    errorCount: errors.length,
    warningCount: warnings.length,
    trace: result.trace.map(traceFact),
    unknownNames,
    foreignTokens,
    truncated: result.truncated,
    parserVersion: result.parserVersion,
  };
  if (result.valid) {
    return {
      tool: VALIDATE_TOOL,
      status: 'SATISFIED',
      summary: warnings.length
        ? `Valid AVAP (${warnings.length} warning${warnings.length === 1 ? '' : 's'}).`
        : 'Valid AVAP.',
      facts,
      next: [],
    };
  }
  const next: string[] = [];
  for (const entry of errors) {
    if (entry.suggestion !== undefined && entry.suggestion !== '') {
      next.push(`Line ${entry.line}: replace '${entry.token}' with '${entry.suggestion}'.`);
    }
  }
  for (const name of unknownNames) {
    if (!errors.some((e) => e.token === name && e.suggestion)) {
      next.push(`Look up the right command for '${name}' with ${SEARCH_DOCS_TOOL} {"query": ${JSON.stringify(name)}}.`);
    }
  }
  if (foreignTokens.length)
    next.push(
      `Rewrite the ${foreignTokens.map((t) => `'${t}'`).join(', ')} construct${foreignTokens.length > 1 ? 's' : ''} in AVAP.`,
    );
  next.push(`Validate the corrected code again with ${VALIDATE_TOOL}.`);
  return {
    tool: VALIDATE_TOOL,
    status: 'NEEDS_MORE_TOOLS',
    summary: `Invalid AVAP: ${errors.length} error${errors.length === 1 ? '' : 's'}${result.truncated ? ' (trace truncated)' : ''}.`,
    facts,
    next,
  };
}

/** @internal */
export async function executeValidate(
  input: ValidateInput,
  validate: ValidateFn,
  signal?: AbortSignal,
): Promise<ToolOutcome<ValidateFacts>> {
  const filename = input.filename ?? DEFAULT_TOOL_FILENAME;
  const guarded = guardInput(input.code, DEFAULT_MAX_BYTES);
  if (!guarded.ok) {
    return {
      tool: VALIDATE_TOOL,
      status: 'NEED_USER_INPUT',
      summary: `The code cannot be validated as given: ${guarded.error.message}`,
      facts: { filename, reason: 'refused', detail: guarded.error.message, trace: [traceFact(guarded.error)] },
      next: ['Ask the user for the AVAP source as plain UTF-8 text.'],
    };
  }
  let outcome: ParserOutcome;
  try {
    outcome = await validate(guarded.value, filename, signal);
  } catch (err) {
    outcome = { kind: 'unavailable', reason: 'transport', detail: err instanceof Error ? err.message : String(err) };
  }
  return validateOutcome(filename, outcome);
}

// ------------------------------------------------------------------ search

/** What the search tool needs from a knowledge base (the knowledge library's KnowledgeBase fits). */
interface DocsIndex {
  search(query: string, k: number): { id: string; score: number }[];
  chunk(id: string):
    | {
        id: string;
        title: string;
        heading?: string;
        text: string;
        commands?: readonly string[];
        docKind?: string;
        sourceDoc?: string;
      }
    | undefined;
}

/** The knowledge base, or why it could not be loaded. */
export type DocsIndexSource = () => Result<DocsIndex, Failure<'knowledge-unavailable'>>;

interface SearchHit {
  id: string;
  title: string;
  heading?: string;
  kind?: string;
  source?: string;
  score: number;
  commands: string[];
  text: string;
  /** The text was cut to `MAX_SECTION_CHARS`. */
  cut?: boolean;
}

export interface SearchFacts {
  query: string;
  results: SearchHit[];
  /** Every AVAP command the sections mention, first mention first. */
  commands: string[];
  reason?: string;
}

const MAX_SECTION_CHARS = 2000;

/** @internal */
export function executeSearchDocs(input: SearchDocsInput, source: DocsIndexSource): ToolOutcome<SearchFacts> {
  const loaded = source();
  if (!loaded.ok) {
    return {
      tool: SEARCH_DOCS_TOOL,
      status: 'FAILED',
      summary: `The AVAP knowledge base could not be read: ${loaded.error.message}`,
      facts: { query: input.query, results: [], commands: [], reason: loaded.error.message },
      next: ['Answer from what you know and say the documentation was unavailable.'],
    };
  }
  const k = input.max_results ?? DEFAULT_SEARCH_RESULTS;
  const kind = input.kind ?? 'any';
  // A kind filter looks further down the ranking so it still returns k sections.
  const ranked = loaded.value.search(input.query, kind === 'any' ? k : k * 8);
  const results: SearchHit[] = [];
  for (const { id, score } of ranked) {
    if (results.length >= k) break;
    const chunk = loaded.value.chunk(id);
    if (!chunk) continue;
    if (kind !== 'any' && chunk.docKind !== kind) continue;
    const cut = chunk.text.length > MAX_SECTION_CHARS;
    results.push({
      id: chunk.id,
      title: chunk.title,
      ...(chunk.heading ? { heading: chunk.heading } : {}),
      ...(chunk.docKind ? { kind: chunk.docKind } : {}),
      ...(chunk.sourceDoc ? { source: chunk.sourceDoc } : {}),
      score: Math.round(score * 1000) / 1000,
      commands: [...(chunk.commands ?? [])],
      text: cut ? `${chunk.text.slice(0, MAX_SECTION_CHARS)}…` : chunk.text,
      ...(cut ? { cut: true } : {}),
    });
  }
  const commands = [...new Set(results.flatMap((r) => r.commands))];
  if (results.length === 0) {
    return {
      tool: SEARCH_DOCS_TOOL,
      status: 'NEEDS_MORE_TOOLS',
      summary: `No AVAP documentation matched ${JSON.stringify(input.query)}${kind !== 'any' ? ` among ${kind} pages` : ''}.`,
      facts: { query: input.query, results, commands },
      next: [
        'Rephrase the query with AVAP command names or broader terms and search again.',
        ...(kind !== 'any' ? ['Search again with kind "any".'] : []),
      ],
    };
  }
  return {
    tool: SEARCH_DOCS_TOOL,
    status: 'SATISFIED',
    summary: `${results.length} documentation section${results.length === 1 ? '' : 's'} found${commands.length ? ` (commands: ${commands.slice(0, 8).join(', ')})` : ''}.`,
    facts: { query: input.query, results, commands },
    next: [],
  };
}

// ------------------------------------------------------------------ dispatch

export interface ToolDeps {
  validate: ValidateFn;
  docs: DocsIndexSource;
}

/** Pre-validates `input` for the named tool and runs it. Never throws. */
export async function runTool(name: string, input: unknown, deps: ToolDeps, signal?: AbortSignal): Promise<ToolRun> {
  if (name === VALIDATE_TOOL) {
    const checked = preValidate(VALIDATE_TOOL_DEFINITION.input, input);
    if (!checked.valid)
      return { kind: 'invalid', result: { valid: false, error: checked.error, suggestions: checked.suggestions } };
    return {
      kind: 'done',
      result: (await executeValidate(checked.value, deps.validate, signal)) as unknown as ToolOutcome,
    };
  }
  if (name === SEARCH_DOCS_TOOL) {
    const checked = preValidate(SEARCH_DOCS_TOOL_DEFINITION.input, input);
    if (!checked.valid)
      return { kind: 'invalid', result: { valid: false, error: checked.error, suggestions: checked.suggestions } };
    return { kind: 'done', result: executeSearchDocs(checked.value, deps.docs) as unknown as ToolOutcome };
  }
  return {
    kind: 'invalid',
    result: {
      valid: false,
      error: `Unknown tool '${name}'.`,
      suggestions: [`Use ${VALIDATE_TOOL} or ${SEARCH_DOCS_TOOL}.`],
    },
  };
}

/** The text handed to the model: the invalid-input object or the outcome, as JSON, verbatim. */
export function toolResultText(run: ToolRun): string {
  return JSON.stringify(run.result, null, 2);
}
