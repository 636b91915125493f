/**
 * Types of the AVAP knowledge base: reference documents, their retrieval
 * chunks, the validated example pool and the golden evaluation set.
 * Loaders return {@link LoadResult}s: failures are data, never exceptions.
 */
import type { Result } from '../result';

/** What a request is: the router's four classes (the core's types re-export it). */
export type QueryType = 'CODE_GENERATION' | 'RETRIEVAL' | 'CONVERSATIONAL' | 'PLATFORM';

export const QUERY_TYPES: readonly QueryType[] = ['CODE_GENERATION', 'RETRIEVAL', 'CONVERSATIONAL', 'PLATFORM'];

export type KnowledgeErrorCode = 'not-found' | 'unreadable' | 'malformed' | 'invalid';

interface KnowledgeError {
  code: KnowledgeErrorCode;
  message: string;
  /** File or directory the error is about. */
  path: string;
  /** One line per problem when several were found (e.g. every bad pool entry). */
  details?: string[];
}

export type LoadResult<T> = Result<T, KnowledgeError>;

export function ok<T>(value: T): LoadResult<T> {
  return { ok: true, value };
}

export function fail<T>(code: KnowledgeErrorCode, message: string, path: string, details?: string[]): LoadResult<T> {
  return {
    ok: false,
    error: details && details.length > 0 ? { code, message, path, details } : { code, message, path },
  };
}

// ------------------------------------------------------------------ documents

export type DocKind = 'command' | 'chapter';

/** One Markdown reference document of knowledge/docs. */
export interface KnowledgeDoc {
  /** Stable id from the front matter (e.g. `command-encodeSHA256`, `chapter-loops`). */
  id: string;
  title: string;
  kind: DocKind;
  /** Topic, e.g. `crypto`, `control`, `http` (catalogue categories for command docs). */
  category: string;
  /** Commands the document is about (the command itself for a command document). */
  commands: string[];
  /** Path relative to the knowledge directory, with forward slashes (`docs/command-addVar.md`). */
  sourceDoc: string;
  /** Markdown body without the front matter. */
  body: string;
}

/** Kinds of Markdown content a chunk contains. */
export type BlockKind = 'prose' | 'list' | 'table' | 'avap-code' | 'other-code';

/** AVAP block constructs that appear in a piece of AVAP code, in the order they are listed everywhere. */
export const AVAP_CONSTRUCTS = [
  'if',
  'if-expression',
  'else',
  'loop',
  'try',
  'async',
  'function',
  'return',
  'assignment',
  'template',
  'global-ref',
  'status',
  'comment',
  'connector-method',
  'empty-argument',
] as const;

export type AvapConstruct = (typeof AVAP_CONSTRUCTS)[number];

/** A retrieval unit: one section (or part of a long section) of a document. */
export interface DocChunk {
  /** `<docId>::<heading-slug>` (with `-2`, `-3`… for repeated headings or split sections). */
  id: string;
  docId: string;
  /** Title of the document. */
  title: string;
  /** Heading of the section ("Overview" for the text before the first `##`). */
  heading: string;
  /** The section text (Markdown), starting with its heading line. */
  text: string;
  /** Catalogue commands the chunk mentions (as calls or in inline code), first mention first. */
  commands: string[];
  blockKinds: BlockKind[];
  /** AVAP constructs found in the chunk's `avap` code blocks. */
  constructs: AvapConstruct[];
  /** Path of the document relative to the knowledge directory. */
  sourceDoc: string;
  docKind: DocKind;
  /** Position of the chunk in its document (0-based). */
  ordinal: number;
}

// ------------------------------------------------------------------ run cases

/**
 * A request a program is run for and what it must answer: the shape of `avap test`'s cases (the runtime's
 * sandbox reads and judges them). `result` is a deep subset of the response; `fixtures` are recorded HTTP
 * responses, `sql` seeds a fresh database, `now` (ISO 8601) and `seed` fix the clock and the generator.
 */
export interface RunCaseData {
  name: string;
  request?: {
    method?: string;
    query?: Record<string, string | string[]>;
    headers?: Record<string, string>;
    body?: unknown;
  };
  fixtures?: {
    method?: 'GET' | 'POST';
    url: string;
    status?: number;
    headers?: Record<string, string>;
    body?: unknown;
  }[];
  sql?: string;
  now?: string;
  seed?: number;
  expect: { status?: number; result?: Record<string, unknown>; error?: boolean | string };
}

// ------------------------------------------------------------------ examples

/** One validated AVAP example program of the few-shot pool. */
export interface PoolExample {
  /** Stable id, `<category>-<slug>`. */
  id: string;
  category: string;
  /** One line saying what the program does. */
  description: string;
  /** Catalogue commands the code calls, first use first (checked against the code by the tests). */
  commands: string[];
  /** Constructs the code uses (checked against the code by the tests). */
  constructs: AvapConstruct[];
  /** The AVAP program; valid under the parser version recorded in the pool. */
  code: string;
  /** Requests the program is run for, with what it answers (the unit suite executes them). */
  cases?: RunCaseData[];
  /** Why the example has no cases (what the runtime refuses, or an answer no fixed expectation can state). */
  casesOmitted?: string;
  /**
   * The divergences between the specification and AVAP Lite (the runtime's portability rule ids) the example's
   * runs depend on, sorted; absent when none. A command AVAP Lite lacks is not listed: `commands` names it.
   */
  divergences?: string[];
}

export interface ExamplePool {
  poolVersion: string;
  /** Parser version the pool was last validated with (informative; the tests re-validate). */
  validatedWith: string;
  examples: PoolExample[];
}

// ------------------------------------------------------------------ golden set

interface GoldenTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** One evaluation question with its reference answer. */
export interface GoldenEntry {
  /** `GD-<letter>-<NNN>`: C code generation, R retrieval, V validation, K conversational, P platform. */
  id: string;
  /** Topic of the question (e.g. `hashing`, `loops`, `usage`). */
  category: string;
  queryType: QueryType;
  question: string;
  /** Earlier turns, for follow-up questions. */
  history?: GoldenTurn[];
  /** Commands a correct answer must use (code questions; may be empty otherwise). */
  expectedCommands: string[];
  /** Reference answer in prose (what a good answer says). */
  referenceAnswer: string;
  /** Reference AVAP program for code questions (valid under the parser). */
  referenceCode?: string;
  /**
   * Code questions: requests an answer's program is run for and what it must answer (the evaluation's
   * functional correctness; the reference code passes them).
   */
  cases?: RunCaseData[];
  /** Why a code question has no cases. */
  casesOmitted?: string;
  /** The divergences (portability rule ids) the reference code's runs depend on, sorted; absent when none. */
  divergences?: string[];
}

export interface GoldenSet {
  goldenVersion: string;
  entries: GoldenEntry[];
}
