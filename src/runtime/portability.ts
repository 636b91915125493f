/**
 * Where the specification and the reference implementation (AVAP Lite,
 * init.sql command set) disagree, the runtime does what the specification
 * says, and a run that depends on the difference reports it: each rule below
 * is one divergence, with both behaviours in a sentence. docs/semantics.md
 * lists the same rules with the scripts that show them (docs/facts/reference/).
 */
import type { PortabilityNote } from './types';

export interface PortabilityRule {
  readonly id: string;
  /** What the runtime does (the specification, or the documentation where the specification is silent). */
  readonly spec: string;
  /** What AVAP Lite does instead. */
  readonly reference: string;
  /** Fact files (docs/facts/reference/<slug>.json) that show the reference's side. */
  readonly facts: readonly string[];
}

function rule(id: string, spec: string, reference: string, facts: readonly string[] = []): PortabilityRule {
  return { id, spec, reference, facts };
}

/** @internal */
export const PORTABILITY_RULES = [
  rule(
    'addparam-numeric-text',
    'addParam converts numeric text to a number (08001 → 8001)',
    'addParam keeps the text as it came ("08001")',
    [
      'addparam-numeric-text',
      'kb-addparam-keeps-numeric-text',
      'kb-param-text-in-expressions',
      'kb-if-numeric-param-text',
    ],
  ),
  rule(
    'addparam-name-variable',
    'addParam resolves its parameter-name argument: a name that is a variable stands for its value',
    'addParam reads the parameter whose name is the literal text',
    ['addparam-name-literal', 'kb-addparam-name-is-literal'],
  ),
  rule(
    'if-second-operand',
    'if() resolves its second operand from the variables when it names one',
    "if() compares with the second operand's text, never a variable",
    ['if-second-operand-variable', 'if-second-operand-equality', 'kb-if-right-operand-not-resolved'],
  ),
  rule(
    'if-expression-form',
    'if(None, None, "expression") evaluates the quoted expression',
    'the expression form is never true: the else branch runs',
    ['if-expression-form', 'kb-if-expression-form-not-evaluated'],
  ),
  rule('if-in-comparator', 'if(a, b, in) tests membership', "the comparator 'in' is never true", [
    'if-in-comparator',
    'kb-if-in-comparator-not-implemented',
  ]),
  rule(
    'try-handler-without-error',
    'the exception() handler runs only when something in the try() body failed',
    'the handler runs even when nothing failed (its variable gets "No error detected")',
    ['try-handler-runs-without-error', 'kb-try-handler-runs-without-error'],
  ),
  rule(
    'try-continues-after-error',
    'an error in the try() body jumps to the exception() handler',
    'the rest of the try() body still runs after the failing statement',
    ['try-continues-after-error', 'kb-try-body-continues-after-failure'],
  ),
  rule(
    'try-inside-block',
    'try() … end() inside another block closes only the try',
    "the try's end() closes the enclosing block instead (try and exception are flat commands there)",
    ['try-inside-if-closes-the-if'],
  ),
  rule(
    'return-inside-block',
    'return inside an if() or a loop ends the function',
    'return ends the function only at the top of its body; inside a block it is ignored',
    ['return-inside-if'],
  ),
  rule(
    'function-local-in-command',
    "a command inside a function sees the function's parameters and local variables",
    'commands see only the top-level variables: a parameter name is read as its text',
    ['function-parameter-in-command', 'kb-function-commands-miss-parameters'],
  ),
  rule(
    'assignment-shadow',
    'an expression reads the current value of a variable',
    'an expression reads the value of the last `x = …` assignment, even after a command changed x',
    ['assignment-then-addvar'],
  ),
  rule('global-reference', '$name reads the top-level variable name', '$name is passed as the text "$name"', [
    'dollar-global',
    'kb-dollar-prefix-not-resolved',
  ]),
  rule(
    'template',
    'a backtick template `…${name}…` is filled with the values',
    'templates are not filled: the text keeps the backticks and ${name}',
    ['template-not-filled', 'kb-template-not-interpolated'],
  ),
  rule(
    'empty-argument',
    'an empty argument keeps its place (RequestGet(url, , , r) stores into r)',
    'empty arguments are dropped, so the ones after them move left',
    ['if-empty-operand', 'kb-blank-argument-dropped'],
  ),
  rule(
    'argument-expression',
    'a command argument is a variable, a number or text: `a + 1` is the text "a + 1", `f(2)` the text "f(2)"',
    'an argument with an operator is evaluated as a Python expression when it can be, and one that is a call runs it',
    ['addvar-expression-argument', 'addvar-signed-decimal-text', 'kb-call-inside-argument'],
  ),
  rule(
    'line-with-equals',
    "a command call whose arguments contain '=' is a command call",
    "a line with '=' anywhere is read as an assignment `x = …` split at the first '='",
    ['command-with-equals', 'kb-equals-sign-in-argument'],
  ),
  rule(
    'comma-in-brackets',
    'commas inside [ ], { } or backticks do not split arguments',
    'only parentheses and quotes protect a comma: the argument is split there',
    ['addvar-dict-literal-argument'],
  ),
  rule(
    'trailing-comment',
    'a // comment after a statement is a comment',
    "only lines that start with // are comments: a trailing comment is read as code (it breaks an assignment, or a call when it holds ')' or '=')",
    ['trailing-comment', 'kb-trailing-comment-after-assignment'],
  ),
  rule(
    'block-comment',
    'the lines between /* and */ are a comment',
    'only lines that start with // are comments: a call on a line inside /* … */ runs',
    ['block-comment-lines-run'],
  ),
  rule(
    'builtin-call-alone',
    'x = str(v) (or int, float, len, and any value that ends in a call) evaluates the expression',
    "a value with '(' that ends in ')' and has no + - * / is run as a command of that name: 'Command not found: str'",
    ['assign-str-call', 'kb-builtin-call-alone-is-command', 'kb-format-tuple-alone-is-command'],
  ),
  rule(
    'command-not-in-reference',
    'every command of the command reference runs',
    "AVAP Lite implements only addVar, addResult, addParam, if, startLoop, RequestGet, RequestPost, try and exception: others answer 'Command not found'",
    ['json-commands-missing'],
  ),
] as const satisfies readonly PortabilityRule[];

export type PortabilityRuleId = (typeof PORTABILITY_RULES)[number]['id'];

const BY_ID: ReadonlyMap<string, PortabilityRule> = new Map(PORTABILITY_RULES.map((r) => [r.id, r]));

/** The notes of one run: one per rule and line, in the order they happened. */
export class PortabilityLog {
  private readonly seen = new Set<string>();
  readonly notes: PortabilityNote[] = [];

  note(id: PortabilityRuleId, line: number, detail?: string): void {
    const key = `${id}@${line}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const r = BY_ID.get(id) as PortabilityRule;
    this.notes.push({
      line,
      rule: id,
      spec: r.spec,
      reference: detail === undefined ? r.reference : `${r.reference} (${detail})`,
    });
  }
}
