/**
 * Public types of the AVAP parser. The parser is editor-free and never throws:
 * every call returns a {@link ValidationResult}.
 */
import type { RuleCode } from './catalogue/rules';

/** The four trace categories of the design, and only these. */
export type TraceCategory = 'unknown_token' | 'unexpected_construct' | 'foreign_keyword' | 'syntax_error';

export const TRACE_CATEGORIES: readonly TraceCategory[] = [
  'unknown_token',
  'unexpected_construct',
  'foreign_keyword',
  'syntax_error',
];

export type Severity = 'error' | 'warning';

/**
 * One finding. Positions follow the Monaco/LSP-friendly convention:
 * `line` and `column` are 1-based, `endColumn` is 1-based and exclusive, and
 * columns count UTF-16 code units (what JavaScript strings and VS Code count).
 */
export interface TraceEntry {
  line: number;
  column: number;
  endColumn: number;
  severity: Severity;
  category: TraceCategory;
  /**
   * The rule this finding belongs to (src/parser/catalogue/rules.ts): stable,
   * unlike the message, so logic keys on it. The category is the rule's.
   */
  code: RuleCode;
  /** Human text, without the `Line N:` prefix (see renderTrace). */
  message: string;
  /**
   * Replacement text for the range [column, endColumn) on `line` that fixes the
   * finding deterministically (e.g. `encodeSHA256` for `getSHA256`). Absent when
   * no mechanical fix exists; the message then carries the hint in words.
   */
  suggestion?: string;
  /** The offending source text (or a short rendering of it). */
  token: string;
  /**
   * A repair the parser has PROVEN: applying its edits to the program makes
   * this finding disappear and adds no finding anywhere (the parser re-parsed
   * the fixed program before offering it). Absent when no mechanical repair
   * exists, or when the candidate failed its proof.
   */
  fix?: TraceFix;
}

/**
 * One text edit, in the same coordinates as a trace entry: 1-based lines and
 * columns, UTF-16 code units, end exclusive. An empty range inserts `newText`;
 * an empty `newText` deletes the range. `endLine` may be past `line` (an edit
 * that spans a line break).
 */
export interface TextEdit {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  newText: string;
}

/** A proven repair: a short title for menus and prompts, and non-overlapping edits in source order. */
export interface TraceFix {
  title: string;
  edits: TextEdit[];
}

export interface ValidationResult {
  /** True when no entry has severity `error`. Warnings never make code invalid. */
  valid: boolean;
  trace: TraceEntry[];
  /** True when more findings existed than `maxTraceEntries`; errors are kept first. */
  truncated: boolean;
  parserVersion: string;
}

export interface ParseOptions {
  /** Sources larger than this many UTF-8 bytes are refused with one trace entry. Default 1 MiB. */
  maxBytes?: number;
  /** Cap on reported entries; beyond it `truncated` is set. Default 200. */
  maxTraceEntries?: number;
  /** Only used in messages. */
  filename?: string;
  /**
   * Most candidate fixes the parser proves per call (each proof re-parses the
   * fixed program once); entries beyond it carry no `fix`. Also bounded by
   * PROOF_BYTE_BUDGET. Only findings with a candidate are proven (errors
   * first): those of invalid code, and on valid code only its semantic
   * warnings, so valid code without one costs nothing more. Default
   * DEFAULT_MAX_FIX_PROOFS; 0 offers no fixes.
   */
  maxFixProofs?: number;
  /**
   * Prove the fixes of these entries only (in-process callers): the
   * streaming check proves its candidates and nothing else. Default: every
   * entry of the trace, as above.
   */
  proveOnly?: (entry: TraceEntry) => boolean;
  /**
   * The source is the beginning of a program still being written (a model's
   * answer, streamed): a fix whose proof needs the lines after it is not
   * offered when it needs them to lack something — that the program answers
   * with no addResult (print → addResult), that a while's counter or a key is
   * not used further down — and is offered when it needs them to hold
   * something a later line may still bring (a name read further down). The
   * complete program's validation decides. Default false.
   */
  partial?: boolean;
}

export const DEFAULT_MAX_BYTES = 1024 * 1024;
export const DEFAULT_MAX_TRACE_ENTRIES = 200;
export const DEFAULT_MAX_FIX_PROOFS = 32;
/**
 * Characters of source re-parsed by fix proofs in one call, at most: a large
 * program gets fewer proofs, so proving stays a bounded multiple of parsing.
 */
export const PROOF_BYTE_BUDGET = 1024 * 1024;
/** Deepest expression nesting the checker follows before reporting an error. */
export const MAX_EXPRESSION_DEPTH = 100;
