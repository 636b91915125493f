/**
 * Calls to the catalogue's commands: the block each opens or closes, what its arguments contain (templates,
 * nested calls), the names it reads and assigns for the semantic checks, and unknown names deferred to the end.
 */
import type { Block } from '../blocks';
import {
  isIdentifier,
  isIdentifierArg,
  matchBracket,
  parseCall,
  quotedIdentifier,
  type CallArg,
  type ParsedCall,
} from '../calls';
import {
  COMMANDS,
  EXPRESSION_BUILTINS,
  HALLUCINATIONS,
  findCommand,
  findCommandByLowerName,
  findHallucination,
  findHallucinationByLowerName,
  type BlockRole,
  type CommandSpec,
  type ParamSpec,
} from '../catalogue';
import { Rule } from '../catalogue/rules';
import { firstOf, lastOf, tokenAt } from '../cursor';
import { hoistFix } from '../fixes/statements';
import type { FixHint } from '../fixes/candidates';
import type { CallShape } from '../fixes/commands';
import { TokenKind, isPunct, type Token } from '../scanner';
import { abbreviate, avapWord, valueLiteral } from '../wording';
import { checkArgumentKinds, checkArity, type CommandCall } from './arity';
import type { AnalysisContext } from './context';
import { checkTemplate } from './lexicalFindings';
import { literalKind, wordLiteralKind } from './literals';
import { defer } from './names';

export function bracketProblems(ctx: AnalysisContext, t: readonly Token[], call: ParsedCall): void {
  const problem = call.problem;
  if (!problem) return;
  const name = tokenAt(t, call.nameIndex).text;
  if (problem.kind === 'unclosed') {
    const end = lastOf(t).end;
    const closable = !t.some((x) => x.unterminated);
    ctx.report({
      rule: Rule.UnclosedCall,
      start: problem.token.start,
      end: ctx.lineEnd,
      message: `missing ')' — the call to '${name}' is not closed on this line`,
      token: '(',
      hint: closable ? { title: "Insert the missing ')'", edits: [{ start: end, end, newText: ')' }] } : undefined,
    });
  } else {
    ctx.report({
      rule: Rule.MismatchedBracket,
      start: problem.token.start,
      end: problem.token.end,
      message: `mismatched '${problem.token.text}' in the call to '${name}' — expected '${problem.expected ?? ')'}'`,
      token: problem.token.text,
    });
  }
}

/** Checks a call to a catalogue command, or defers an unknown name. Returns the block it opened. */
export function checkCommand(
  ctx: AnalysisContext,
  t: Token[],
  call: ParsedCall,
  context: 'statement' | 'assignment',
): Block | undefined {
  const nameToken = t[call.nameIndex]; // read directly: this runs for every command call
  if (nameToken === undefined) return undefined; // parseCall's name index is on the line
  const name = nameToken.text;
  const spec = findCommand(name);
  checkArgumentContents(ctx, t, call);
  if (!spec) {
    const role = structuralRole(name);
    const block = role ? applyRole(ctx, role, nameToken) : undefined;
    const closeToken = call.closeIndex >= 0 ? tokenAt(t, call.closeIndex) : nameToken;
    ctx.pending.push({
      name,
      argCount: call.args.length,
      line: ctx.lineNo,
      column: ctx.col(nameToken.start),
      endColumn: ctx.col(nameToken.end),
      context,
      text: ctx.src.slice(nameToken.start, closeToken.end),
      shape: callShape(t, call, context),
    });
    return block;
  }
  const command: CommandCall = { t, call, spec, context };
  const params = checkArity(ctx, command);
  if (params) {
    checkArgumentKinds(ctx, command, params);
    semanticChecks(ctx, command, params);
  }
  if (spec.resultOnlyByAssignment && context === 'statement') {
    ctx.report({
      rule: Rule.DiscardedResult,
      start: nameToken.start,
      end: nameToken.end,
      message: `the result of '${name}' is discarded — assign it: conn = ${name}(…)`,
      token: name,
    });
  }
  return applyRole(ctx, spec.block, nameToken);
}

/**
 * What the semantic warnings need from a well-formed command call
 * (semantics.ts): its bare keys, the names it assigns (after the keys: a key
 * of a call is read before its target is written), and addVar's literals.
 */
function semanticChecks(ctx: AnalysisContext, command: CommandCall, params: readonly ParamSpec[]): void {
  const { t, call, spec, context } = command;
  const args = call.args;
  for (let i = 0; i < args.length; i++) {
    const param = params[i];
    const arg = args[i];
    if (!param?.key || !arg) continue;
    const x = t[arg.first];
    if (arg.last - arg.first !== 1 || x?.kind !== TokenKind.Ident) continue;
    ctx.sem.key({
      name: x.text,
      command: spec.name,
      line: ctx.lineNo,
      column: ctx.col(x.start),
      endColumn: ctx.col(x.end),
      start: x.start,
      end: x.end,
    });
  }
  if (spec.name === 'addVar' && context === 'statement') addVarLiteral(ctx, t, call);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (params[i]?.kind !== 'target' || !arg) continue;
    const name = isIdentifierArg(t, arg) ? arg.text : quotedIdentifier(t, arg);
    if (name !== undefined) ctx.sem.assign(name, ctx.lineNo);
  }
}

