/**
 * Frames and how names resolve.
 *
 * The namespace is flat (specification): one map of variables per run (a
 * go_async block works on a copy). A function call adds a frame whose locals
 * (its parameters, then what it assigns) are read before the namespace; what
 * the function assigns is written to both, so it stays visible after the
 * function returns (observed in the reference). `$name` reads the top level.
 *
 * Each frame also keeps what the reference would read in an expression (its
 * `function_local_vars`: the values of the last `x = …` assignments), only to
 * notice when a run depends on the difference.
 */
import { templateParts, type ArgSpec, type TemplatePart } from './args';
import type { CallContext } from './commands';
import { compileExpr, type Expr } from './compile';
import type { Env } from './expressions/evaluate';
import { RunFailure } from './failure';
import { equals } from './operators';
import type { PortabilityRuleId } from './portability';
import { pyStr } from './pytext';
import type { Shared } from './shared';
import { PyFloat, setPlain, toPlain, type Value } from './values';

function same(a: Value | undefined, b: Value | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  if (a instanceof PyFloat && b instanceof PyFloat) return a.v === b.v;
  if (typeof a === 'object' || typeof b === 'object') return false;
  return equals(a, b);
}

const templateCache = new Map<string, TemplatePart[]>();

function partsOf(raw: string): TemplatePart[] {
  let parts = templateCache.get(raw);
  if (!parts) {
    parts = templateParts(raw);
    if (templateCache.size > 1000) templateCache.clear();
    templateCache.set(raw, parts);
  }
  return parts;
}

/** The reference evaluates a command argument with an operator as Python; the compiled guess, per argument text. */
const referenceExpressions = new Map<string, Expr | null>();
const REFERENCE_OPERATOR = /[+\-*/%]/;
/** An argument the reference runs as a nested call: it holds `(` and `)` (and no operator). */
const NESTED_CALL = /\(.*\)/s;

/** The variables a frame reads and writes: four maps of the same type, so named rather than given in a row. */
interface FrameMaps {
  /** The namespace this frame writes to. */
  readonly vars: Map<string, Value>;
  /** A function's parameters and locals; null at the top level. */
  readonly locals: Map<string, Value> | null;
  /** What the reference's expressions would read first (its function_local_vars). */
  readonly shadow: Map<string, Value>;
  /** The top-level namespace, for `$name`. */
  readonly root: Map<string, Value>;
}

export class Frame implements Env, FrameMaps {
  /** When tracing: the changes of the statement running now. */
  changes: Record<string, unknown> | null = null;
  /** The line of the statement running now (for notes raised while reading). */
  line = 0;
  readonly vars: Map<string, Value>;
  readonly locals: Map<string, Value> | null;
  readonly shadow: Map<string, Value>;
  readonly root: Map<string, Value>;

  constructor(
    readonly shared: Shared,
    maps: FrameMaps,
  ) {
    // Copied onto the frame rather than kept as one object: every name a statement reads goes through them.
    this.vars = maps.vars;
    this.locals = maps.locals;
    this.shadow = maps.shadow;
    this.root = maps.root;
  }

  note(rule: PortabilityRuleId, detail?: string): void {
    this.shared.notes.note(rule, this.line, detail);
  }

  get(name: string): Value | undefined {
    if (this.locals !== null) {
      const local = this.locals.get(name);
      if (local !== undefined || this.locals.has(name)) return local;
    }
    return this.vars.get(name);
  }

  private record(name: string, value: Value): void {
    if (this.changes !== null) setPlain(this.changes, name, toPlain(value));
  }

  /** A command writes a variable: the namespace, and the local of that name if there is one. */
  set(name: string, value: Value): void {
    this.vars.set(name, value);
    if (this.locals !== null && this.locals.has(name)) this.locals.set(name, value);
    this.record(name, value);
  }

  /** `name = …` writes the namespace and, inside a function, a local. */
  assign(name: string, value: Value): void {
    this.vars.set(name, value);
    if (this.locals !== null) this.locals.set(name, value);
    this.shadow.set(name, value);
    this.record(name, value);
  }

  // ------------------------------------------------------------ Env (expressions)

  read(name: string): Value | undefined {
    const value = this.get(name);
    if (this.shadow.size > 0 && this.shadow.has(name) && !same(this.shadow.get(name), value)) {
      this.note('assignment-shadow', `it reads ${name} = ${pyStr(this.shadow.get(name) as Value)}`);
    }
    return value;
  }

  readGlobal(name: string): Value | undefined {
    this.note('global-reference');
    return this.root.get(name);
  }

  template(raw: string): string {
    this.note('template');
    let out = '';
    for (const part of partsOf(raw)) {
      out += part.literal;
      if (part.name === undefined) continue;
      const value = part.name.startsWith('$') ? this.root.get(part.name.slice(1)) : this.get(part.name);
      if (value === undefined) {
        throw RunFailure.unsupported(
          `the template placeholder \${${part.name}}, which names no variable`,
          'the specification does not say what an unset placeholder becomes',
        );
      }
      out += pyStr(value);
    }
    return out;
  }

  // ------------------------------------------------------------ arguments

