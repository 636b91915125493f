/**
 * Rewriting a call to an invented command into its real equivalent when a
 * rename is not enough because the real command takes other arguments:
 * `hashed = getSHA256(pwd)` → `encodeSHA256(pwd, hashed)`, `r = httpGet(url)`
 * → `RequestGet(url, , , r)`, `readParam("name")` → `addParam("name", name)`.
 *
 * Driven by the catalogue, not by code per name: the real command's parameter
 * list says where each argument and the target go; a hallucination entry
 * names the parameters its arguments stand for (`args`) and the argument that
 * names the target when the call has none (`targetFrom`). Without `args` there
 * is no rewrite: which parameter an argument stands for would be a guess, and
 * a rewrite whose arguments do not map one-to-one changes what the program
 * does — the equivalent is then only named in the message.
 *
 * A parameter left out is only ever written empty when the catalogue marks it
 * `omittable` — an empty argument means what leaving it out means (RequestGet's
 * query string and headers, a date's delta and zone). Any other missing value
 * is the program's to say: `addVar(total)` gets no fix. A target
 * named after a key (`targetFrom`) needs the key quoted — `addParam("id")`,
 * not `addParam(id)`, which may be the target with its key left out — and the
 * name read somewhere else in the program: the variable the call was meant to
 * fill.
 */
import {
  findCommand,
  findCommandIgnoringCase,
  findHallucinationIgnoringCase,
  type CommandSpec,
  type ParamSpec,
} from '../catalogue';
import type { Candidate, FixHint } from './candidates';
import { viewOf } from './view';

interface CallArgument {
  text: string;
  /** The identifier an argument names: itself, or the inside of a quoted identifier ("name"). */
  name?: string;
}

/** A call that is a whole statement: `name(args)` or `target = name(args)`, from `start` to the `)` at `end`. */
export interface CallShape {
  start: number;
  end: number;
  target?: string;
  args: CallArgument[];
}

/** Where the arguments go in one of the real command's signatures; `named` is the target taken from a key. */
interface Filled {
  values: string[];
  named?: string;
}

const isQuoted = (text: string) => /^(["']).*\1$/.test(text);

/** Where the arguments go in one of the real command's signatures, or undefined when they do not fit it. */
function fill(
  params: readonly ParamSpec[],
  names: readonly string[],
  shape: CallShape,
  targetFrom: string | undefined,
): Filled | undefined {
  if (shape.args.length > names.length) return undefined;
  if (names.slice(0, shape.args.length).some((n) => !params.some((p) => p.name === n))) return undefined; // never drop an argument
  const slots = new Map<string, string>();
  shape.args.forEach((arg, i) => slots.set(names[i] as string, arg.text));
  const target = params.find((p) => p.kind === 'target');
  let named: string | undefined;
  if (target && !slots.get(target.name)) {
    const key = targetFrom === undefined ? undefined : shape.args[names.indexOf(targetFrom)];
    if (shape.target === undefined && key?.name !== undefined && isQuoted(key.text)) named = key.name;
    const name = shape.target ?? named;
    if (!name) return undefined;
    slots.set(target.name, name);
  } else if (shape.target) {
    return undefined; // `x = cmd(…, y)`: two targets
  }
  const values: string[] = [];
  for (const p of params) {
    const value = slots.get(p.name);
    if (value === undefined && !p.omittable && !p.optional) return undefined; // a value the program must say
    values.push(value ?? '');
  }
  return { values, ...(named !== undefined ? { named } : {}) };
}

/** The rewrite of the call, checked (when the target was named after a key) against the rest of the program. */
function rewrite(spec: CommandSpec, shape: CallShape, filled: Filled): FixHint {
  const text = `${spec.name}(${filled.values.join(', ')})`;
  const candidate: Candidate = {
    title: `Rewrite as '${text}'`,
    edits: [{ start: shape.start, end: shape.end, newText: text }],
  };
  const named = filled.named;
  if (named === undefined) return candidate;
  return (ctx) => {
    const view = viewOf(ctx);
    const line = view.lineOf(shape.start);
    return ctx.partial || view.usedOutside(named, line, line) ? candidate : undefined;
  };
}

/** The rewrite of an invented command's call into its catalogue equivalent, when the catalogue makes it mechanical. */
export function inventedCallFix(name: string, shape: CallShape): FixHint | undefined {
  const invented = findCommandIgnoringCase(name) ? undefined : findHallucinationIgnoringCase(name);
  const spec = invented?.equivalent ? findCommand(invented.equivalent) : undefined;
  if (!invented || !spec || spec.block) return undefined;
  // Only what the catalogue says the arguments stand for: `tok = generateToken(user)` is not
  // `randomString(user, tok)`, whose first argument is a length.
  if (!invented.args) return undefined;
  const filled = fill(spec.params, invented.args, shape, invented.targetFrom);
  if (!filled) return undefined;
  const values = filled.values;
  // Same arguments in the same places: the rename (the entry's suggestion) is the smaller edit.
  if (
    shape.target === undefined &&
    values.length === shape.args.length &&
    values.every((v, i) => v === shape.args[i]?.text)
  )
    return undefined;
  return rewrite(spec, shape, filled);
}

/**
 * A catalogue command given fewer arguments than it takes, where the
 * catalogue says which ones are missing: the arguments stand for the
 * parameters that cannot be left out, in order, the omittable ones are
 * written empty, and a missing target comes from the assignment or from the
 * key it is named after: `r = RequestGet(url)` and `RequestGet(url, r)` →
 * `RequestGet(url, , , r)`, `getDateTime("%Y", y)` → `getDateTime("%Y", , , y)`,
 * `addParam("name")` → `addParam("name", name)`.
 */
export function completedCallFix(spec: CommandSpec, shape: CallShape): FixHint | undefined {
  if (spec.block || shape.args.length >= spec.params.length) return undefined;
  const names = spec.params.filter((p) => !p.omittable && !p.optional).map((p) => p.name);
  const targetLast = spec.params.find((p) => p.name === names[names.length - 1])?.kind === 'target';
  const missingTarget = shape.args.length === names.length - 1 && targetLast;
  if (shape.args.length !== names.length && !missingTarget) return undefined;
  const filled = fill(spec.params, names, shape, spec.targetFrom);
  return filled ? rewrite(spec, shape, filled) : undefined;
}
