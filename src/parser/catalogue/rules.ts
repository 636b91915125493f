/**
 * The rule catalogue: every finding the parser reports belongs to exactly one
 * rule, and each rule is defined here once — its stable code, its trace
 * category, its default severity and a one-line description. Report sites
 * name a rule (`Rule.UnknownCommand`), never a code string, and the reporter
 * takes the category and severity from the definition; logic downstream
 * (E-codes, the retry controller's identical-error key, quick fixes, metrics)
 * keys on the code through tables, never on the wording of a message.
 *
 * Codes are kebab-case, stable and never reused: a message may be reworded
 * freely, a code is renamed only with a new major version of the wire
 * contract. Adding a rule:
 *   1. add an entry below (a new code, its category, severity and summary);
 *   2. report it from the parser with `Rule.YourRule`;
 *   3. the type checker then lists what else needs it: the E-code table in
 *      src/core/validation/fromTrace.ts and the table of trigger programs in
 *      test/unit/parser/rules.test.ts (one program that produces the rule);
 *   4. add the code to the README's list of rule codes (a test checks it).
 * Changing which programs are valid still requires the version bump described
 * in src/parser/version.ts; adding a code alone does not.
 */
import type { Severity, TraceCategory } from '../types';

/**
 * How entries of a rule use `TraceEntry.suggestion` (a replacement for their
 * range): `quoted` — the message already quotes it ("did you mean 'x'?");
 * `separate` — the message does not, so a renderer may spell it out. A rule
 * without this field never carries a suggestion.
 */
type SuggestionStyle = 'quoted' | 'separate';

export interface RuleSpec {
  /** Stable kebab-case identifier, carried as `TraceEntry.code`. */
  readonly code: string;
  readonly category: TraceCategory;
  /** The severity its entries are reported with. */
  readonly severity: Severity;
  /** One line: what the rule finds. */
  readonly summary: string;
  readonly suggestion?: SuggestionStyle;
  /**
   * `protocol`: never reported by this parser; stands for an entry decoded from
   * a service that sent no code (older) or a code this client does not know
   * (newer), so that every entry still has a code of this catalogue.
   */
  readonly origin?: 'protocol';
  /**
   * A semantic warning: valid code that does the wrong thing at run time
   * (semantics.ts). Its fix is proven on valid code too; the other warnings of
   * valid code keep their suggestion and cost no proof.
   */
  readonly semantic?: true;
}

