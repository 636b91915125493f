/**
 * How many arguments a command takes and of what kind: the signatures a call matches, the target a
 * variable name, the number a number or a name.
 */
import { isIdentifier, isIdentifierArg, quotedIdentifier, type ParsedCall } from '../calls';
import { signaturesOf, type CommandSpec, type ParamSpec } from '../catalogue';
import { Rule } from '../catalogue/rules';
import { firstOf, last, lastOf, tokenAt } from '../cursor';
import { hoistFix, oneCallPerName, swappedArgumentsFix } from '../fixes/statements';
import type { FixHint } from '../fixes/candidates';
import { completedCallFix } from '../fixes/commands';
import { TokenKind, type Token } from '../scanner';
import { abbreviate, plural } from '../wording';
import { callShape } from './commands';
import type { AnalysisContext } from './context';

/** A number as a number parameter takes it written out (a name, or a number in quotes, also does). */
export const NUMBER_RE = /^[+-]?\d+(\.\d+)?$/;

/** An empty argument for `param` is a missing argument (reported). */
export function mustHaveArgument(param: ParamSpec): boolean {
  return param.required === true || ((param.kind === 'target' || param.kind === 'number') && !param.optional);
}

/** The parameter list `params` as `argc` arguments in `context` match it, or undefined (see checkArity). */
export function matchSignature(
  params: readonly ParamSpec[],
  argc: number,
  context: 'statement' | 'assignment',
): readonly ParamSpec[] | undefined {
  // Most calls give every parameter: they match without counting the optional tail.
  if (argc === params.length) return params;
  let optionalTail = 0;
  for (let i = params.length - 1; i >= 0 && params[i]?.optional; i--) optionalTail++;
  if (argc <= params.length && argc >= params.length - optionalTail) return params;
  // `x = cmd(a)`: the assignment supplies the trailing target.
  if (context === 'assignment' && params.length > 0 && last(params)?.kind === 'target' && argc === params.length - 1) {
    return params.slice(0, -1);
  }
  return undefined;
}

/** An argument as messages name it: `argument 2 of 'addVar' (value)`. */
function argumentName(spec: CommandSpec, index: number, param: ParamSpec): string {
  return `argument ${index + 1} of '${spec.name}' (${param.name})`;
}

/**
 * A call of a catalogue command as its checks read it: the statement's tokens,
 * the parsed call, the command, and whether the call is a statement or the
 * value of an assignment.
 */
export interface CommandCall {
  t: readonly Token[];
  call: ParsedCall;
  spec: CommandSpec;
  context: 'statement' | 'assignment';
}

/** Returns the parameter list the arguments match, or undefined after reporting. */
export function checkArity(ctx: AnalysisContext, command: CommandCall): readonly ParamSpec[] | undefined {
  const { t, call, spec, context } = command;
  const argc = call.args.length;
  const matched =
    matchSignature(spec.params, argc, context) ??
    (spec.altParams ? matchSignature(spec.altParams, argc, context) : undefined);
  if (matched) return matched;
  const nameToken = tokenAt(t, call.nameIndex);
  const closeToken = call.closeIndex >= 0 ? tokenAt(t, call.closeIndex) : lastOf(t);
  const forms = signaturesOf(spec).map(
    (params) => `${plural(params.length, 'argument')} (${params.map((p) => p.name).join(', ')})`,
  );
  const single = spec.params.length === 1 && spec.params[0]?.kind === 'name' && !spec.altParams;
  const shape = callShape(t, call, context);
  let hint: FixHint | undefined;
  if (shape && single && context === 'statement')
    hint = oneCallPerName({
      command: spec.name,
      name: nameToken,
      close: closeToken,
      args: call.args.map((a) => a.text),
      lineStart: ctx.lineStart,
    });
  else if (shape) hint = completedCallFix(spec, shape);
  ctx.reportTokens({
    rule: Rule.Arity,
    from: nameToken,
    to: closeToken,
    message: `'${spec.name}' expects ${forms.join(' or ')}, got ${argc}`,
    hint,
  });
  return undefined;
}

/** Checks each argument against the parameter `params` (the signature the call matched) gives it. */
export function checkArgumentKinds(ctx: AnalysisContext, command: CommandCall, params: readonly ParamSpec[]): void {
  for (let index = 0; index < command.call.args.length; index++) {
    const param = params[index];
    if (param) checkArgumentKind(ctx, command, index, param);
  }
}

/** Checks argument `index` of the call against `param`, the parameter it stands for. */
function checkArgumentKind(ctx: AnalysisContext, command: CommandCall, index: number, param: ParamSpec): void {
  const { t, call, spec } = command;
  const arg = call.args[index];
  if (!arg) return;
  if (arg.text === '') {
    if (mustHaveArgument(param))
      ctx.report({
        rule: Rule.MissingArgument,
        start: arg.start,
        end: arg.end,
        message: `missing ${argumentName(spec, index, param)}`,
        token: spec.name,
      });
    return;
  }
  const single = arg.last - arg.first === 1 ? t[arg.first] : undefined;
  const isGlobal = single?.kind === TokenKind.Global;
  if (param.kind === 'target') {
    if (isIdentifierArg(t, arg) || quotedIdentifier(t, arg) !== undefined || isGlobal) return;
    const swapped = spec.name === 'addVar' && index === 0;
    const order = swapped ? ' — addVar takes the target first: addVar(target, value)' : '';
    const value = call.args[1];
    const hint =
      swapped && call.args.length === 2 && value && isIdentifier(value.text)
        ? swappedArgumentsFix(ctx.src, arg, value)
        : undefined;
    ctx.report({
      rule: Rule.InvalidTarget,
      start: arg.start,
      end: arg.end,
      message: `${argumentName(spec, index, param)} must be a variable name, got '${abbreviate(arg.text, 30)}'${order}`,
      token: arg.text,
      hint,
    });
    return;
  }
  if (param.kind === 'number') {
    // A number token is digits with an optional fraction, which NUMBER_RE accepts: no need to run it.
    if (single?.kind === TokenKind.Number) return;
    const quoted = single?.kind === TokenKind.String ? single.text.slice(1, -1) : undefined;
    if (
      NUMBER_RE.test(arg.text) ||
      isIdentifierArg(t, arg) ||
      isGlobal ||
      (quoted !== undefined && NUMBER_RE.test(quoted))
    )
      return;
    const expression =
      arg.last - arg.first > 1 && !t.slice(arg.first, arg.last).some((x) => x.kind === TokenKind.String);
    // A loop bound: named after the loop's variable inside a block (another loop's may be computed the same way).
    const counter = spec.name === 'startLoop' && ctx.lineStart !== firstOf(t).start ? call.args[0]?.text : undefined;
    const names =
      param.name === 'to'
        ? [counter ? `${counter}_last` : 'last']
        : param.name === 'from'
          ? [counter ? `${counter}_first` : 'first']
          : [param.name.toLowerCase(), 'value'];
    ctx.report({
      rule: Rule.InvalidNumber,
      start: arg.start,
      end: arg.end,
      message: `${argumentName(spec, index, param)} must be a number or a variable name (this parser's rule), got '${abbreviate(arg.text, 30)}' — compute it first: value = …`,
      token: arg.text,
      hint: expression ? hoistFix(ctx.lineStart, arg, { names, before: (name) => `${name} = ${arg.text}` }) : undefined,
    });
  }
}
