/**
 * Turns a syntax tree into the program the interpreter runs, once per source
 * text (cached): arguments read into ArgSpecs, expressions parsed and compiled
 * to closures, commands and functions looked up, and the static facts a run
 * reports as portability notes (a trailing comment, a comma inside brackets…)
 * worked out here so a run only copies them.
 */
import { parseSyntax, type CallStatement, type Statement, type SyntaxBlock, type SyntaxNode } from '../syntax';
import { argSpec, type ArgSpec } from './args';
import { COMMANDS, type CommandDef } from './commands';
import { compile as compileExpression, type Compiled } from './expressions/evaluate';
import { parseExpression } from './expressions/parse';
import { isRunFailure, RunFailure } from './failure';
import type { PortabilityRuleId } from './portability';

/** An expression, compiled; `error` when it could not be (a SyntaxError falls back to the text, anything else fails). */
export interface Expr {
  readonly text: string;
  readonly run?: Compiled;
  readonly error?: RunFailure;
}

interface OpBase {
  readonly line: number;
  /** The command or statement kind, for logs, steps and errors. */
  readonly label: string;
  /** Portability rules this statement depends on whenever it runs. */
  readonly notes: readonly PortabilityRuleId[];
  /** Why the statement cannot run (a line the tree could not read, an unclosed parenthesis…). */
  readonly flaw?: string;
}

export interface CallOp extends OpBase {
  readonly k: 'call';
  readonly name: string;
  readonly args: readonly ArgSpec[];
  /** `x = name(…)`. */
  readonly target?: string;
  readonly command?: CommandDef;
  /** Set when `name` is a function of the program. */
  readonly fn?: string;
}

interface AssignOp extends OpBase {
  readonly k: 'assign';
  readonly target: string;
  readonly expr: Expr;
}

export interface IfOp extends OpBase {
  readonly k: 'if';
  readonly args: readonly ArgSpec[];
  readonly then: readonly Op[];
  readonly orelse: readonly Op[];
  /** The form if(None, None, "expression"): the compiled condition. */
  readonly condition?: Expr;
}

export interface LoopOp extends OpBase {
  readonly k: 'loop';
  readonly args: readonly ArgSpec[];
  readonly body: readonly Op[];
}

interface Handler {
  readonly line: number;
  readonly args: readonly ArgSpec[];
  readonly target?: string;
  readonly body: readonly Op[];
}

export interface TryOp extends OpBase {
  readonly k: 'try';
  readonly body: readonly Op[];
  readonly handler?: Handler;
}

export interface AsyncOp extends OpBase {
  readonly k: 'async';
  readonly args: readonly ArgSpec[];
  readonly body: readonly Op[];
}

export interface ReturnOp extends OpBase {
  readonly k: 'return';
  readonly expr?: Expr;
}

/** A statement that does nothing when it runs (a stray end(), a closing brace). */
interface NopOp extends OpBase {
  readonly k: 'nop';
}

export type Op = CallOp | AssignOp | IfOp | LoopOp | TryOp | AsyncOp | ReturnOp | NopOp;

export interface FunctionDef {
  readonly name: string;
  readonly line: number;
  readonly params: readonly string[];
  readonly body: readonly Op[];
}

export interface Program {
  readonly body: readonly Op[];
  readonly functions: ReadonlyMap<string, FunctionDef>;
  /** Notes every run of the program depends on (its text, not what runs): lines the reference reads differently. */
  readonly notes: readonly { readonly line: number; readonly rule: PortabilityRuleId }[];
}

const EXPRESSION_BUILTINS = new Set(['str', 'int', 'float', 'len']);

export function compileExpr(text: string, functions: ReadonlySet<string>): Expr {
  try {
    return { text, run: compileExpression(parseExpression(text), functions) };
  } catch (e) {
    if (isRunFailure(e)) return { text, error: e };
    return { text, error: RunFailure.of('internal-error', `cannot compile the expression: ${String(e)}`) };
  }
}

/** The raw line contains `=` outside the statement's own assignment: the reference reads it as an assignment. */
function hasEquals(s: CallStatement, source: string): boolean {
  const from = s.open.end;
  const to = s.close ? s.close.start : s.span.end;
  return source.slice(from, to).includes('=');
}

