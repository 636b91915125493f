/**
 * Validation errors: a binary verdict with structured errors and stable
 * E-codes (what every stage reports, whatever found it: the parser, the
 * relevance check, the classifier). Severity policy: an `error` blocks and may trigger the (single)
 * retry; a `warning` is logged and never triggers a retry.
 *
 * A parser finding keeps its rule code (`rule`, e.g. `unknown-command`) and
 * gets the E-code that E_CODE_BY_RULE (fromTrace.ts) gives that rule.
 *
 * | code | name                 | field          | meaning                                                        |
 * |------|----------------------|----------------|----------------------------------------------------------------|
 * | E001 | UNKNOWN_COMMAND      | command        | a name that is neither an AVAP command nor a function in the file |
 * | E002 | FOREIGN_SYNTAX       | keyword        | a keyword of another language (Go, Python, JS …)                |
 * | E003 | UNEXPECTED_CONSTRUCT | statement      | a line whose shape is not AVAP (`for i in range(…):`, `{` blocks) |
 * | E004 | ARITY                | arguments      | a command called with the wrong number of arguments             |
 * | E005 | UNBALANCED_BLOCK     | block          | an opener without its closer, a closer without its opener        |
 * | E006 | SYNTAX               | syntax         | any other structural problem the parser reports                 |
 * | E007 | CONTEXT_IRRELEVANT   | context        | the relevance check judged the retrieved context insufficient   |
 * | E008 | MALFORMED_MODEL_JSON | classification | the classifier's answer did not match its JSON schema           |
 * | E009 | NO_CODE              | response       | a code-generation answer contained no code to validate          |
 */
import type { RuleCode, Severity, TraceFix } from '../../parser';

/** @internal */
export const ERROR_CODES = {
  E001: 'UNKNOWN_COMMAND',
  E002: 'FOREIGN_SYNTAX',
  E003: 'UNEXPECTED_CONSTRUCT',
  E004: 'ARITY',
  E005: 'UNBALANCED_BLOCK',
  E006: 'SYNTAX',
  E007: 'CONTEXT_IRRELEVANT',
  E008: 'MALFORMED_MODEL_JSON',
  E009: 'NO_CODE',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ValidationError {
  code: ErrorCode;
  /** The parser rule of a parser finding (absent for E007–E009, which come from other stages). */
  rule?: RuleCode;
  /** What kind of thing is wrong: command, keyword, statement, arguments, block, syntax, context, classification, response. */
  field: string;
  /** What would have been right (a suggestion, or a description). */
  expected: string;
  /** What was found (the offending token). */
  received: string;
  severity: Severity;
  /** 1-based line in the validated text, when the error has one. */
  line?: number;
  /** The human message (the parser's trace message, or ours). */
  message: string;
  /** The repair the parser proved for this finding, when it has one (lines relative to the validated text). */
  fix?: TraceFix;
}

export interface ValidationErrors {
  isValid: boolean;
  errors: ValidationError[];
}

/** Errors block (and may retry); warnings never do. */
export function blocking(errors: readonly ValidationError[]): ValidationError[] {
  return errors.filter((e) => e.severity === 'error');
}
