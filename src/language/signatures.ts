/**
 * Signatures of commands (from the catalogue) and of user functions: each
 * parameter's name, its kind in the command reference's words — `variable`
 * (names a variable: read, or written with the command's result) or `value`
 * (a variable of that name if one is assigned, else the literal text) — and
 * what that means at run time. Signature help and inlay hints read them.
 */
import { findCommand, signaturesOf, type CommandSpec, type ParamSpec } from '../parser/catalogue';

/** The command reference's parameter kinds (`var` is its alias of `variable`). */
export type ReferenceKind = 'variable' | 'value';

export interface ParameterInfo {
  readonly name: string;
  readonly kind: ReferenceKind;
  /** The catalogue's finer kind: `target` (written), `name` (read), `value`, `number`, `comparator`. */
  readonly role: ParamSpec['kind'] | 'parameter';
  /** `[start, end)` of the parameter's name in the signature's label. */
  readonly label: readonly [number, number];
  readonly documentation: string;
}

export interface SignatureInfo {
  readonly label: string;
  readonly documentation: string;
  readonly parameters: readonly ParameterInfo[];
}

const ROLE_TEXT: Record<ParamSpec['kind'], string> = {
  target: 'the command writes its result into the variable of this name',
  name: 'the command reads the variable of this name (an unset name is its own name as text)',
  value:
    'a variable of this name if one is assigned (quoted or bare alike: quotes are stripped first), else the text itself',
  number: 'a number, or a variable holding one',
  comparator: 'a comparator: = == != < > <= >= in (bare or quoted)',
};

const referenceKind = (role: ParamSpec['kind']): ReferenceKind =>
  role === 'target' || role === 'name' ? 'variable' : 'value';

function parameterDoc(p: ParamSpec): string {
  const notes = [ROLE_TEXT[p.kind]];
  if (p.key) notes.push('a key: a bare or quoted word that names a variable stands for that variable’s value');
  if (p.optional) notes.push('may be left empty');
  if (p.required) notes.push('must not be empty');
  return `\`${p.name}\` (${referenceKind(p.kind)}): ${notes.join('; ')}`;
}

function build(name: string, params: readonly { name: string; doc: string; role: ParameterInfo['role'] }[]) {
  let label = `${name}(`;
  const parameters: ParameterInfo[] = [];
  params.forEach((p, i) => {
    if (i > 0) label += ', ';
    const start = label.length;
    label += p.name;
    parameters.push({
      name: p.name,
      kind: p.role === 'parameter' ? 'value' : referenceKind(p.role),
      role: p.role,
      label: [start, label.length],
      documentation: p.doc,
    });
  });
  return { label: `${label})`, parameters };
}

/**
 * Every accepted signature of a command.
 * @internal
 */
export function commandSignatures(spec: CommandSpec): SignatureInfo[] {
  return signaturesOf(spec).map((params) => {
    const { label, parameters } = build(
      spec.name,
      params.map((p) => ({ name: p.name, doc: parameterDoc(p), role: p.kind })),
    );
    return { label, parameters, documentation: `${spec.summary}\n\nExample: \`${spec.example}\`` };
  });
}

/** The signature of a user function `name(params…)`. */
export function functionSignature(name: string, params: readonly string[], line: number): SignatureInfo {
  const { label, parameters } = build(
    name,
    params.map((p) => ({
      name: p,
      doc: `\`${p}\`: parameter of ${name} — the argument's value is bound to \`${p}\` (one namespace: it stays visible after the call)`,
      role: 'parameter' as const,
    })),
  );
  return { label, parameters, documentation: `User function defined on line ${line + 1}.` };
}

/** A command's signatures by name, or undefined when it is no command. */
export function signaturesOfCommand(name: string): SignatureInfo[] | undefined {
  const spec = findCommand(name);
  return spec ? commandSignatures(spec) : undefined;
}

/** Of several signatures, the one that fits `argCount` arguments (the first that has room for them). */
export function activeSignatureIndex(
  signatures: readonly { parameters: readonly unknown[] }[],
  argCount: number,
): number {
  const fit = signatures.findIndex((s) => s.parameters.length >= argCount);
  return fit >= 0 ? fit : 0;
}
