/**
 * Semantic warnings: code that parses and runs, but does something else than
 * it says, by rules the command reference and the specification prove within
 * one file. They ride on the analysis (no second pass over the text): the
 * analyzer tells this tracker which names each statement assigns and which
 * bare keys it uses, and the tracker reports
 *
 *  - `key-names-variable`: a bare key (a parameter marked `key` in the
 *    catalogue: AddvariableToJSON's Key, variableFromJSON's key, addParam's
 *    param) that names a variable assigned earlier in the same scope. The
 *    specification resolves such an argument at run time (a `value` is a
 *    "literal value or variable reference"), so the key is that variable's
 *    value, not the name. The reference implementation's addParam reads the
 *    parameter name as written instead (a divergence the message states).
 *  - `key-overwritten-in-loop`: the same, where the variable is first assigned
 *    after the key inside the loop around it (`variableFromJSON(row, email,
 *    email)` in a loop): from the second pass the key is the previous value.
 *
 * Neither has a fix: quoting the key changes nothing, because
 * the reference implementation strips the quotes before a command sees its
 * argument, so `"email"` names the variable exactly as `email` does. What is
 * true under both the specification and the reference is the advice: a
 * variable whose name is not the key (docs/parser-semantic-warnings.md).
 * Function parameters do not count as assignments: a function that takes a
 * key as a parameter means its value. Variables are scoped per function body
 * (the top level is one scope), otherwise flat, as the specification says.
 */
import type { Block, BlockStack } from './blocks';
import { Rule } from './catalogue/rules';
import type { Reporter } from './reporter';

export interface KeyUse {
  name: string;
  command: string;
  /** Position of the key: 1-based line and columns, and its source offsets. */
  line: number;
  column: number;
  endColumn: number;
  start: number;
  end: number;
}

interface PendingKey extends KeyUse {
  scope: Block | undefined;
  /** The outermost loop around the use (in its scope). */
  loop: Block;
}

const NO_NAMES: ReadonlyMap<string, number> = new Map();

/** Words that are never variable names, as a bare key. */
const NOT_A_VARIABLE = new Set(['None', 'True', 'False', 'true', 'false']);

function what(command: string): string {
  return command === 'addParam' ? 'parameter name' : 'key';
}

/**
 * What the two sources say such a key is, and the advice true under both:
 * the specification resolves it; the reference's addParam does not; quoting
 * changes nothing (the reference strips quotes before a command sees them).
 */
function resolution(use: KeyUse): string {
  const noun = what(use.command);
  const divergence =
    use.command === 'addParam'
      ? ` (the reference implementation reads the parameter named '${use.name}' as written: the two differ)`
      : '';
  return (
    `the specification resolves it to that value${divergence}; quoting the ${noun} does not change this — ` +
    `give the variable a name other than '${use.name}'`
  );
}

export class Semantics {
  /** Per scope (a function body, or undefined for the top level): each assigned name and the line of its first assignment. */
  private readonly scopes = new Map<Block | undefined, Map<string, number>>();
  /** Keys inside a loop whose name was not assigned yet, by scope and name (an assignment looks at its own scope's only). */
  private pending: Map<Block | undefined, Map<string, PendingKey[]>> | undefined;
  /**
   * Assignments not yet entered in `scopes`, in order: their scopes, names and lines (see assign). Only while no
   * key waits in a loop (`pending` is undefined): then an assignment does nothing but enter its name.
   */
  private readonly unfiledScopes: (Block | undefined)[] = [];
  private readonly unfiledNames: string[] = [];
  private readonly unfiledLines: number[] = [];

  constructor(
    private readonly rep: Reporter,
    private readonly blocks: BlockStack,
  ) {}

  /**
   * Takes over `other`'s state, for an analysis forked from another
   * (fixes/resync.ts): the names and waiting keys of the scopes still open
   * (the top level and the open function bodies — no other is read again),
   * with open blocks replaced by their copies; `share` makes this one's table of
   * names from `other`'s (a copy, a layer over it, a view of it: Analyzer.fork).
   */
  copyFrom(
    other: Semantics,
    copies: ReadonlyMap<Block, Block>,
    share: (names: Map<string, number>) => Map<string, number>,
  ): void {
    other.file();
    const mapped = (b: Block | undefined) => (b && copies.get(b)) ?? b;
    for (const scope of [undefined, ...copies.keys()]) {
      if (scope && scope.kind !== 'function') continue;
      const names = other.scopes.get(scope);
      if (names) this.scopes.set(mapped(scope), share(names));
      const waiting = other.pending?.get(scope);
      if (!waiting) continue;
      const copy = new Map<string, PendingKey[]>();
      for (const [name, uses] of waiting) {
        copy.set(
          name,
          uses.map((use) => ({ ...use, scope: mapped(use.scope), loop: mapped(use.loop) as Block })),
        );
      }
      (this.pending ??= new Map()).set(mapped(scope), copy);
    }
  }

