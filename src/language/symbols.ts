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
import { walk, type CallStatement, type Span, type Statement, type SyntaxBlock, type SyntaxTree } from '../syntax';
import { argumentWord, namesIn, type NameUse } from './words';

export type OccurrenceRole = 'definition' | 'reference' | 'text' | 'either';

export type OccurrenceHow =
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

/** Where each line stands: the function whose body holds it and the outermost loop around it there. */
interface LineContext {
  fn?: SyntaxBlock;
  loop?: SyntaxBlock;
}

function lineContexts(tree: SyntaxTree): LineContext[] {
  const contexts: LineContext[] = Array.from({ length: tree.statements.length }, () => ({}));
  const mark = (block: SyntaxBlock, set: (c: LineContext) => void) => {
    const first = block.opener.line; // 1-based: the opener's own line is outside its body
    const last = block.closer ? block.closer.line - 1 : tree.statements.length;
    for (let l = first; l < last && l < contexts.length; l++) set(contexts[l] as LineContext);
  };
  walk(tree.body, (node) => {
    if (node.kind !== 'block') return;
    if (node.block === 'function') mark(node, (c) => (c.fn = node));
    // Outer blocks are visited first: the first loop marked on a line is the outermost.
    else if (node.block === 'loop') mark(node, (c) => (c.loop ??= node));
  });
  return contexts;
}

/** The parameter list a call of `spec` with `count` arguments uses. */
function paramsFor(spec: CommandSpec, count: number): readonly ParamSpec[] {
  const all = signaturesOf(spec);
  return all.find((params) => params.length === count) ?? all[0] ?? [];
}

interface Use {
  name: string;
  start: number;
  end: number;
  line: number;
  how: OccurrenceHow;
  quoted?: boolean;
  command?: string;
  param?: ParamSpec;
  called?: boolean;
  delimiters?: readonly [number, number, number, number];
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
  private readonly contexts: readonly LineContext[];
  private readonly firstCall: ReadonlyMap<string, number>;

  constructor(readonly tree: SyntaxTree) {
    const contexts = lineContexts(tree);
    this.contexts = contexts;
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
    const defs: Occurrence[] = [];
    const uses: Use[] = [];
    const commands: { name: string; start: number; end: number }[] = [];
    const endpoints: EndpointInfo[] = [];
    const fnName = (line: number) => {
      const fn = contexts[line]?.fn?.opener;
      return fn?.kind === 'function' ? fn.name.text : undefined;
    };
    const define = (name: string, span: Span, line: number, how: OccurrenceHow, extra: Partial<Occurrence> = {}) => {
      const inFunction = fnName(line);
      defs.push({
        name,
        start: span.start,
        end: span.end,
        line,
        symbol: 'variable',
        role: 'definition',
        how,
        ...(inFunction ? { inFunction } : {}),
        ...extra,
      });
    };
    const expression = (span: Span, line: number, command?: string) => {
      for (const use of namesIn(tree.source, span.start, span.end)) uses.push(useOf(use, line, command));
    };

    for (const s of tree.statements) {
      const line = s.line - 1;
      switch (s.kind) {
        case 'assign':
          define(s.target.text, s.target.span, line, 'assign');
          expression(s.value.span, line);
          break;
        case 'return':
          if (s.value) expression(s.value.span, line);
          break;
        case 'function':
          for (const p of s.params) define(p.text, p.span, line, 'parameter', { inFunction: s.name.text });
          break;
        case 'call':
          this.readCall(s, line, { define, uses, commands, endpoints, expression }, functions);
          break;
        default:
          break;
      }
    }

    const definitions = new Map<string, Occurrence[]>();
    for (const d of defs) {
      const list = definitions.get(d.name);
      if (list) list.push(d);
      else definitions.set(d.name, [d]);
    }
    const occurrences: Occurrence[] = [...defs];
    for (const [name, fn] of functions)
      occurrences.push({
        name,
        start: fn.nameSpan.start,
        end: fn.nameSpan.end,
        line: fn.line,
        symbol: 'function',
        role: 'definition',
        how: 'function',
      });
    // Where each function is first called (a handler given to registerEndpoint counts as a call).
    const firstCall = new Map<string, number>();
    for (const use of uses) {
      const calls = use.called === true || use.how === 'call' || (use.how === 'word' && !definitions.has(use.name));
      if (calls && functions.has(use.name) && !firstCall.has(use.name)) firstCall.set(use.name, use.line);
    }
    this.firstCall = firstCall;
    for (const use of uses) occurrences.push(resolve(use, definitions, functions, contexts, firstCall));
    occurrences.sort((a, b) => a.start - b.start);
    this.occurrences = occurrences;
    this.functions = functions;
    this.commands = commands;
    this.endpoints = endpoints;
    this.definitions = definitions;
  }

