/**
 * The names a document defines and uses, read off the syntax tree: user
 * functions (their definitions, their calls, a handler named in
 * registerEndpoint) and variables. AVAP's namespace is flat: one name is one
 * variable everywhere, inside functions too. A variable's definitions are its
 * assignments — `x = …`, `x = command(…)`, every command's target parameter
 * (addVar, addParam, startLoop, exception, …) and a function's parameters.
 *
 * A command argument that is one word, bare or quoted, is resolved at run
 * time: quotes are stripped before the command sees it, so the word stands for
 * the variable of that name when one is set, and is its own name as text when
 * none is. Each such use is classified here by where it stands:
 *
 * - `reference`: a variable of that name is assigned on an earlier line (or,
 *   inside a function body, anywhere outside it: the body runs when called);
 * - `text`: none is — the command gets the word itself;
 * - `either`: none is yet, but the loop around it assigns one later, so the
 *   first pass gets the text and the next ones the variable.
 *
 * Names inside an expression (`x = a + 1`, `"Hi " + n`, `${name}` in a
 * template, `$name`) are classified the same way.
 */
import { findCommand, signaturesOf, type CommandSpec, type ParamSpec } from '../parser/catalogue';
import {
  walk,
  type CallStatement,
  type Span,
  type Statement,
  type SyntaxArgument,
  type SyntaxBlock,
  type SyntaxTree,
} from '../syntax';
import { argumentWord, namesIn } from './words';

export type OccurrenceRole = 'definition' | 'reference' | 'text' | 'either';

type OccurrenceHow =
  /** `x = …` or `x = command(…)` */
  | 'assign'
  /** a command's target parameter (`addVar(x, …)`) */
  | 'target'
  /** a function's parameter */
  | 'parameter'
  /** `function name(…)` */
  | 'function'
  /** `name(…)` */
  | 'call'
  /** a one-word command argument, bare or quoted */
  | 'word'
  /** a name inside an expression */
  | 'expression'
  /** `$name` */
  | 'global'
  /** `${name}` in a template */
  | 'template';

export interface Occurrence {
  readonly name: string;
  /** The name's own text (inside the quotes of a quoted argument, after the `$` of a global). */
  readonly start: number;
  readonly end: number;
  /** 0-based line. */
  readonly line: number;
  readonly symbol: 'variable' | 'function';
  readonly role: OccurrenceRole;
  readonly how: OccurrenceHow;
  /** A one-word argument written in quotes. */
  readonly quoted?: boolean;
  /** The command (or user function) whose argument it is, and the parameter. */
  readonly command?: string;
  readonly param?: ParamSpec;
  /** Inside the body of this function. */
  readonly inFunction?: string;
  /** For a template placeholder: the offsets of `${` and `}`. */
  readonly delimiters?: readonly [number, number, number, number];
}

export interface FunctionInfo {
  readonly name: string;
  readonly nameSpan: Span;
  readonly params: readonly { text: string; span: Span }[];
  readonly block: SyntaxBlock;
  /** 0-based line of the header. */
  readonly line: number;
}

export interface EndpointInfo {
  readonly path: string;
  readonly method: string;
  readonly handler?: string;
  readonly call: CallStatement;
}

/**
 * Where each line stands (0-based): the function whose body holds it and the outermost loop around it there.
 * Two arrays, not an object per line: the index is built on every new version of a document.
 */
interface LineContexts {
  readonly fn: readonly (SyntaxBlock | undefined)[];
  readonly loop: readonly (SyntaxBlock | undefined)[];
}

function lineContexts(tree: SyntaxTree): LineContexts {
  const count = tree.statements.length;
  const fn = new Array<SyntaxBlock | undefined>(count).fill(undefined);
  const loop = new Array<SyntaxBlock | undefined>(count).fill(undefined);
  const mark = (block: SyntaxBlock, into: (SyntaxBlock | undefined)[], outermost: boolean) => {
    const first = block.opener.line; // 1-based: the opener's own line is outside its body
    const last = Math.min(block.closer ? block.closer.line - 1 : count, count);
    for (let l = first; l < last; l++) if (!outermost || into[l] === undefined) into[l] = block;
  };
  walk(tree.body, (node) => {
    if (node.kind !== 'block') return;
    if (node.block === 'function') mark(node, fn, false);
    // Outer blocks are visited first: the first loop marked on a line is the outermost.
    else if (node.block === 'loop') mark(node, loop, true);
  });
  return { fn, loop };
}

