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
 * does (issue 24, F10) — the equivalent is then only named in the message.
 */
import {
  findCommand,
  findCommandIgnoringCase,
  findHallucinationIgnoringCase,
  type CommandSpec,
  type ParamSpec,
} from '../catalogue';
import type { Candidate } from './candidates';

export interface CallArgument {
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

/** Where the arguments go in one of the real command's signatures, or undefined when they do not fit it. */
function fill(
  params: readonly ParamSpec[],
  names: readonly string[],
  shape: CallShape,
  targetFrom: string | undefined,
): string[] | undefined {
  if (shape.args.length > names.length) return undefined;
  if (names.slice(0, shape.args.length).some((n) => !params.some((p) => p.name === n))) return undefined; // never drop an argument
  const slots = new Map<string, string>();
  shape.args.forEach((arg, i) => slots.set(names[i] as string, arg.text));
  const target = params.find((p) => p.kind === 'target');
  if (target && !slots.get(target.name)) {
    const from = targetFrom === undefined ? undefined : shape.args[names.indexOf(targetFrom)]?.name;
    const name = shape.target ?? from;
    if (!name) return undefined;
    slots.set(target.name, name);
  } else if (shape.target) {
    return undefined; // `x = cmd(…, y)`: two targets
  }
  const values: string[] = [];
  for (const p of params) {
    const value = slots.get(p.name) ?? '';
    if (value === '' && (p.required || p.kind === 'target' || p.kind === 'number') && !p.optional) return undefined;
    values.push(value);
  }
  return values;
}

/** The rewrite of an invented command's call into its catalogue equivalent, when the catalogue makes it mechanical. */
export function inventedCallFix(name: string, shape: CallShape): Candidate | undefined {
  const invented = findCommandIgnoringCase(name) ? undefined : findHallucinationIgnoringCase(name);
  const spec = invented?.equivalent ? findCommand(invented.equivalent) : undefined;
  if (!invented || !spec || spec.block) return undefined;
  // Only what the catalogue says the arguments stand for (issue 24, F10): `tok = generateToken(user)` is not
  // `randomString(user, tok)`, whose first argument is a length.
  if (!invented.args) return undefined;
  const values = fill(spec.params, invented.args, shape, invented.targetFrom);
  if (!values) return undefined;
  // Same arguments in the same places: the rename (the entry's suggestion) is the smaller edit.
  if (
    shape.target === undefined &&
    values.length === shape.args.length &&
    values.every((v, i) => v === shape.args[i]?.text)
  )
    return undefined;
  const text = `${spec.name}(${values.join(', ')})`;
  return { title: `Rewrite as '${text}'`, edits: [{ start: shape.start, end: shape.end, newText: text }] };
}

/**
 * A catalogue command given only its first argument, where the statement says
 * where the result goes: `r = RequestGet(url)` → `RequestGet(url, , , r)` (the
 * parameters between stay empty, as AVAP writes "none"), and `addParam("name")`
 * → `addParam("name", name)` for a command whose catalogue entry names the
 * argument its target comes from.
 */
export function completedCallFix(spec: CommandSpec, shape: CallShape): Candidate | undefined {
  const first = spec.params[0];
  if (!first || spec.block || shape.args.length !== 1) return undefined;
  const values = fill(spec.params, [first.name], shape, spec.targetFrom);
  if (!values) return undefined;
  const text = `${spec.name}(${values.join(', ')})`;
  return { title: `Rewrite as '${text}'`, edits: [{ start: shape.start, end: shape.end, newText: text }] };
}