/** `addVar(rows, [])`: the specification's addVar stores anything but a variable or a number as text. */
function addVarLiteral(ctx: AnalysisContext, t: readonly Token[], call: ParsedCall): void {
  const [target, value] = call.args;
  if (!target || !value) return;
  const what = literalKind(t, value);
  if (!what) return;
  const whole = !call.problem && call.nameIndex === 0 && call.closeIndex === t.length - 1;
  reportStoredLiteral(
    ctx,
    value,
    what,
    // A proof's re-analysis reads the rule and line only: the words and the fix were most of the finding's cost.
    ctx.rep.wordless
      ? undefined
      : {
          name: isIdentifierArg(t, target) ? target.text : quotedIdentifier(t, target),
          literal: valueLiteral(t, value),
          statement: whole ? { start: firstOf(t).start, end: tokenAt(t, call.closeIndex).end } : undefined,
        },
  );
}

/**
 * addVar's value as the plain reader reads a whole-line call of one-token arguments (plainLines.ts): when it is a
 * word addVar stores as text, the finding addVarLiteral reports for it. `name`: the target, when it is a name.
 */
export function reportStoredWord(
  ctx: AnalysisContext,
  word: { start: number; end: number; text: string },
  name: string | undefined,
  statement: { start: number; end: number },
): void {
  const what = wordLiteralKind(word.text);
  if (!what) return;
  const words = ctx.rep.wordless ? undefined : { name, literal: avapWord(word.text), statement };
  reportStoredLiteral(ctx, word, what, words);
}

/** What the words and the fix of addVar's literal say (see reportStoredLiteral). */
interface StoredLiteralWords {
  /** The target, when it is a name (`x` or `"x"`). */
  name: string | undefined;
  /** The value as an assignment writes it (wording.ts valueLiteral). */
  literal: string;
  /** The statement's range, when the call is all of it: the fix rewrites it as an assignment. */
  statement: { start: number; end: number } | undefined;
}

/**
 * The `literal-stored-as-text` finding of addVar's `value`, a literal that is `what` (literals.ts literalKind), for
 * the statement checks and the plain reader (plainLines.ts) alike. Without `words` (a wordless reporter), the
 * finding has no words and no fix.
 */
export function reportStoredLiteral(
  ctx: AnalysisContext,
  value: { start: number; end: number; text: string },
  what: string,
  words: StoredLiteralWords | undefined,
): void {
  if (!words) {
    ctx.report({ rule: Rule.LiteralStoredAsText, start: value.start, end: value.end, message: '', token: '' });
    return;
  }
  const { name, literal, statement } = words;
  const assignment = name === undefined ? undefined : `${name} = ${literal}`;
  const hint =
    assignment !== undefined && statement
      ? {
          title: `Assign the value: ${abbreviate(assignment, 40)}`,
          edits: [{ start: statement.start, end: statement.end, newText: assignment }],
        }
      : undefined;
  const shown = abbreviate(value.text, 30);
  ctx.report({
    rule: Rule.LiteralStoredAsText,
    start: value.start,
    end: value.end,
    message:
      `addVar stores ${shown} as the text "${shown}", not as ${what} — ` +
      `assign the value instead: ${assignment ?? `name = ${literal}`}`,
    token: value.text,
    hint,
  });
}

/** A call that is the whole statement, as a fix that rewrites it needs it. */
export function callShape(
  t: readonly Token[],
  call: ParsedCall,
  context: 'statement' | 'assignment',
): CallShape | undefined {
  if (call.problem || call.closeIndex !== t.length - 1) return undefined;
  const first = firstOf(t);
  return {
    start: first.start,
    end: tokenAt(t, call.closeIndex).end,
    target: context === 'assignment' ? first.text : undefined,
    args: call.args.map((a) => ({ text: a.text, name: isIdentifierArg(t, a) ? a.text : quotedIdentifier(t, a) })),
  };
}

/**
 * The lengths of the names structuralRole can answer for (the lower-cased names of the known invented names with a
 * block role and of the block commands): a name of any other length has none, and most names the analysis asks about
 * (the user's functions, invented names) are longer — one comparison where three look-ups and a lower-cased copy
 * were. Lower-casing keeps a name's length when the result is ASCII, as these names are (else no bound is used).
 */
const ROLE_LENGTHS = ((): { min: number; max: number } => {
  const names = [
    ...HALLUCINATIONS.filter((h) => h.structuralAs !== undefined).map((h) => h.name),
    ...COMMANDS.filter((c) => c.block !== undefined).map((c) => c.name),
  ];
  const lengths = names.flatMap((n) => [n.length, n.toLowerCase().length]);
  // eslint-disable-next-line no-control-regex
  if (names.length === 0 || !names.every((n) => /^[\x00-\x7f]*$/.test(n))) return { min: 0, max: Infinity };
  return { min: Math.min(...lengths), max: Math.max(...lengths) };
})();

