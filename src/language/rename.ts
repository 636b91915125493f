/**
 * Rename of a variable or a user function — every definition and use at once
 * (quoted arguments keep their quotes, `$name` its `$`, `${name}` its braces) —
 * refused, with the reason, wherever it would change what the program does:
 *
 * - the new name is not a plain name, or is a word AVAP gives a meaning of its
 *   own (a command, a keyword, an expression built-in, another language's
 *   keyword the parser refuses);
 * - it collides with a variable or a function of the document;
 * - a word that is text today would then name the renamed variable (quotes
 *   do not help: they are stripped before a command sees its argument);
 * - a use of the variable is text on a loop's first pass and the variable on
 *   the next ones (renaming either half changes the other);
 * - the variable's name is itself output: addResult() puts it in the response
 *   under its own name.
 *
 * Last, the renamed program is read again as a whole: what every name stands
 * for must be the same as before, or nothing is renamed.
 */
import {
  COMMANDS,
  EXPRESSION_BUILTINS,
  findCommand,
  findForeignStatement,
  findHallucination,
} from '../parser/catalogue';
import { fail, ok, type Failure, type Result } from '../result';
import { AvapDocument } from './document';
import { sameSymbol } from './navigation';
import type { Occurrence } from './symbols';
import type { Position, Range, TextEdit } from './text';
import { isIdentifierText, NOT_A_VARIABLE } from './words';

export type RenameRefusal = Failure<
  'not-a-symbol' | 'invalid-name' | 'reserved-name' | 'collision' | 'would-resolve' | 'ambiguous' | 'output-name'
>;

export interface RenameTarget {
  readonly range: Range;
  readonly placeholder: string;
  readonly symbol: 'variable' | 'function';
}

const line1 = (o: { line: number }) => `line ${o.line + 1}`;
const RESERVED = new Set(['function', 'return', ...COMMANDS.map((c) => c.name)]);

/** What F2 would rename at `p`, or why nothing can be. */
export function prepareRename(doc: AvapDocument, p: Position): Result<RenameTarget, RenameRefusal> {
  const o = doc.symbols.at(doc.offsetAt(p));
  if (!o) {
    const command = doc.symbols.commands.find((c) => c.start <= doc.offsetAt(p) && doc.offsetAt(p) <= c.end);
    return fail(
      'not-a-symbol',
      command
        ? `'${command.name}' is an AVAP command; only variables and user functions can be renamed`
        : 'only a variable or a user function can be renamed',
    );
  }
  if (o.role === 'text')
    return fail(
      'not-a-symbol',
      `'${o.name}' here is text, not a variable: no variable '${o.name}' is assigned before ${line1(o)}, so the command gets the word itself`,
    );
  return ok({ range: doc.rangeOf(o), placeholder: o.name, symbol: o.symbol });
}

function reservedReason(name: string): string | undefined {
  if (!isIdentifierText(name)) return `'${name}' is not a name: use letters, digits and _, not starting with a digit`;
  if (findCommand(name)) return `'${name}' is an AVAP command`;
  if (RESERVED.has(name) || NOT_A_VARIABLE.has(name)) return `'${name}' is a word of AVAP itself`;
  if (EXPRESSION_BUILTINS.has(name)) return `'${name}' is an expression built-in`;
  if (findForeignStatement(name)) return `'${name}' is a keyword of another language, which the parser refuses`;
  if (findHallucination(name)) return `'${name}' is a known invented command name, which the parser flags`;
  return undefined;
}