/** A comma the reference would split at: inside brackets, braces or a template (it only protects parentheses and quotes). */
function splitsDifferently(args: readonly ArgSpec[]): boolean {
  return args.some((a) => a.raw.includes(',') && !a.quoted && /[[\]{}`]/.test(a.raw));
}

class Compiler {
  private readonly functionNames: ReadonlySet<string>;

  constructor(
    private readonly source: string,
    functionNames: ReadonlySet<string>,
  ) {
    this.functionNames = functionNames;
  }

  private notesOf(s: Statement): PortabilityRuleId[] {
    const notes: PortabilityRuleId[] = [];
    if (s.comment) {
      // The reference reads the comment as part of the line: an expression takes it in, a call only when it holds ')' or '='.
      const comment = this.source.slice(s.comment.start, s.comment.end);
      if (s.kind === 'assign' || s.kind === 'return' || /[)=]/.test(comment)) notes.push('trailing-comment');
    }
    if (s.kind === 'call') {
      const args = s.args;
      if (!s.target && s.role !== 'open-if' && s.role !== 'open-loop' && hasEquals(s, this.source)) {
        notes.push('line-with-equals');
      }
      if (args.some((a) => a.text === '') && s.role !== 'exception') notes.push('empty-argument');
    }
    return notes;
  }

  private callArgs(s: CallStatement): ArgSpec[] {
    return s.args.map((a) => argSpec(a.text));
  }

  private flawOf(s: CallStatement): string | undefined {
    if (s.flaw) return s.flaw;
    if (s.trailing) return `unexpected text after ')': ${this.source.slice(s.trailing.start, s.trailing.end)}`;
    return undefined;
  }

  statement(s: Statement): Op | undefined {
    const base = { line: s.line, notes: this.notesOf(s) };
    switch (s.kind) {
      case 'blank':
      case 'comment':
      case 'function':
        return undefined;
      case 'open-brace':
      case 'close-brace':
        return { k: 'nop', ...base, label: s.kind === 'open-brace' ? '{' : '}' };
      case 'unparsed':
        return { k: 'nop', ...base, label: 'unparsed', flaw: `line ${s.line} is not AVAP: ${s.reason}` };
      case 'return':
        return {
          k: 'return',
          ...base,
          label: 'return',
          ...(s.value ? { expr: compileExpr(s.value.text, this.functionNames) } : {}),
        };
      case 'assign': {
        // The reference runs a value that holds '(' , ends with ')' and has no + - * / as a command of that name.
        const v = s.value.text;
        if (v.includes('(') && v.endsWith(')') && !/[+\-*/]/.test(v)) {
          const callee = v.slice(0, v.indexOf('(')).trim();
          if (!this.functionNames.has(callee)) base.notes.push('builtin-call-alone');
        }
        return {
          k: 'assign',
          ...base,
          label: 'assign',
          target: s.target.text,
          expr: compileExpr(s.value.text, this.functionNames),
          ...(s.flaw ? { flaw: s.flaw } : {}),
        };
      }
      case 'call':
        return this.call(s, base.notes);
    }
  }

  private call(s: CallStatement, notes: PortabilityRuleId[]): Op {
    const name = s.name.text;
    const args = this.callArgs(s);
    if (splitsDifferently(args)) notes.push('comma-in-brackets');
    const flaw = this.flawOf(s);
    const base = { line: s.line, label: name, notes, ...(flaw ? { flaw } : {}) };
    if (s.role !== undefined && s.role !== 'exception') {
      // A block command that reaches here has nothing to open or close (a stray end(), else()).
      return { k: 'nop', ...base };
    }
    if (s.role === 'exception') return { k: 'nop', ...base };
    const fn = this.functionNames.has(name) ? name : undefined;
    const command = fn ? undefined : COMMANDS.get(name);
    if (command && !command.inReference) notes.push('command-not-in-reference');
    if (s.target && EXPRESSION_BUILTINS.has(name)) notes.push('builtin-call-alone');
    return {
      k: 'call',
      ...base,
      name,
      args,
      ...(s.target ? { target: s.target.text } : {}),
      ...(command ? { command } : {}),
      ...(fn ? { fn } : {}),
    };
  }

  nodes(nodes: readonly SyntaxNode[], inBlock: boolean): Op[] {
    const ops: Op[] = [];
    for (const n of nodes) {
      const op = n.kind === 'block' ? this.block(n, inBlock) : this.statement(n);
      if (op) ops.push(op);
    }
    return ops;
  }

  private block(b: SyntaxBlock, inBlock: boolean): Op | undefined {
    if (b.block === 'function') return undefined; // hoisted
    const opener = b.opener as CallStatement;
    const notes = this.notesOf(opener);
    const flaw = this.flawOf(opener);
    const base = { line: opener.line, notes, ...(flaw ? { flaw } : {}) };
    const args = this.callArgs(opener);
    if (splitsDifferently(args)) notes.push('comma-in-brackets');
    // On the reference a try's end() closes the block around it, so that block runs differently there whether or
    // not the try itself is reached: the outermost block holding such a try notes it when it is reached.
    if (!inBlock && b.block !== 'try' && holdsClosedTry(b)) notes.push('try-inside-block');
    switch (b.block) {
      case 'if': {
        const condition = this.expressionCondition(args);
        return {
          k: 'if',
          ...base,
          label: 'if',
          args,
          then: this.nodes(b.body, true),
          orelse: this.nodes(b.alternate ?? [], true),
          ...(condition ? { condition } : {}),
        };
      }
      case 'loop':
        return { k: 'loop', ...base, label: 'startLoop', args, body: this.nodes(b.body, true) };
      case 'async':
        notes.push('command-not-in-reference');
        return { k: 'async', ...base, label: 'go_async', args, body: this.nodes(b.body, true) };
      case 'try': {
        if (inBlock && b.closer) notes.push('try-inside-block');
        const d = b.divider;
        const handler: Handler | undefined = d
          ? {
              line: d.line,
              args: this.callArgs(d),
              ...(d.target ? { target: d.target.text } : {}),
              body: this.nodes(b.alternate ?? [], true),
            }
          : undefined;
        return { k: 'try', ...base, label: 'try', body: this.nodes(b.body, true), ...(handler ? { handler } : {}) };
      }
    }
  }

  /** if(None, None, "expression") (also with empty operands): the quoted third argument is a condition. */
  private expressionCondition(args: readonly ArgSpec[]): Expr | undefined {
    const [a, b, c] = args;
    if (args.length !== 3 || !a || !b || !c) return undefined;
    const none = (x: ArgSpec): boolean => x.empty || (x.raw === 'None' && !x.quoted);
    if (!none(a) || !none(b) || !c.quoted) return undefined;
    return compileExpr(c.text, this.functionNames);
  }

  functions(blocks: readonly SyntaxBlock[]): Map<string, FunctionDef> {
    const out = new Map<string, FunctionDef>();
    for (const b of blocks) {
      if (b.opener.kind !== 'function') continue;
      const name = b.opener.name.text;
      // The body of a function is its own top level: a try() at its top closes nothing else.
      out.set(name, {
        name,
        line: b.opener.line,
        params: b.opener.params.map((p) => p.text),
        body: this.nodes(b.body, false),
      });
    }
    return out;
  }
}

/** A try() … end() somewhere inside the block (at any depth). */
function holdsClosedTry(b: SyntaxBlock): boolean {
  const inside = (nodes: readonly SyntaxNode[]): boolean =>
    nodes.some((n) => n.kind === 'block' && ((n.block === 'try' && n.closer !== undefined) || holdsClosedTry(n)));
  return inside(b.body) || inside(b.alternate ?? []);
}

function compileProgram(source: string): Program {
  const tree = parseSyntax(source);
  const names = new Set(tree.functions.flatMap((b) => (b.opener.kind === 'function' ? [b.opener.name.text] : [])));
  const compiler = new Compiler(source, names);
  const functions = compiler.functions(tree.functions);
  const notes: { line: number; rule: PortabilityRuleId }[] = [];
  for (const st of tree.statements) {
    // A line inside /* … */ that the reference would run (it holds a call or an assignment).
    if (st.kind === 'comment' && !source.startsWith('//', st.span.start)) {
      const text = source.slice(st.span.start, st.span.end);
      if ((text.includes('(') && text.includes(')')) || /^\s*[\p{L}_][\p{L}\p{N}_]*\s*=/u.test(text)) {
        notes.push({ line: st.line, rule: 'block-comment' });
      }
    }
  }
  return { body: compiler.nodes(tree.body, false), functions, notes };
}

const CACHE_SIZE = 256;
const cache = new Map<string, Program>();

/** The compiled program of a source text: compiled once, then shared by every run of the same text. */
export function programOf(source: string): Program {
  const hit = cache.get(source);
  if (hit) return hit;
  const program = compileProgram(source);
  cache.set(source, program);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return program;
}
