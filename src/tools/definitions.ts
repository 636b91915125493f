/**
 * The language-model tools the product offers, editor-free: name, the
 * guidance a model reads (when to use the tool, when not to), the input
 * contract and its semantic checks. The editor adapter registers them with
 * `vscode.lm.registerTool`; package.json's `contributes.languageModelTools`
 * is generated from here (see packageContribution.ts).
 */
import { z } from 'zod';
import { DEFAULT_MAX_BYTES } from '../parser';
import { tokenize } from '../knowledge';
import { defineContract, type InputContract, type SemanticProblem } from '../inputContract';

export const VALIDATE_TOOL = 'avap_validate';
export const SEARCH_DOCS_TOOL = 'avap_search_docs';

export const MAX_FILENAME_CHARS = 255;
const MAX_QUERY_CHARS = 500;
const MAX_SEARCH_RESULTS = 10;
export const DEFAULT_SEARCH_RESULTS = 5;
const DOC_KINDS = ['any', 'command', 'chapter'] as const;

const ValidateInputSchema = z.strictObject({
  code: z.string().min(1).describe('The complete AVAP source to check, as plain text without Markdown fences.'),
  filename: z
    .string()
    .min(1)
    .max(MAX_FILENAME_CHARS)
    .optional()
    .describe('Name shown in the trace (e.g. "handler.avap"). Optional.'),
});
export type ValidateInput = z.infer<typeof ValidateInputSchema>;

const SearchDocsInputSchema = z.strictObject({
  query: z
    .string()
    .min(1)
    .max(MAX_QUERY_CHARS)
    .describe(
      'What to look up: an AVAP command name (e.g. "encodeSHA256"), a construct ("startLoop", "try/exception") or a short topic ("read a request parameter").',
    ),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(MAX_SEARCH_RESULTS)
    .optional()
    .describe(
      `How many documentation sections to return (1–${MAX_SEARCH_RESULTS}, default ${DEFAULT_SEARCH_RESULTS}).`,
    ),
  kind: z
    .enum(DOC_KINDS)
    .optional()
    .describe(
      'Restrict to command reference pages ("command"), topic chapters ("chapter") or both ("any", the default).',
    ),
});
export type SearchDocsInput = z.infer<typeof SearchDocsInputSchema>;

const FENCE_LINE = /^\s*(```|~~~)/m;

/** Semantic checks for avap_validate beyond the schema. Pure. */
function validateInputProblems(input: ValidateInput): SemanticProblem[] {
  const problems: SemanticProblem[] = [];
  if (input.code.trim() === '') {
    problems.push({
      field: 'code',
      message: 'is empty (only whitespace)',
      suggestion: 'Pass the AVAP source you want checked; an empty program has nothing to validate.',
    });
    return problems;
  }
  if (FENCE_LINE.test(input.code)) {
    problems.push({
      field: 'code',
      message: 'contains a Markdown code fence (``` or ~~~)',
      suggestion: 'Pass only the AVAP source: remove the fence lines and any prose around the code.',
    });
  }
  const bytes = Buffer.byteLength(input.code, 'utf8');
  if (bytes > DEFAULT_MAX_BYTES) {
    problems.push({
      field: 'code',
      message: `is ${bytes} bytes, over the parser's limit of ${DEFAULT_MAX_BYTES} bytes`,
      suggestion: 'Validate the file in parts (e.g. one endpoint or function at a time).',
    });
  }
  if (input.filename !== undefined && /[\\/]/.test(input.filename)) {
    problems.push({
      field: 'filename',
      message: 'must be a file name, not a path',
      suggestion: `Use only the last part, e.g. "${input.filename.split(/[\\/]/).pop() || 'handler.avap'}".`,
    });
  }
  return problems;
}