/** Why renaming the symbol of `o` to `newName` would change meaning, or undefined when it would not. */
function meaningChange(doc: AvapDocument, o: Occurrence, newName: string): RenameRefusal | undefined {
  const index = doc.symbols;
  const fn = index.functions.get(newName);
  if (fn) return { kind: 'collision', message: `'${newName}' is already a function (defined on ${line1(fn)})` };
  const defs = index.definitions.get(newName);
  if (defs?.[0])
    return {
      kind: 'collision',
      message: `'${newName}' is already a variable (assigned on ${line1(defs[0])}): the two would become one`,
    };
  if (o.symbol === 'function') {
    const called = index.tree.statements.find((s) => s.kind === 'call' && s.name.text === newName);
    if (called) return { kind: 'collision', message: `'${newName}' is called on line ${called.line} already` };
  }
  if (o.symbol === 'function' && findCommand(o.name))
    return {
      kind: 'ambiguous',
      message: `'${o.name}' is also an AVAP command: which one each call means is for the parser's finding to settle first`,
    };
  const mine = sameSymbol(doc, o);
  if (o.symbol === 'variable') {
    const either = mine.find((x) => x.role === 'either');
    if (either)
      return {
        kind: 'ambiguous',
        message: `'${o.name}' on ${line1(either)} is text on the loop's first pass and the variable on the next ones; renaming it would change one of them`,
      };
    const output = mine.find((x) => x.command === 'addResult');
    if (output)
      return {
        kind: 'output-name',
        message: `addResult(${o.name}) on ${line1(output)} puts the variable in the response under its name: renaming it changes the response`,
      };
  }
  const renamedDefs = mine.filter((x) => x.role === 'definition');
  for (const x of index.occurrences) {
    if (x.name !== newName || x.role === 'definition') continue;
    const role = o.symbol === 'variable' ? index.classify(x, renamedDefs) : 'reference';
    if (role !== 'text')
      return {
        kind: 'would-resolve',
        message: `'${newName}' on ${line1(x)} is ${x.quoted ? 'quoted ' : ''}text today; after the rename it would name the renamed ${o.symbol}${x.quoted ? ' (quotes are stripped before a command sees an argument)' : ''}`,
      };
  }
  return undefined;
}

/**
 * Whether every name of the renamed program stands for what it did (symbol, role, how), the renamed symbol's
 * occurrences read with their new name: a rename keeps that, or it changed what some word means. Compared
 * occurrence by occurrence, without a string of either. (That the parser's findings stay the same too is proven
 * over the corpus by test/unit/language/rename.test.ts, not paid for on every rename.)
 */
function sameMeaning(doc: AvapDocument, renamed: AvapDocument, from: Occurrence, to: string): boolean {
  const before = doc.symbols.occurrences;
  const after = renamed.symbols.occurrences;
  if (before.length !== after.length) return false;
  for (let i = 0; i < before.length; i++) {
    const x = before[i] as Occurrence;
    const y = after[i] as Occurrence;
    const isRenamed = x.name === from.name && x.symbol === from.symbol && x.role !== 'text';
    if ((isRenamed ? to : x.name) !== y.name || x.symbol !== y.symbol || x.role !== y.role || x.how !== y.how)
      return false;
  }
  return true;
}

/** The edits that rename the symbol at `p` to `newName`, or why it is refused. */
export function rename(doc: AvapDocument, p: Position, newName: string): Result<TextEdit[], RenameRefusal> {
  const target = prepareRename(doc, p);
  if (!target.ok) return target;
  const o = doc.symbols.at(doc.offsetAt(p)) as Occurrence;
  if (newName === o.name) return ok([]);
  const reserved = reservedReason(newName);
  if (reserved) return fail(isIdentifierText(newName) ? 'reserved-name' : 'invalid-name', reserved);
  const change = meaningChange(doc, o, newName);
  if (change) return { ok: false, error: change };
  const spans = sameSymbol(doc, o);
  let text = '';
  let at = 0;
  for (const x of spans) {
    text += doc.text.slice(at, x.start) + newName;
    at = x.end;
  }
  text += doc.text.slice(at);
  if (!sameMeaning(doc, new AvapDocument(text, { variantOf: doc }), o, newName))
    return fail(
      'would-resolve',
      `renaming '${o.name}' to '${newName}' would change what a name of the program stands for`,
    );
  return ok(spans.map((x) => ({ range: doc.rangeOf(x), newText: newName })));
}