  /** The names assigned in `scope` (with their first line), and its waiting keys whose loop is still open (what later lines can report on). */
  live(scope: Block | undefined): {
    names: ReadonlyMap<string, number>;
    waiting: readonly { name: string; line: number; loop: Block }[];
  } {
    this.file();
    const waiting: { name: string; line: number; loop: Block }[] = [];
    for (const [name, uses] of this.pending?.get(scope) ?? []) {
      for (const use of uses)
        if (this.blocks.includes(use.loop)) waiting.push({ name, line: use.line, loop: use.loop });
    }
    return { names: this.scopes.get(scope) ?? NO_NAMES, waiting };
  }

  /**
   * `name` is assigned on `line` (in the current scope). While no key waits in a loop, that is all it does, so
   * the name is only noted and entered in its scope's table when something reads the tables (a key, a fork, a
   * proof): entering a name hashes the token's fresh string, about a third of the cost of an assignment's line,
   * and most programs assign most names after their last key. The tables read the same as when every name is
   * entered at once: the same names, first lines and order.
   */
  assign(name: string, line: number): void {
    const scope = this.blocks.currentFunction;
    if (this.pending === undefined) {
      this.unfiledScopes.push(scope);
      this.unfiledNames.push(name);
      this.unfiledLines.push(line);
      return;
    }
    this.file();
    if (!this.enter(scope, name, line)) return;
    const inScope = this.pending.get(scope);
    const waiting = inScope?.get(name);
    if (!inScope || !waiting) return;
    inScope.delete(name);
    for (const use of waiting) {
      // Still inside the loop around the key: from its second pass the key is this value.
      if (this.blocks.includes(use.loop)) this.overwritten(use, line);
    }
  }

  /** Enters `name` in the names of `scope` unless it is there already; true when it was not. */
  private enter(scope: Block | undefined, name: string, line: number): boolean {
    const names = this.namesOf(scope);
    if (names.has(name)) return false;
    names.set(name, line);
    return true;
  }

  /** The names of `scope`, made when it has none yet. */
  private namesOf(scope: Block | undefined): Map<string, number> {
    let names = this.scopes.get(scope);
    if (!names) {
      names = new Map();
      this.scopes.set(scope, names);
    }
    return names;
  }

  /** Enters the names assigned since the tables were last read (see assign), the scope's table found once per run of one scope. */
  private file(): void {
    const n = this.unfiledNames.length;
    if (n === 0) return;
    let scope = this.unfiledScopes[0];
    let names = this.namesOf(scope);
    for (let i = 0; i < n; i++) {
      const next = this.unfiledScopes[i];
      if (next !== scope) {
        scope = next;
        names = this.namesOf(scope);
      }
      const name = this.unfiledNames[i] as string;
      if (!names.has(name)) names.set(name, this.unfiledLines[i] as number);
    }
    this.unfiledScopes.length = 0;
    this.unfiledNames.length = 0;
    this.unfiledLines.length = 0;
  }

  /** A bare key argument `name` of `command`. */
  key(use: KeyUse): void {
    if (NOT_A_VARIABLE.has(use.name)) return;
    this.file();
    const scope = this.blocks.currentFunction;
    const assignedOn = this.scopes.get(scope)?.get(use.name);
    if (assignedOn !== undefined) {
      const noun = what(use.command);
      this.rep.at({
        rule: Rule.KeyNamesVariable,
        line: use.line,
        column: use.column,
        endColumn: use.endColumn,
        message:
          `the ${noun} '${use.name}' of ${use.command} names the variable '${use.name}' (assigned on line ${assignedOn}): ` +
          resolution(use),
        token: use.name,
      });
      return;
    }
    const loop = this.blocks.outermostLoop;
    if (!loop) return;
    const entry: PendingKey = { ...use, scope, loop };
    this.pending ??= new Map();
    let inScope = this.pending.get(scope);
    if (!inScope) {
      inScope = new Map();
      this.pending.set(scope, inScope);
    }
    const list = inScope.get(use.name);
    if (list) list.push(entry);
    else inScope.set(use.name, [entry]);
  }

  private overwritten(use: PendingKey, line: number): void {
    const noun = what(use.command);
    const where = line === use.line ? 'this line' : `line ${line}`;
    this.rep.at({
      rule: Rule.KeyOverwrittenInLoop,
      line: use.line,
      column: use.column,
      endColumn: use.endColumn,
      message:
        `the ${noun} '${use.name}' of ${use.command} names the variable '${use.name}' that the loop from line ${use.loop.line} assigns on ${where}: ` +
        `from the second pass ${resolution(use)}`,
      token: use.name,
    });
  }
}