/** The parameter list a call of `spec` with `count` arguments uses. */
function paramsFor(spec: CommandSpec, count: number): readonly ParamSpec[] {
  let all = SIGNATURES.get(spec);
  if (!all) SIGNATURES.set(spec, (all = signaturesOf(spec)));
  for (const params of all) if (params.length === count) return params;
  return all[0] ?? [];
}

const SIGNATURES = new Map<CommandSpec, readonly (readonly ParamSpec[])[]>();

/**
 * `src[start, end)` holds no name for sure, so it need not be scanned: nothing in it can start an identifier,
 * a `$global` or a template (a number, an operator, `[]`), or it is one string in plain quotes with no quote,
 * escape or `$` inside — which the scanner reads as one string token. ASCII only; anything else is scanned.
 */
function holdsNoName(src: string, start: number, end: number): boolean {
  const q = src.charCodeAt(start);
  const quoted = end - start >= 2 && (q === 34 || q === 39) && src.charCodeAt(end - 1) === q;
  for (let i = quoted ? start + 1 : start; i < (quoted ? end - 1 : end); i++) {
    const c = src.charCodeAt(i);
    if (c >= 0x80 || c === 36 || c === 96 || c === 92 || (quoted && c === q)) return false;
    if (!quoted && (c === 95 || (c >= 65 && c <= 90) || (c >= 97 && c <= 122))) return false;
  }
  return true;
}

/** An occurrence while the index is built: every property present (one shape), its symbol and role set last. */
interface Building {
  name: string;
  start: number;
  end: number;
  line: number;
  symbol: 'variable' | 'function';
  role: OccurrenceRole;
  how: OccurrenceHow;
  quoted: boolean | undefined;
  command: string | undefined;
  param: ParamSpec | undefined;
  inFunction: string | undefined;
  delimiters: readonly [number, number, number, number] | undefined;
}

/** An occurrence of `name` at `span` on the 0-based `line`: a variable's use until its symbol and role are set. */
function occurrence(name: string, span: Span, line: number, how: OccurrenceHow): Building {
  return {
    name,
    start: span.start,
    end: span.end,
    line,
    symbol: 'variable',
    role: 'text',
    how,
    quoted: undefined,
    command: undefined,
    param: undefined,
    inFunction: undefined,
    delimiters: undefined,
  };
}

const functionName = (block: SyntaxBlock | undefined): string | undefined =>
  block?.opener.kind === 'function' ? block.opener.name.text : undefined;

const isNone = (text: string) => text === '' || text === 'None' || text === 'none';

/** Builds one index: the definitions and uses of every statement, then each use resolved. */
class Builder {
  readonly defs: Building[] = [];
  readonly uses: Building[] = [];
  /** Per use: it is called (`f(…)`), so a function of that name wins over a variable. */
  readonly called: boolean[] = [];
  readonly commands: { name: string; start: number; end: number }[] = [];
  readonly endpoints: EndpointInfo[] = [];
  /** The 0-based line of the statement being read: every occurrence found in it is on that line. */
  private line = 0;

  constructor(
    private readonly tree: SyntaxTree,
    private readonly contexts: LineContexts,
    private readonly functions: ReadonlyMap<string, FunctionInfo>,
  ) {}

  define(name: string, span: Span, how: OccurrenceHow): Building {
    const d = occurrence(name, span, this.line, how);
    d.role = 'definition';
    d.inFunction = functionName(this.contexts.fn[this.line]);
    this.defs.push(d);
    return d;
  }

  /** A use of `name`; `called` when it is called (`f(…)`), so a function of that name wins over a variable. */
  use(name: string, span: Span, how: OccurrenceHow, called: boolean): Building {
    const u = occurrence(name, span, this.line, how);
    this.uses.push(u);
    this.called.push(called);
    return u;
  }