  /** A command's argument as a value, by the rules of the parameter kinds (args.ts). */
  resolve(spec: ArgSpec | undefined): Value {
    if (spec === undefined || spec.empty) return null;
    if (spec.template !== undefined) return this.template(spec.template);
    if (spec.global !== undefined) {
      this.note('global-reference');
      const g = this.root.get(spec.global);
      return g === undefined ? spec.text : g;
    }
    const value = this.get(spec.text);
    if (value !== undefined) {
      if (this.locals !== null && this.locals.has(spec.text) && !same(this.vars.get(spec.text), value)) {
        this.note(
          'function-local-in-command',
          `it reads ${spec.text} as ${this.vars.has(spec.text) ? pyStr(this.vars.get(spec.text) as Value) : `the text "${spec.text}"`}`,
        );
      }
      return value;
    }
    if (spec.number !== undefined) return spec.number;
    return spec.text;
  }

  /**
   * What the reference hands a command for this argument when it evaluates it
   * as a Python expression (text with an operator that evaluates); undefined
   * when it passes the argument as it is.
   */
  referenceValue(spec: ArgSpec | undefined): Value | undefined {
    if (spec === undefined || spec.empty || spec.template !== undefined || spec.global !== undefined) return undefined;
    const text = spec.text;
    if (!REFERENCE_OPERATOR.test(text) || text.includes('$') || text.includes('`')) return undefined;
    if (this.vars.has(text)) return undefined;
    let expr = referenceExpressions.get(text);
    if (expr === undefined) {
      const compiled = compileExpr(text, new Set());
      expr = compiled.run ? compiled : null;
      if (referenceExpressions.size > 2000) referenceExpressions.clear();
      referenceExpressions.set(text, expr);
    }
    if (expr === null || !expr.run) return undefined;
    try {
      return expr.run({ read: (n) => this.vars.get(n), readGlobal: () => undefined, template: () => '' });
    } catch {
      return undefined; // the reference's evaluation fails too, and it keeps the text
    }
  }

  /** Notes when the reference would hand the command another value than `ours` for this argument. */
  checkReference(spec: ArgSpec | undefined, ours: Value): void {
    if (spec !== undefined && !spec.empty && spec.template === undefined && NESTED_CALL.test(spec.text)) {
      if (!REFERENCE_OPERATOR.test(spec.text) && !this.vars.has(spec.text)) {
        this.note('argument-expression', `it runs ${spec.text} and passes on what that gives`);
        return;
      }
    }
    const theirs = this.referenceValue(spec);
    if (theirs !== undefined && !equals(theirs, ours)) {
      this.note('argument-expression', `it evaluates ${spec?.text ?? ''} to ${pyStr(theirs)}`);
    }
  }

  /** An expression's value, or — as the reference does when the evaluation fails — the variable named by its text, else the text. */
  evaluate(expr: Expr): Value {
    if (expr.run) {
      try {
        return expr.run(this);
      } catch (e) {
        if (!(e instanceof RunFailure) || e.pyType === undefined) throw e;
      }
    } else if (expr.error && expr.error.pyType !== 'SyntaxError') {
      throw expr.error.copy();
    }
    const named = this.get(expr.text);
    return named === undefined ? expr.text : named;
  }

  /** An expression that must evaluate (a condition): its failure is the statement's error. */
  evaluateStrict(expr: Expr): Value {
    if (expr.error) throw expr.error.copy();
    return (expr.run as NonNullable<Expr['run']>)(this);
  }
}

/** The command's view of its call (commands/types.ts). */
export class Call implements CallContext {
  constructor(
    private readonly frame: Frame,
    readonly line: number,
    readonly name: string,
    readonly args: readonly ArgSpec[],
  ) {}

  get request() {
    return this.frame.shared.request;
  }
  get ports() {
    return this.frame.shared.ports;
  }
  get signal() {
    return this.frame.shared.signal;
  }

  read(i: number): Value {
    return this.frame.resolve(this.args[i]);
  }

  checkReference(i: number, ours: Value): void {
    this.frame.checkReference(this.args[i], ours);
  }

  isEmpty(i: number): boolean {
    const a = this.args[i];
    return a === undefined || a.empty;
  }

  text(i: number): string {
    return this.args[i]?.text ?? '';
  }

  targetName(i: number): string {
    const a = this.args[i];
    if (a === undefined || a.empty)
      throw RunFailure.of('argument-error', `${this.name} needs the name of a variable as argument ${i + 1}`);
    if (a.template !== undefined || a.global !== undefined) {
      throw RunFailure.of('argument-error', `${this.name}: argument ${i + 1} must name a variable, not '${a.raw}'`);
    }
    return a.text;
  }

  get(name: string): Value | undefined {
    const value = this.frame.get(name);
    const f = this.frame;
    if (value !== undefined && f.locals !== null && f.locals.has(name) && !same(f.vars.get(name), value)) {
      f.note('function-local-in-command');
    }
    return value;
  }

  set(name: string, value: Value): void {
    this.frame.set(name, value);
  }

  result(key: string, value: Value): void {
    this.frame.shared.results.set(key, value);
  }

  note(rule: PortabilityRuleId, detail?: string): void {
    this.frame.note(rule, detail);
  }

  gather(id: string, timeoutMs: number): Promise<void> {
    return this.frame.shared.gather(id, timeoutMs);
  }
}