export const Rule = {
  // ------------------------------------------------------------ input guards
  SourceTooLarge: {
    code: 'source-too-large',
    category: 'syntax_error',
    severity: 'error',
    summary: 'The source is larger than the size limit; it is not parsed.',
  },
  InvalidEncoding: {
    code: 'invalid-encoding',
    category: 'syntax_error',
    severity: 'error',
    summary: 'The source is not valid Unicode text (invalid UTF-8 bytes or an unpaired surrogate).',
  },
  BinaryContent: {
    code: 'binary-content',
    category: 'syntax_error',
    severity: 'error',
    summary: 'The source looks like a binary file, not AVAP text.',
  },
  InternalError: {
    code: 'internal-error',
    category: 'syntax_error',
    severity: 'error',
    summary: 'The parser failed on this input; a bug to report, never a verdict on the code.',
  },

  // ----------------------------------------------------------------- lexical
  UnterminatedString: {
    code: 'unterminated-string',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A string is not closed with its quote on the same line.',
  },
  ControlCharacter: {
    code: 'control-character',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A control character (binary data) appears in the source.',
  },
  HashComment: {
    code: 'hash-comment',
    category: 'foreign_keyword',
    severity: 'error',
    summary: "A '#' comment of another language; AVAP comments start with //.",
    suggestion: 'separate',
  },
  UnterminatedComment: {
    code: 'unterminated-comment',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A /* block comment is never closed with */.',
  },
  StrayCharacter: {
    code: 'stray-character',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A character with no meaning in AVAP outside an argument.',
  },
  UnclosedPlaceholder: {
    code: 'unclosed-placeholder',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A ${ placeholder in a template string is not closed with }.',
  },
  PlaceholderNotAName: {
    code: 'placeholder-not-a-name',
    category: 'unexpected_construct',
    severity: 'warning',
    summary: 'A template placeholder holds an expression instead of a variable name.',
  },
  TypographicQuote: {
    code: 'typographic-quote',
    category: 'syntax_error',
    severity: 'error',
    summary: 'Typographic quotes (“…” or ‘…’) used as string quotes; the runtime reads them as part of the text.',
    suggestion: 'separate',
  },

  // -------------------------------------------------------------- statements
  NotAStatement: {
    code: 'not-a-statement',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A line that is neither a command call, an assignment nor a block keyword.',
  },
  MissingParentheses: {
    code: 'missing-parentheses',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A command or block keyword written without its parentheses.',
    suggestion: 'separate',
  },
  StatementTerminator: {
    code: 'statement-terminator',
    category: 'unexpected_construct',
    severity: 'error',
    summary: "A ';' statement terminator; AVAP has one statement per line.",
  },
  InvalidAssignmentTarget: {
    code: 'invalid-assignment-target',
    category: 'syntax_error',
    severity: 'error',
    summary: 'The left side of an assignment is not a plain variable name (a global, a path, a command).',
    suggestion: 'separate',
  },
  MissingValue: {
    code: 'missing-value',
    category: 'syntax_error',
    severity: 'error',
    summary: "An assignment with nothing after '='.",
  },
  BlockCommandAssigned: {
    code: 'block-command-assigned',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A command that opens or closes a block is used as the value of an assignment.',
  },
  ReturnOutsideFunction: {
    code: 'return-outside-function',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A return statement outside a function body.',
  },
  TrailingText: {
    code: 'trailing-text',
    category: 'syntax_error',
    severity: 'error',
    summary: 'Unexpected text after a complete call, parameter list or closing brace.',
  },

  // ------------------------------------------------------- commands and calls
  UnknownCommand: {
    code: 'unknown-command',
    category: 'unknown_token',
    severity: 'error',
    summary: 'A statement calls a name that is neither an AVAP command nor a function defined in the file.',
    suggestion: 'quoted',
  },
  UnknownFunction: {
    code: 'unknown-function',
    category: 'unknown_token',
    severity: 'error',
    summary: 'An expression or argument calls a name that is neither a built-in nor a function defined in the file.',
    suggestion: 'quoted',
  },
  Arity: {
    code: 'arity',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A command (or if/else) called with a number of arguments its signature does not accept.',
    suggestion: 'separate',
  },
  FunctionArity: {
    code: 'function-arity',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A function defined in the file called with the wrong number of arguments.',
  },
  MissingArgument: {
    code: 'missing-argument',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A required argument of a command is left empty.',
  },
  InvalidTarget: {
    code: 'invalid-target',
    category: 'syntax_error',
    severity: 'error',
    summary: 'An argument that receives a result is not a variable name.',
  },
  InvalidNumber: {
    code: 'invalid-number',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A numeric argument is neither a number nor a variable name.',
  },
  NestedCommand: {
    code: 'nested-command',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A command is called inside an expression or an argument instead of on its own line.',
  },
  LiteralCall: {
    code: 'literal-call',
    category: 'unexpected_construct',
    severity: 'warning',
    summary: 'A call inside an argument: the specification reads it as text, the reference implementation runs it.',
  },
  DiscardedResult: {
    code: 'discarded-result',
    category: 'unexpected_construct',
    severity: 'warning',
    summary: 'A command whose result is only reachable by assignment is called as a statement.',
  },
  UnknownConnector: {
    code: 'unknown-connector',
    category: 'unexpected_construct',
    severity: 'warning',
    summary: 'A method is called on a name that no avapConnector() in the file created.',
  },
  UnclosedCall: {
    code: 'unclosed-call',
    category: 'syntax_error',
    severity: 'error',
    summary: "A call's parenthesis is not closed on its line.",
  },
  MismatchedBracket: {
    code: 'mismatched-bracket',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A closing bracket does not match the bracket it closes.',
  },

  // ------------------------------------------- semantic traps (valid code that does the wrong thing)
  KeyNamesVariable: {
    code: 'key-names-variable',
    category: 'unexpected_construct',
    severity: 'warning',
    summary:
      'A bare key (JSON key, lookup key, parameter name) names an earlier variable: by the specification its value is the key.',
    semantic: true,
  },
  KeyOverwrittenInLoop: {
    code: 'key-overwritten-in-loop',
    category: 'unexpected_construct',
    severity: 'warning',
    summary:
      'A bare key inside a loop names a variable the loop assigns: from the second pass, by the specification, the key is its value.',
    semantic: true,
  },
  LiteralStoredAsText: {
    code: 'literal-stored-as-text',
    category: 'unexpected_construct',
    severity: 'warning',
    summary: 'An addVar() given a list, dict, None or boolean literal stores its text; an assignment stores the value.',
    semantic: true,
  },

  // ----------------------------------------------------------- conditions and expressions
  InvalidComparator: {
    code: 'invalid-comparator',
    category: 'syntax_error',
    severity: 'error',
    summary: 'The comparator of if() is missing or not one of = == != < > <= >= in.',
    suggestion: 'separate',
  },
  IfExpression: {
    code: 'if-expression',
    category: 'syntax_error',
    severity: 'error',
    summary: 'An if() given one expression instead of (left, right, comparator).',
    suggestion: 'separate',
  },
  LegacyIf: {
    code: 'legacy-if',
    category: 'syntax_error',
    severity: 'warning',
    summary: 'The older four-argument form of if().',
  },
  EmptyCondition: {
    code: 'empty-condition',
    category: 'syntax_error',
    severity: 'error',
    summary: 'The quoted condition of if(None, None, "…") is empty.',
  },
  InvalidExpression: {
    code: 'invalid-expression',
    category: 'syntax_error',
    severity: 'error',
    summary: 'An expression that does not follow the expression grammar.',
  },
  ExpressionTooDeep: {
    code: 'expression-too-deep',
    category: 'syntax_error',
    severity: 'error',
    summary: 'An expression nested deeper than the parser follows.',
  },

  // ------------------------------------------------------------------ blocks
  UnclosedBlock: {
    code: 'unclosed-block',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A block (if, startLoop, try, go_async, function body) is never closed, or not before an outer closer.',
  },
  UnmatchedCloser: {
    code: 'unmatched-closer',
    category: 'syntax_error',
    severity: 'error',
    summary: 'An end() or endLoop() without a block of its kind to close.',
    suggestion: 'separate',
  },
  BranchOutsideBlock: {
    code: 'branch-outside-block',
    category: 'syntax_error',
    severity: 'error',
    summary: 'An else() outside an if() block, or an exception() outside a try() block.',
  },
  DuplicateBranch: {
    code: 'duplicate-branch',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A second else() for one if(), or a second exception() for one try().',
  },
  TryWithoutException: {
    code: 'try-without-exception',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A try() block closed without an exception() handler.',
  },
  LoopClosedByEnd: {
    code: 'loop-closed-by-end',
    category: 'syntax_error',
    severity: 'warning',
    summary: 'A startLoop() block closed with end() instead of endLoop().',
    suggestion: 'separate',
  },
  EndClosesFunction: {
    code: 'end-closes-function',
    category: 'syntax_error',
    severity: 'error',
    summary: 'An end() used where a function body must be closed with }.',
  },
  UnmatchedBrace: {
    code: 'unmatched-brace',
    category: 'unexpected_construct',
    severity: 'error',
    summary: "A '}' without an open function body.",
  },
  BraceClosesBlock: {
    code: 'brace-closes-block',
    category: 'unexpected_construct',
    severity: 'error',
    summary: "A '}' closing a block that AVAP closes with end() or endLoop().",
    suggestion: 'separate',
  },
  BraceBody: {
    code: 'brace-body',
    category: 'unexpected_construct',
    severity: 'error',
    summary: 'A curly-brace body after a block command; AVAP blocks have no braces.',
  },
  PythonColon: {
    code: 'python-colon',
    category: 'unexpected_construct',
    severity: 'error',
    summary: "A Python-style ':' opening a block or a function body.",
    suggestion: 'separate',
  },

  // --------------------------------------------------------------- functions
  FunctionHeader: {
    code: 'function-header',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A function definition without its name, its ( or its ).',
  },
  AnonymousFunction: {
    code: 'anonymous-function',
    category: 'unexpected_construct',
    severity: 'error',
    summary: 'An anonymous function; AVAP functions are named.',
  },
  FunctionMissingBrace: {
    code: 'function-missing-brace',
    category: 'syntax_error',
    severity: 'error',
    summary: "A function header not followed by the '{' that opens its body.",
  },
  FunctionBodyInline: {
    code: 'function-body-inline',
    category: 'syntax_error',
    severity: 'error',
    summary: "A function body written on the header line after '{'.",
  },
  FunctionParameter: {
    code: 'function-parameter',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A function parameter that is empty or not a plain name.',
  },
  CommandRedefined: {
    code: 'command-redefined',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A function definition reuses the name of a built-in command.',
  },
  DuplicateFunction: {
    code: 'duplicate-function',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A function defined twice in one file.',
  },
  NestedFunction: {
    code: 'nested-function',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A function defined inside another block instead of at the top level.',
  },

  // ------------------------------------------------------- other languages
  ForeignKeyword: {
    code: 'foreign-keyword',
    category: 'foreign_keyword',
    severity: 'error',
    summary: 'A keyword of another language (Go, Python, JavaScript …).',
    suggestion: 'separate',
  },
  ForeignOperator: {
    code: 'foreign-operator',
    category: 'foreign_keyword',
    severity: 'error',
    summary: 'An operator of another language (&&, ||, ===, !, :=, += …).',
    suggestion: 'separate',
  },
  ForeignCall: {
    code: 'foreign-call',
    category: 'foreign_keyword',
    severity: 'error',
    summary: 'A library call of another language (console.log, fmt.Println …).',
  },
  ForeignMethod: {
    code: 'foreign-method',
    category: 'foreign_keyword',
    severity: 'error',
    summary: 'A method of another language (.includes, .push, .length …).',
  },
  TypedDeclaration: {
    code: 'typed-declaration',
    category: 'foreign_keyword',
    severity: 'error',
    summary: 'A typed declaration such as `int x = 1`.',
    suggestion: 'separate',
  },
  ForeignLoop: {
    code: 'foreign-loop',
    category: 'unexpected_construct',
    severity: 'error',
    summary: 'A for … in loop of another language; AVAP loops are startLoop() … endLoop().',
  },
  ForeignIf: {
    code: 'foreign-if',
    category: 'unexpected_construct',
    severity: 'error',
    summary: 'An if statement of another language; AVAP conditions are if(a, b, comparator) … end().',
  },
  ForeignTry: {
    code: 'foreign-try',
    category: 'unexpected_construct',
    severity: 'error',
    summary: 'A try:/finally block of another language; AVAP has try() … exception(err) … end().',
  },
  ForeignElse: {
    code: 'foreign-else',
    category: 'unexpected_construct',
    severity: 'error',
    summary: 'An else written with braces or a colon; AVAP writes else().',
  },
  ElseIf: {
    code: 'else-if',
    category: 'unexpected_construct',
    severity: 'error',
    summary: 'An else-if chain; AVAP nests if() inside else().',
  },

  // ------------------------------------------- decoded entries without a known rule
  UnspecifiedUnknownToken: {
    code: 'unspecified-unknown-token',
    category: 'unknown_token',
    severity: 'error',
    summary: 'An unknown_token entry from a service that named no rule this client knows.',
    origin: 'protocol',
  },
  UnspecifiedUnexpectedConstruct: {
    code: 'unspecified-unexpected-construct',
    category: 'unexpected_construct',
    severity: 'error',
    summary: 'An unexpected_construct entry from a service that named no rule this client knows.',
    origin: 'protocol',
  },
  UnspecifiedForeignKeyword: {
    code: 'unspecified-foreign-keyword',
    category: 'foreign_keyword',
    severity: 'error',
    summary: 'A foreign_keyword entry from a service that named no rule this client knows.',
    origin: 'protocol',
  },
  UnspecifiedSyntaxError: {
    code: 'unspecified-syntax-error',
    category: 'syntax_error',
    severity: 'error',
    summary: 'A syntax_error entry from a service that named no rule this client knows.',
    origin: 'protocol',
  },
} as const satisfies Record<string, RuleSpec>;