  expression(start: number, end: number, command?: string): void {
    if (holdsNoName(this.tree.source, start, end)) return;
    for (const n of namesIn(this.tree.source, start, end)) {
      const u = this.use(n.name, n, n.how === 'bare' ? 'expression' : n.how, n.called);
      u.command = command;
      u.delimiters = n.delimiters;
    }
  }

  statement(s: Statement): void {
    this.line = s.line - 1;
    switch (s.kind) {
      case 'assign':
        this.define(s.target.text, s.target.span, 'assign');
        this.expression(s.value.span.start, s.value.span.end);
        break;
      case 'return':
        if (s.value) this.expression(s.value.span.start, s.value.span.end);
        break;
      case 'function':
        for (const p of s.params) this.define(p.text, p.span, 'parameter').inFunction = s.name.text;
        break;
      case 'call':
        this.call(s);
        break;
      default:
        break;
    }
  }

  private call(s: CallStatement): void {
    const name = s.name.text;
    const args = s.args;
    if (s.target) this.define(s.target.text, s.target.span, 'assign');
    const userFunction = this.functions.has(name);
    const spec = userFunction ? undefined : findCommand(name);
    if (!spec) {
      if (userFunction) this.use(name, s.name.span, 'call', true);
      // A user function's arguments, or an unknown command's, are expressions.
      for (const arg of args) this.expression(arg.span.start, arg.span.end, name);
      return;
    }
    this.commands.push({ name, start: s.name.span.start, end: s.name.span.end });
    const params = paramsFor(spec, args.length);
    const expressionIf =
      name === 'if' &&
      args.length === 3 &&
      isNone((args[0] as SyntaxArgument).text) &&
      isNone((args[1] as SyntaxArgument).text);
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as SyntaxArgument;
      const param = params[i];
      if (arg.text === '' || param?.kind === 'comparator') continue;
      if (i === 2 && expressionIf) {
        // if(None, None, "expression"): the quoted expression reads the names in it.
        this.expression(arg.span.start + 1, Math.max(arg.span.start + 1, arg.span.end - 1), name);
        continue;
      }
      const word = argumentWord(arg.text, arg.span.start);
      if (!word) {
        this.expression(arg.span.start, arg.span.end, name);
        continue;
      }
      const o =
        param?.kind === 'target' ? this.define(word.word, word, 'target') : this.use(word.word, word, 'word', false);
      o.command = name;
      o.param = param;
      o.quoted = word.quoted;
    }
    if (name === 'registerEndpoint' && args.length >= 2) {
      const handler = args[4] ? argumentWord(args[4].text, args[4].span.start) : undefined;
      this.endpoints.push({
        path: unquote(args[0]?.text ?? ''),
        method: unquote(args[1]?.text ?? ''),
        ...(handler ? { handler: handler.word } : {}),
        call: s,
      });
    }
  }
}

export class SymbolIndex {
  /** Every occurrence of a name, in source order. */
  readonly occurrences: readonly Occurrence[];
  readonly functions: ReadonlyMap<string, FunctionInfo>;
  /** Every call of a catalogue command: its name's span. */
  readonly commands: readonly { readonly name: string; readonly start: number; readonly end: number }[];
  readonly endpoints: readonly EndpointInfo[];
  /** Every definition of each variable, in source order. */
  readonly definitions: ReadonlyMap<string, readonly Occurrence[]>;
  /** What resolving a use reads besides its definitions. */
  private readonly where: Where;