/** The block role a name that is no command stands for (a hallucinated or miscased closer or opener), if any. */
export function structuralRole(name: string): BlockRole | undefined {
  if (name.length < ROLE_LENGTHS.min || name.length > ROLE_LENGTHS.max) return undefined;
  const hallucination = findHallucination(name);
  if (hallucination?.structuralAs) return findCommand(hallucination.structuralAs)?.block;
  // Lower-cased once for both look-ups (findCommandByLowerName); an exact spelling found above comes first.
  const lower = name.toLowerCase();
  const sameLetters = findCommandByLowerName(lower);
  if (sameLetters) return sameLetters.block;
  const otherCase = (hallucination ?? findHallucinationByLowerName(lower))?.structuralAs;
  return otherCase ? findCommand(otherCase)?.block : undefined;
}

export function applyRole(ctx: AnalysisContext, role: BlockRole | undefined, at: Token): Block | undefined {
  if (!role) return undefined;
  switch (role) {
    case 'open-if':
      return openBlock(ctx, 'if', at);
    case 'open-loop':
      return openBlock(ctx, 'loop', at);
    case 'open-try':
      return openBlock(ctx, 'try', at);
    case 'open-async':
      return openBlock(ctx, 'async', at);
    case 'else':
      ctx.blocks.else(ctx.site(at));
      return ctx.blocks.top;
    case 'exception':
      ctx.blocks.exception(ctx.site(at));
      return ctx.blocks.top;
    case 'end':
      ctx.blocks.end(ctx.site(at));
      return undefined;
    case 'end-loop':
      ctx.blocks.endLoop(ctx.site(at));
      return undefined;
  }
}

function openBlock(ctx: AnalysisContext, kind: Block['kind'], at: Token): Block {
  const block: Block = {
    kind,
    line: ctx.lineNo,
    column: ctx.col(at.start),
    endColumn: ctx.col(at.end),
    token: at.text,
  };
  ctx.blocks.push(block);
  return block;
}

/** Templates, $globals and calls nested inside raw-text arguments. */
export function checkArgumentContents(ctx: AnalysisContext, t: readonly Token[], call: ParsedCall): void {
  for (const arg of call.args) {
    for (let i = arg.first; i < arg.last; i++) {
      const x = t[i];
      if (x?.kind === TokenKind.Template) checkTemplate(ctx, x);
    }
    const head = t[arg.first];
    if (!head || head.kind !== TokenKind.Ident || !isPunct(t[arg.first + 1], '(')) continue;
    if (matchBracket(t, arg.first + 1) !== arg.last - 1) continue;
    const name = head.text;
    const spec = findCommand(name);
    if (spec) {
      ctx.report({
        rule: Rule.NestedCommand,
        start: arg.start,
        end: arg.end,
        message: `command '${name}' is not accepted inside an argument (this parser's rule: the specification gives an argument as a literal or a variable name) — call it on its own line and pass its target variable`,
        token: name,
        hint: nestedCommandFix(ctx, t, arg, spec),
      });
    } else if (EXPRESSION_BUILTINS.has(name)) {
      literalCallWarning(ctx, arg.start, arg.end, arg.text);
    } else {
      const inner = parseCall(ctx.src, t, arg.first + 1, ctx.lineEnd);
      defer(ctx, head, { argCount: inner.args.length, context: 'argument', text: arg.text });
    }
  }
}

function literalCallWarning(ctx: AnalysisContext, start: number, end: number, text: string): void {
  ctx.report({
    rule: Rule.LiteralCall,
    start,
    end,
    message: `'${abbreviate(text, 30)}' in an argument: the specification reads it as that text, the reference implementation fails on it ('Command not found') — compute it first: value = ${abbreviate(text, 30)}`,
    token: text,
    hint: hoistFix(ctx.lineStart, { start, end }, { names: ['value'], before: (name) => `${name} = ${text}` }),
  });
}

/** `addVar(x, encodeSHA256(a, h))` → `encodeSHA256(a, h)` on the line before, and `addVar(x, h)`. */
function nestedCommandFix(
  ctx: AnalysisContext,
  t: readonly Token[],
  arg: CallArg,
  spec: CommandSpec,
): FixHint | undefined {
  if (spec.block) return undefined;
  const inner = parseCall(ctx.src, t, arg.first + 1, ctx.lineEnd);
  const params = spec.params;
  const target = params[params.length - 1];
  if (inner.problem || target?.kind !== 'target' || params.some((p) => p.kind === 'target' && p !== target))
    return undefined;
  const args = inner.args.map((a) => a.text);
  const call = (name: string) => `${spec.name}(${[...args, name].join(', ')})`;
  if (args.length === params.length) {
    const given = args.pop() as string;
    if (!isIdentifier(given)) return undefined;
    return hoistFix(ctx.lineStart, arg, { names: [], before: call, given });
  }
  if (args.length !== params.length - 1) return undefined;
  return hoistFix(ctx.lineStart, arg, { names: ['value'], before: call });
}
