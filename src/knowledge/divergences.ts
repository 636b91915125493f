/**
 * What an example that depends on a divergence shows its reader (a model in
 * the few-shot prompt, a person in the docs): one short sentence per
 * divergence, about what AVAP Lite (the reference implementation) does
 * instead. The ids are the runtime's portability rules
 * (src/runtime/portability.ts), which the knowledge layer does not import:
 * the unit suite checks that this table names every rule an example can
 * declare, and nothing else.
 */

/** @internal */
export const DIVERGENCE_NOTES: Readonly<Record<string, string>> = {
  'addparam-numeric-text': 'addParam keeps a numeric parameter as text ("08001" stays "08001")',
  'addparam-name-variable': 'addParam reads the parameter named by its literal text, never by a variable',
  'if-second-operand': "if() takes its second operand as written, never as a variable's value",
  'if-expression-form': 'the expression form if(None, None, "…") is never true, so the else branch runs',
  'if-in-comparator': 'the comparator in is never true',
  'try-handler-without-error':
    'the exception() handler runs even when nothing failed (its variable reads "No error detected")',
  'try-continues-after-error': 'the rest of a try() body still runs after the statement that failed',
  'try-inside-block': "a try() inside an if() or a loop closes that block with the try's end()",
  'return-inside-block': 'return inside an if() or a loop does not end the function',
  'function-local-in-command': "commands inside a function do not see the function's parameters and locals",
  'assignment-shadow': 'an expression reads the value of the last `x = …` assignment, even after a command changed x',
  'global-reference': '$name is the text "$name", not the variable',
  template: 'backtick templates are not filled: the text keeps the backticks and ${…}',
  'empty-argument': 'an empty argument is dropped and the arguments after it move left',
  'argument-expression': 'a command argument with an operator is evaluated, and a call in it runs',
  'line-with-equals': "a command call with '=' in its arguments is read as an assignment",
  'comma-in-brackets': 'a comma inside [ ], { } or backticks splits the argument',
  'trailing-comment': 'a // comment after code on the same line is read as code',
  'block-comment': 'the lines inside /* … */ run',
  'builtin-call-alone': 'x = str(v), a value that is one call alone, runs as a command of that name and fails',
};

/** The sentence shown with an example that declares divergences ('' when it declares none). */
export function divergenceNote(ids: readonly string[] | undefined): string {
  const notes = (ids ?? []).map((id) => DIVERGENCE_NOTES[id] ?? id);
  return notes.length ? `On AVAP Lite (the reference implementation): ${notes.join('; ')}.` : '';
}