  constructor(readonly tree: SyntaxTree) {
    const contexts = lineContexts(tree);
    const functions = new Map<string, FunctionInfo>();
    for (const block of tree.functions) {
      const header = block.opener;
      if (header.kind !== 'function' || functions.has(header.name.text)) continue;
      functions.set(header.name.text, {
        name: header.name.text,
        nameSpan: header.name.span,
        params: header.params,
        block,
        line: header.line - 1,
      });
    }
    const b = new Builder(tree, contexts, functions);
    for (const s of tree.statements) b.statement(s);

    const definitions = new Map<string, Occurrence[]>();
    for (const d of b.defs) {
      const list = definitions.get(d.name);
      if (list) list.push(d);
      else definitions.set(d.name, [d]);
    }
    const occurrences: Occurrence[] = b.defs.slice();
    for (const [name, fn] of functions) {
      const o = occurrence(name, fn.nameSpan, fn.line, 'function');
      o.symbol = 'function';
      o.role = 'definition';
      occurrences.push(o);
    }
    // Where each function is first called (a handler given to registerEndpoint counts as a call).
    const firstCall = new Map<string, number>();
    const { uses, called } = b;
    for (let i = 0; i < uses.length; i++) {
      const use = uses[i] as Building;
      const calls = called[i] === true || use.how === 'call' || (use.how === 'word' && !definitions.has(use.name));
      if (calls && functions.has(use.name) && !firstCall.has(use.name)) firstCall.set(use.name, use.line);
    }
    const where: Where = { contexts, firstCall };
    this.where = where;
    for (let i = 0; i < uses.length; i++) {
      const use = uses[i] as Building;
      use.inFunction = functionName(contexts.fn[use.line]);
      const defs = definitions.get(use.name);
      // A call of the user function of that name, or a use of a name only a function has.
      if (functions.has(use.name) && (called[i] === true || !defs)) {
        use.symbol = 'function';
        use.role = 'reference';
      } else use.role = resolve(use, defs, where);
      occurrences.push(use);
    }
    occurrences.sort((x, y) => x.start - y.start);
    this.occurrences = occurrences;
    this.functions = functions;
    this.commands = b.commands;
    this.endpoints = b.endpoints;
    this.definitions = definitions;
  }

  /** The occurrence whose name covers `offset` (its end included: a cursor right after a name is on it). */
  at(offset: number): Occurrence | undefined {
    const list = this.occurrences;
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const o = list[mid] as Occurrence;
      if (o.end < offset) lo = mid + 1;
      else if (o.start > offset) hi = mid - 1;
      else return o;
    }
    return undefined;
  }

  /** Every occurrence of the symbol `name` of kind `symbol` that is it (definitions and resolved uses). */
  occurrencesOf(name: string, symbol: 'variable' | 'function'): Occurrence[] {
    return this.occurrences.filter(
      (o) => o.name === name && o.symbol === symbol && (o.role === 'definition' || o.role === 'reference'),
    );
  }

  isVariable(name: string): boolean {
    return this.definitions.has(name);
  }

  /** How the use `o` would read if its variable's definitions were `defs` (what a rename would make of it). */
  classify(o: Occurrence, defs: readonly Occurrence[]): OccurrenceRole {
    if (o.role === 'definition' || o.symbol === 'function') return o.role;
    return resolve(o, defs, this.where);
  }
}

function unquote(text: string): string {
  const q = text.charCodeAt(0);
  return text.length >= 2 && (q === 34 || q === 39) && text.charCodeAt(text.length - 1) === q
    ? text.slice(1, -1)
    : text;
}

/** What resolving a use reads besides its definitions: the blocks around each line, where each function is first called. */
interface Where {
  readonly contexts: LineContexts;
  readonly firstCall: ReadonlyMap<string, number>;
}

/** How one use of a variable reads: its role, resolved (or not) by the definitions `defs` of its name. */
function resolve(
  use: Pick<Occurrence, 'line' | 'start'>,
  defs: readonly Occurrence[] | undefined,
  where: Where,
): OccurrenceRole {
  if (!defs) return 'text';
  const body = where.contexts.fn[use.line];
  const inFunction = functionName(body);
  for (const d of defs) {
    // Set inside another function's body: only once that function has been called before this line.
    if (d.inFunction !== undefined && d.inFunction !== inFunction) {
      const first = where.firstCall.get(d.inFunction);
      if (first !== undefined && first < use.line) return 'reference';
      continue;
    }
    // Inside a function body, what is set outside it is set when the body runs; its parameters too.
    if (body !== undefined && d.inFunction === undefined) return 'reference';
    if (d.how === 'parameter' || d.line < use.line) return 'reference';
  }
  const loop = where.contexts.loop[use.line];
  if (loop !== undefined)
    for (const d of defs)
      if (d.start >= loop.span.start && d.start < loop.span.end && d.line >= use.line) return 'either';
  return 'text';
}
