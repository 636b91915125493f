/**
 * Maps parser trace entries onto structured validation errors (errors.ts).
 * Pure. The E-code of an entry is a table lookup on its rule code — never a
 * reading of its message — so rewording a message changes no E-code, no
 * identical-error key and no metric.
 */
import type { RuleCode, TraceEntry } from '../../parser';
import type { ValidationErrors, ErrorCode, ValidationError } from './errors';

/** The E-codes a parser finding can have (E007–E009 come from other stages). */
export type ParserErrorCode = Extract<ErrorCode, 'E001' | 'E002' | 'E003' | 'E004' | 'E005' | 'E006'>;

/**
 * The E-code of every rule of the parser's catalogue. Total: a new rule does
 * not type-check until it is given its E-code here.
 * @internal
 */
export const E_CODE_BY_RULE: Readonly<Record<RuleCode, ParserErrorCode>> = {
  // E001 — a name that is neither a command nor a function of the file
  'unknown-command': 'E001',
  'unknown-function': 'E001',
  'unspecified-unknown-token': 'E001',
  // E002 — syntax of another language
  'hash-comment': 'E002',
  'foreign-keyword': 'E002',
  'foreign-operator': 'E002',
  'foreign-call': 'E002',
  'foreign-method': 'E002',
  'typed-declaration': 'E002',
  'unspecified-foreign-keyword': 'E002',
  // E003 — a line whose shape is not AVAP
  'placeholder-not-a-name': 'E003',
  'statement-terminator': 'E003',
  'literal-call': 'E003',
  'discarded-result': 'E003',
  'unknown-connector': 'E003',
  // Valid code that does the wrong thing at run time (warnings): the line must be rewritten.
  'key-names-variable': 'E003',
  'key-overwritten-in-loop': 'E003',
  'literal-stored-as-text': 'E003',
  'brace-closes-block': 'E003',
  'brace-body': 'E003',
  'python-colon': 'E003',
  'anonymous-function': 'E003',
  'foreign-loop': 'E003',
  'foreign-if': 'E003',
  'foreign-try': 'E003',
  'foreign-else': 'E003',
  'else-if': 'E003',
  'unspecified-unexpected-construct': 'E003',
  // E004 — a command called with the wrong number of arguments
  arity: 'E004',
  // E005 — unbalanced blocks
  'block-command-assigned': 'E005',
  'unclosed-block': 'E005',
  'unmatched-closer': 'E005',
  'branch-outside-block': 'E005',
  'duplicate-branch': 'E005',
  'try-without-exception': 'E005',
  'loop-closed-by-end': 'E005',
  'end-closes-function': 'E005',
  'unmatched-brace': 'E005',
  // E006 — any other structural problem
  'source-too-large': 'E006',
  'invalid-encoding': 'E006',
  'binary-content': 'E006',
  'internal-error': 'E006',
  'unterminated-string': 'E006',
  'control-character': 'E006',
  'unterminated-comment': 'E006',
  'stray-character': 'E006',
  'unclosed-placeholder': 'E006',
  'typographic-quote': 'E006',
  'not-a-statement': 'E006',
  'missing-parentheses': 'E006',
  'invalid-assignment-target': 'E006',
  'missing-value': 'E006',
  'return-outside-function': 'E006',
  'trailing-text': 'E006',
  // A function of the file, not a catalogue signature: the arity instruction would point at the catalogue.
  'function-arity': 'E006',
  'missing-argument': 'E006',
  'invalid-target': 'E006',
  'invalid-number': 'E006',
  'nested-command': 'E006',
  'unclosed-call': 'E006',
  'mismatched-bracket': 'E006',
  'invalid-comparator': 'E006',
  'if-expression': 'E006',
  'legacy-if': 'E006',
  'empty-condition': 'E006',
  'invalid-expression': 'E006',
  'expression-too-deep': 'E006',
  'function-header': 'E006',
  'function-missing-brace': 'E006',
  'function-body-inline': 'E006',
  'function-parameter': 'E006',
  'command-redefined': 'E006',
  'duplicate-function': 'E006',
  'nested-function': 'E006',
  'unspecified-syntax-error': 'E006',
};

/** What kind of thing is wrong, per E-code (the error's `field`). */
const FIELD: Readonly<Record<ParserErrorCode, string>> = {
  E001: 'command',
  E002: 'keyword',
  E003: 'statement',
  E004: 'arguments',
  E005: 'block',
  E006: 'syntax',
};

/** Said when the entry has no suggestion and its message no hint. */
const DEFAULT_EXPECTED: Readonly<Record<ParserErrorCode, string>> = {
  E001: 'a command of the AVAP catalogue or a function defined in the file',
  E002: 'AVAP syntax',
  E003: 'valid AVAP',
  E004: 'the catalogue arity',
  E005: 'balanced blocks',
  E006: 'valid AVAP',
};

/** The E-code of a rule. */
function errorCodeOf(rule: RuleCode): ParserErrorCode {
  return E_CODE_BY_RULE[rule];
}

/** What would have been right: the suggestion, else the hint the message gives after its dash, else the E-code's default. */
function expectedOf(entry: TraceEntry, code: ParserErrorCode): string {
  if (entry.suggestion) return entry.suggestion;
  const dash = entry.message.indexOf(' — ');
  if (dash >= 0) return entry.message.slice(dash + 3);
  return DEFAULT_EXPECTED[code];
}

/** @internal */
export function errorFromTrace(entry: TraceEntry, lineOffset = 0): ValidationError {
  const code = errorCodeOf(entry.code);
  const error: ValidationError = {
    code,
    rule: entry.code,
    field: FIELD[code],
    expected: expectedOf(entry, code),
    received: entry.token,
    severity: entry.severity,
    line: entry.line + lineOffset,
    message: entry.message,
  };
  if (entry.fix) error.fix = entry.fix;
  return error;
}

export function errorsFromTrace(trace: readonly TraceEntry[], lineOffset = 0): ValidationErrors {
  const errors = trace.map((e) => errorFromTrace(e, lineOffset));
  return { isValid: !errors.some((e) => e.severity === 'error'), errors };
}