/** Semantic checks for avap_search_docs beyond the schema. Pure. */
function searchInputProblems(input: SearchDocsInput): SemanticProblem[] {
  if (input.query.trim() === '') {
    return [
      {
        field: 'query',
        message: 'is empty (only whitespace)',
        suggestion: 'Give a command name or a few words about the topic, e.g. "encodeSHA256" or "loop over a list".',
      },
    ];
  }
  if (tokenize(input.query).length === 0) {
    return [
      {
        field: 'query',
        message: 'has no searchable terms (only punctuation or common words)',
        suggestion: 'Name the AVAP command or the concept, e.g. "addParam" or "database query".',
      },
    ];
  }
  return [];
}

/** @internal */
export const ValidateInputContract: InputContract<ValidateInput> = defineContract(
  'avap_validate input',
  ValidateInputSchema,
  validateInputProblems,
);
/** @internal */
export const SearchDocsInputContract: InputContract<SearchDocsInput> = defineContract(
  'avap_search_docs input',
  SearchDocsInputSchema,
  searchInputProblems,
);

export interface ToolDefinition<T> {
  name: string;
  displayName: string;
  /** How `#name` refers to the tool in a chat prompt. */
  toolReferenceName: string;
  /** Shown to people (tool pickers). */
  userDescription: string;
  /** Read by the model: what it does, when to use it and when not to. */
  modelDescription: string;
  /** Progress text while the tool runs. */
  invocationMessage: string;
  tags: string[];
  input: InputContract<T>;
}

export const VALIDATE_TOOL_DEFINITION: ToolDefinition<ValidateInput> = {
  name: VALIDATE_TOOL,
  displayName: 'Validate AVAP code',
  toolReferenceName: 'avapValidate',
  userDescription: 'Checks AVAP code with the real AVAP parser and returns the line-by-line trace.',
  modelDescription: [
    'Validates AVAP source code with the real AVAP parser and returns its verdict and trace: for each problem the line, column, category (unknown_token, foreign_keyword, unexpected_construct, syntax_error), a message and often a suggested replacement.',
    'Use it: before presenting AVAP code you wrote or edited, after fixing code (validate again until it is valid), and when the user asks whether some AVAP is correct.',
    'Do not use it: for code in other languages (Python, JavaScript, Go), for prose or pseudo-code, or to look up what a command does (use avap_search_docs).',
    'Pass the bare program in "code" without Markdown fences. The result has a status: SATISFIED (valid), NEEDS_MORE_TOOLS (fix the listed lines; for unknown commands look up the right one with avap_search_docs, then validate again), NEED_USER_INPUT (the code cannot be checked as given) or FAILED (the parser is unavailable: say the code is unvalidated).',
  ].join('\n'),
  invocationMessage: 'Validating AVAP code with the parser',
  tags: ['avap', 'validation', 'parser'],
  input: ValidateInputContract,
};

export const SEARCH_DOCS_TOOL_DEFINITION: ToolDefinition<SearchDocsInput> = {
  name: SEARCH_DOCS_TOOL,
  displayName: 'Search AVAP documentation',
  toolReferenceName: 'avapDocs',
  userDescription: 'Searches the AVAP reference documentation shipped with the extension.',
  modelDescription: [
    'Searches the AVAP knowledge base (command reference and topic chapters) and returns the best matching sections with their text, title and the commands they mention.',
    'Use it: before writing AVAP that uses a command whose exact name or argument order you are not sure of, when the validator reports an unknown command, and to answer questions about AVAP commands and constructs.',
    'Do not use it: for general programming questions unrelated to AVAP, to check whether code is valid (use avap_validate), or repeatedly with the same query.',
    'Query with AVAP command names or short topic phrases. The result status is SATISFIED (sections found) or NEEDS_MORE_TOOLS (nothing relevant: rephrase with other terms), FAILED when the knowledge base cannot be read.',
  ].join('\n'),
  invocationMessage: 'Searching the AVAP documentation',
  tags: ['avap', 'documentation', 'search'],
  input: SearchDocsInputContract,
};

export const TOOL_DEFINITIONS = [VALIDATE_TOOL_DEFINITION, SEARCH_DOCS_TOOL_DEFINITION] as const;
