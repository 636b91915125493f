/**
 * The syntax tree of an AVAP program: every physical line is one statement of a
 * known kind (or `unparsed`, which keeps its text), and the statements nest in
 * blocks (if/else/end, startLoop/endLoop, try/exception/end, go_async/end,
 * function bodies in braces). Offsets are UTF-16 offsets into the source, `end`
 * exclusive; lines are 1-based.
 */

export interface Span {
  readonly start: number;
  readonly end: number;
}

/** A name in the source: a command, a variable, a function or one of its parameters. */
export interface Name {
  readonly text: string;
  readonly span: Span;
}

/** One argument of a call: the raw text between top-level commas, trimmed ('' for an empty argument). */
export interface SyntaxArgument {
  readonly text: string;
  readonly span: Span;
}

/** What a call does to the block structure (from the command catalogue). */
export type BlockRole = 'open-if' | 'else' | 'end' | 'open-loop' | 'end-loop' | 'open-try' | 'exception' | 'open-async';

interface StatementBase {
  /** 1-based line of the statement. */
  readonly line: number;
  /** The statement's text without leading blanks and without a trailing comment. */
  readonly span: Span;
  /** A `//` or `/* … *\/` comment after the statement on the same line. */
  readonly comment?: Span;
}

/** `name(arg, …)`, or `target = name(arg, …)`. */
export interface CallStatement extends StatementBase {
  readonly kind: 'call';
  readonly name: Name;
  readonly args: readonly SyntaxArgument[];
  /** The `(` and, when the line has it, the matching `)`. */
  readonly open: Span;
  readonly close?: Span;
  /** `target = name(…)`: the variable the call's result goes to. */
  readonly target?: Name;
  /** Its part in the block structure, for the block commands. */
  readonly role?: BlockRole;
  /** Text after the closing parenthesis (`if(a, b, =) {`): the statement is not well formed. */
  readonly trailing?: Span;
  /** A problem inside the call's text (an unclosed parenthesis or string). */
  readonly flaw?: string;
}

/** `target = expression` (an expression that is not a single command or function call). */
export interface AssignStatement extends StatementBase {
  readonly kind: 'assign';
  readonly target: Name;
  readonly value: SyntaxArgument;
  readonly flaw?: string;
}

/** `function name(a, b) {` (the brace may stand alone on the next line). */
export interface FunctionStatement extends StatementBase {
  readonly kind: 'function';
  readonly name: Name;
  readonly params: readonly Name[];
  /** The `{` on the header line, when it is there. */
  readonly brace?: Span;
}

/** `return expression`, `return(expression)` or a bare `return`. */
export interface ReturnStatement extends StatementBase {
  readonly kind: 'return';
  readonly keyword: Span;
  readonly value?: SyntaxArgument;
}

/** A line holding only `{` (a function body that opens on the line after its header) or only `}`. */
export interface BraceStatement extends StatementBase {
  readonly kind: 'open-brace' | 'close-brace';
}

/** A line that holds only a comment (or lies inside a block comment). */
export interface CommentStatement extends StatementBase {
  readonly kind: 'comment';
}

export interface BlankStatement extends StatementBase {
  readonly kind: 'blank';
}

/** A line that is not AVAP as this tree reads it; `text` keeps it, `reason` says why. */
export interface UnparsedStatement extends StatementBase {
  readonly kind: 'unparsed';
  readonly text: string;
  readonly reason: string;
}

export type Statement =
  | CallStatement
  | AssignStatement
  | FunctionStatement
  | ReturnStatement
  | BraceStatement
  | CommentStatement
  | BlankStatement
  | UnparsedStatement;

export type StatementKind = Statement['kind'];

export type BlockKind = 'if' | 'loop' | 'try' | 'async' | 'function';

/** A block: its opener, its body, an optional divider (else()/exception()) with the branch after it, and its closer. */
export interface SyntaxBlock {
  readonly kind: 'block';
  readonly block: BlockKind;
  readonly opener: CallStatement | FunctionStatement;
  readonly body: readonly SyntaxNode[];
  readonly divider?: CallStatement;
  readonly alternate?: readonly SyntaxNode[];
  /** end(), endLoop() or `}`; absent when the block is never closed (it then runs to the end of the file). */
  readonly closer?: Statement;
  /** For a function whose `{` stands on its own line. */
  readonly brace?: BraceStatement;
  /** From the opener's start to the closer's end (or the last statement inside). */
  readonly span: Span;
}

export type SyntaxNode = Statement | SyntaxBlock;

export type SyntaxProblemCode =
  | 'unparsed-line'
  | 'unclosed-block'
  | 'stray-closer'
  | 'stray-divider'
  | 'duplicate-divider'
  | 'missing-brace'
  | 'nested-function';

/** A structural problem; the parser (src/parser) is the authority on validity, these only explain the tree. */
export interface SyntaxProblem {
  readonly code: SyntaxProblemCode;
  readonly line: number;
  readonly span: Span;
  readonly message: string;
}

export interface SyntaxTree {
  readonly source: string;
  /** Offset of the first character of each line (index 0 is line 1). */
  readonly lineStarts: readonly number[];
  /** Every line's statement, in source order (one per line). */
  readonly statements: readonly Statement[];
  /** The top level, with blocks nested. */
  readonly body: readonly SyntaxNode[];
  /** Every function definition, in source order. */
  readonly functions: readonly SyntaxBlock[];
  readonly problems: readonly SyntaxProblem[];
}

/** A 0-based line and UTF-16 character, as editors count them. */
export interface Position {
  readonly line: number;
  readonly character: number;
}
