/**
 * Names that are neither commands nor language words: calls inside expressions and arguments, deferred to
 * the end of the file (a function may be defined after its first call), then resolved against the functions.
 */
import { EXPRESSION_BUILTINS, findCommand, signatureOf } from '../catalogue';
import { Rule } from '../catalogue/rules';
import { inventedCallFix } from '../fixes/commands';
import { NEAR_NAME_CELLS_FLOOR, NEAR_NAME_CELLS_PER_CHAR, NearNames } from '../nearNames';
import { pendingRule, type PendingCall } from '../pendingCalls';
import type { Token } from '../scanner';
import { shownAmong, traceEntry, type Describer, type Reporter } from '../reporter';
import type { TraceEntry } from '../types';
import type { FixHint } from '../fixes/candidates';
import { MAX_COMPARED_LENGTH, MAX_THRESHOLD, suggestName } from '../suggest';
import { abbreviate, plural } from '../wording';
import type { AnalysisContext } from './context';

export function noteCall(ctx: AnalysisContext, nameToken: Token, argCount: number): void {
  const name = nameToken.text;
  if (EXPRESSION_BUILTINS.has(name)) return;
  const spec = findCommand(name);
  if (spec) {
    ctx.report({
      rule: Rule.NestedCommand,
      start: nameToken.start,
      end: nameToken.end,
      message: `command '${name}' is not accepted inside an expression (this parser's rule: commands are statements) — run it on its own line: ${signatureOf(spec)}`,
      token: name,
    });
    return;
  }
  defer(ctx, nameToken, { argCount, context: 'expression', text: name });
}

/** A call of `nameToken` that is not a command: resolved against the functions at the end of the file. */
export function defer(
  ctx: AnalysisContext,
  nameToken: Token,
  call: Pick<PendingCall, 'argCount' | 'context' | 'text'>,
): void {
  const { argCount, context, text } = call;
  ctx.pending.push({
    name: nameToken.text,
    argCount,
    line: ctx.lineNo,
    column: ctx.col(nameToken.start),
    endColumn: ctx.col(nameToken.end),
    context,
    text,
  });
}

/** The words of an unknown name's finding: its message, the name to put in its place, a rewrite of its call. */
interface UnknownWords {
  message: string;
  replacement: string | undefined;
  hint: FixHint | undefined;
}

function describeUnknown(p: PendingCall, userFunctions: NearNames): UnknownWords {
  const suggestion = suggestName(p.name, userFunctions, p.argCount);
  const kind = p.context === 'statement' || p.context === 'assignment' ? 'command' : 'function';
  const note = suggestion.note ? ` (${suggestion.note})` : '';
  // A name whose arguments are not the unknown one's is advice: its signature says what it needs.
  const equivalent = suggestion.name && !suggestion.exact ? findCommand(suggestion.name) : undefined;
  const takes = equivalent ? ` — it takes ${signatureOf(equivalent)}: map the arguments to it` : '';
  const message = suggestion.name
    ? `'${p.name}' not defined — did you mean '${suggestion.name}'?${note}${takes}`
    : `unknown ${kind} '${p.name}' — expected known identifier${note}`;
  const hint = suggestion.name && p.shape ? inventedCallFix(p.name, p.shape) : undefined;
  return { message, replacement: suggestion.exact ? suggestion.name : undefined, hint };
}

/**
 * The unknown names of one end of file, reported without their words (Reporter.wordsWhenShown): a file whose
 * trace is capped shows a few of them, and the near-name search of the others was most of its cost. Their words
 * are those the names would have got in report order: the searches share one budget (nearNames.ts), so unless no
 * search can exhaust it, every name up to the last one shown is searched, in order.
 */
class UnknownNames implements Describer {
  readonly entries: TraceEntry[] = [];
  readonly calls: PendingCall[] = [];

  constructor(
    private readonly rep: Reporter,
    private readonly userFunctions: NearNames,
  ) {}

  describe(shown: readonly TraceEntry[]): void {
    const { entries, calls } = this;
    const flags = shownAmong(entries, shown);
    let last = -1;
    for (let i = 0; i < entries.length; i++) if (flags[i] === 1) last = i;
    if (last === -1) return;
    const every = !this.userFunctions.covers(last + 1, MAX_THRESHOLD);
    for (let i = 0; i <= last; i++) {
      const entry = entries[i] as TraceEntry;
      if (!every && flags[i] !== 1) continue;
      const { message, replacement, hint } = describeUnknown(calls[i] as PendingCall, this.userFunctions);
      entry.message = message;
      // Where traceEntry puts a suggestion: after the token, before a proven fix.
      if (replacement !== undefined && replacement !== '') entry.suggestion = replacement;
      if (hint) this.rep.hints.set(entry, hint);
    }
  }
}

export function resolvePending(ctx: AnalysisContext): void {
  // Most small programs call no name that is not a command: nothing to index (a tenth of validating one of them).
  if (ctx.pending.length === 0) return;
  // One index of the functions for every unknown name: linear, where a scan per name was (names × functions).
  const userFunctions = new NearNames(
    [...ctx.functions.keys()],
    MAX_COMPARED_LENGTH,
    NEAR_NAME_CELLS_FLOOR + NEAR_NAME_CELLS_PER_CHAR * ctx.src.length,
  );
  const unknown = ctx.rep.wordsWhenShown ? new UnknownNames(ctx.rep, userFunctions) : undefined;
  for (const p of ctx.pending) {
    const rule = pendingRule(p, ctx.functions);
    const fn = ctx.functions.get(p.name);
    if (fn) {
      if (rule === Rule.LiteralCall) {
        ctx.rep.at({
          rule: Rule.LiteralCall,
          line: p.line,
          column: p.column,
          endColumn: p.endColumn,
          message: `'${abbreviate(p.text, 30)}' in an argument: the specification reads it as that text, the reference implementation calls the function — compute it first: value = ${abbreviate(p.text, 30)}`,
          token: p.name,
        });
      } else if (rule === Rule.FunctionArity) {
        ctx.rep.at({
          rule: Rule.FunctionArity,
          line: p.line,
          column: p.column,
          endColumn: p.endColumn,
          message: `function '${p.name}' (line ${fn.line}) takes ${plural(fn.arity, 'argument')}, got ${p.argCount}`,
          token: p.name,
        });
      }
      continue;
    }
    const finding = {
      rule: rule ?? Rule.UnknownFunction,
      line: p.line,
      column: p.column,
      endColumn: p.endColumn,
      message: '',
      token: p.name,
      suggestion: undefined as string | undefined,
      hint: undefined as FixHint | undefined,
    };
    if (unknown) {
      const entry = traceEntry(finding);
      if (ctx.rep.add(entry)) {
        unknown.entries.push(entry);
        unknown.calls.push(p);
      }
      continue;
    }
    const words = describeUnknown(p, userFunctions);
    finding.message = words.message;
    finding.suggestion = words.replacement;
    finding.hint = words.hint;
    ctx.rep.at(finding);
  }
  if (unknown && unknown.entries.length > 0) ctx.rep.later(unknown);
}