type RuleName = keyof typeof Rule;
/** The stable code of a rule, e.g. `unknown-command`. */
export type RuleCode = (typeof Rule)[RuleName]['code'];
/** A rule of the catalogue. */
export interface RuleDefinition extends RuleSpec {
  readonly code: RuleCode;
}

/**
 * Every rule, in catalogue order.
 * @internal
 */
export const RULES: readonly RuleDefinition[] = Object.values(Rule);

/** Every code, in catalogue order (a proof numbers its findings' keys by it: fixes/prove.ts). */
export const RULE_CODES: readonly RuleCode[] = RULES.map((r) => r.code);

const byCode: ReadonlyMap<string, RuleDefinition> = new Map(RULES.map((r) => [r.code, r]));

export function isRuleCode(value: string): value is RuleCode {
  return byCode.has(value);
}

/** The definition of a code. */
export function ruleOf(code: RuleCode): RuleDefinition {
  return byCode.get(code) as RuleDefinition;
}

/** The rule a decoded entry falls back to when its code is missing or unknown to this client. */
export const UNSPECIFIED_RULE: Readonly<Record<TraceCategory, RuleDefinition>> = {
  unknown_token: Rule.UnspecifiedUnknownToken,
  unexpected_construct: Rule.UnspecifiedUnexpectedConstruct,
  foreign_keyword: Rule.UnspecifiedForeignKeyword,
  syntax_error: Rule.UnspecifiedSyntaxError,
};