  private readCall(
    s: CallStatement,
    line: number,
    sink: {
      define: (name: string, span: Span, line: number, how: OccurrenceHow, extra?: Partial<Occurrence>) => void;
      uses: Use[];
      commands: { name: string; start: number; end: number }[];
      endpoints: EndpointInfo[];
      expression: (span: Span, line: number, command?: string) => void;
    },
    functions: ReadonlyMap<string, FunctionInfo>,
  ): void {
    const name = s.name.text;
    if (s.target) sink.define(s.target.text, s.target.span, line, 'assign');
    const spec = functions.has(name) ? undefined : findCommand(name);
    if (!spec) {
      if (functions.has(name))
        sink.uses.push({ name, start: s.name.span.start, end: s.name.span.end, line, how: 'call', called: true });
      // A user function's arguments, or an unknown command's, are expressions.
      for (const arg of s.args) sink.expression(arg.span, line, name);
      return;
    }
    sink.commands.push({ name, start: s.name.span.start, end: s.name.span.end });
    const params = paramsFor(spec, s.args.length);
    const expressionIf =
      name === 'if' &&
      s.args.length === 3 &&
      s.args.slice(0, 2).every((a) => a.text === '' || a.text === 'None' || a.text === 'none');
    s.args.forEach((arg, i) => {
      const param = params[i];
      if (arg.text === '') return;
      if (param?.kind === 'comparator') return;
      if (i === 2 && expressionIf) {
        // if(None, None, "expression"): the quoted expression reads the names in it.
        sink.expression({ start: arg.span.start + 1, end: Math.max(arg.span.start + 1, arg.span.end - 1) }, line, name);
        return;
      }
      const word = argumentWord(arg.text, arg.span.start);
      if (param?.kind === 'target') {
        if (word) sink.define(word.word, word, line, 'target', { command: name, param, quoted: word.quoted });
        return;
      }
      if (word) {
        sink.uses.push({
          name: word.word,
          start: word.start,
          end: word.end,
          line,
          how: 'word',
          quoted: word.quoted,
          command: name,
          ...(param ? { param } : {}),
        });
        return;
      }
      sink.expression(arg.span, line, name);
    });
    if (name === 'registerEndpoint' && s.args.length >= 2) {
      const handler = s.args[4] ? argumentWord(s.args[4].text, s.args[4].span.start) : undefined;
      sink.endpoints.push({
        path: unquote(s.args[0]?.text ?? ''),
        method: unquote(s.args[1]?.text ?? ''),
        ...(handler ? { handler: handler.word } : {}),
        call: s,
      });
    }
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
    const renamed = new Map([[o.name, defs]]);
    return resolve({ ...o, called: false }, renamed, new Map(), this.contexts, this.firstCall).role;
  }
}

function unquote(text: string): string {
  const q = text.charCodeAt(0);
  return text.length >= 2 && (q === 34 || q === 39) && text.charCodeAt(text.length - 1) === q
    ? text.slice(1, -1)
    : text;
}

function useOf(use: NameUse, line: number, command?: string): Use {
  return {
    name: use.name,
    start: use.start,
    end: use.end,
    line,
    how: use.how === 'bare' ? 'expression' : use.how,
    called: use.called,
    ...(command ? { command } : {}),
    ...(use.delimiters ? { delimiters: use.delimiters } : {}),
  };
}

/** Classifies one use: a function, or a variable resolved (or not) by the definitions before it. */
function resolve(
  use: Use,
  definitions: ReadonlyMap<string, readonly Occurrence[]>,
  functions: ReadonlyMap<string, FunctionInfo>,
  contexts: readonly LineContext[],
  firstCall: ReadonlyMap<string, number>,
): Occurrence {
  const { called, ...rest } = use;
  const base = { ...rest } as Omit<Occurrence, 'symbol' | 'role'>;
  const context = contexts[use.line];
  const fn = context?.fn?.opener;
  const inFunction = fn?.kind === 'function' ? fn.name.text : undefined;
  const withFn = inFunction ? { ...base, inFunction } : base;
  const defs = definitions.get(use.name);
  if (functions.has(use.name) && (called || !defs)) return { ...withFn, symbol: 'function', role: 'reference' };
  if (!defs) return { ...withFn, symbol: 'variable', role: 'text' };
  const body = context?.fn;
  const earlier = defs.some((d) => {
    // Set inside another function's body: only once that function has been called before this line.
    if (d.inFunction !== undefined && d.inFunction !== inFunction) {
      const called = firstCall.get(d.inFunction);
      return called !== undefined && called < use.line;
    }
    // Inside a function body, what is set outside it is set when the body runs; its parameters too.
    if (body !== undefined && d.inFunction === undefined) return true;
    if (d.how === 'parameter') return true;
    return d.line < use.line;
  });
  if (earlier) return { ...withFn, symbol: 'variable', role: 'reference' };
  const loop = context?.loop;
  const inLoopLater =
    loop !== undefined && defs.some((d) => d.start >= loop.span.start && d.start < loop.span.end && d.line >= use.line);
  return { ...withFn, symbol: 'variable', role: inLoopLater ? 'either' : 'text' };
}

/** The statement at a 0-based line. */
export function statementOn(tree: SyntaxTree, line: number): Statement | undefined {
  return tree.statements[line];
}
