/**
 * Plain lines: the shapes most AVAP lines have, read from typed-array tokens (plainTokens.ts) without token objects —
 * a blank or comment line, a catalogue command with names, numbers, strings, templates or empty arguments,
 * `x = cmd(…)`, a call of a name that is no command, `x = expression` in the grammar's common subset (operands,
 * arithmetic and comparisons, and/or/not, `a if c else b`, groups, lists, dictionaries, calls of the built-ins),
 * `if(a, b, comparator)`, `else()`, a function's header, its `return` and closing `}`. The scanner and the statement
 * analysis make a token object per word and go through a dozen checks per statement; a plain line needs none of
 * that, which is most of what a validation of ordinary code costs.
 *
 * A line is read first and decided, with nothing changed: when anything in it is outside these shapes — a
 * character, a word, a form, anything that would make the analysis report — the line goes to the checks
 * (analysis/lines.ts), with its tokens made into token objects when its characters were plain, else through the
 * scanner. When the line is plain, this module has done to the analysis' state exactly what the checks do for it:
 * the same calls, in the same order, to the semantic tables, the block stack, the functions, the pending names and
 * the template check (which report what they report). A unit test holds the two paths to the same output over the
 * repository's programs, generated endpoints, the mutants and random lines.
 */
import { COMPARATORS, type CommandSpec, type ParamSpec } from '../catalogue';
import { isIdentifier } from '../calls';
import { TokenKind, type Token } from '../scanner';
import { matchSignature, mustHaveArgument, NUMBER_RE } from './arity';
import { applyRole, reportStoredWord, structuralRole } from './commands';
import { isLiteralCall, reportStoredCollection } from './plainLiterals';
import { checkTemplate, plainTemplate } from './lexicalFindings';
import { reportInlineBody } from './functions';
import { LineTokens, MAX_TOKENS, T } from './plainTokens';
import { BUILTIN, CALLABLE, COMMAND, NOT_A_NAME, W } from './plainWords';
import type { AnalysisContext } from './context';

/**
 * How lines are offered to the plain reader: `on` as shipped (the analyzer backs off after lines it did not take),
 * `always` every line (so a test holds the reader to the scanner's path on every line), `off` none.
 */
type PlainMode = 'on' | 'always' | 'off';
let mode: PlainMode = 'on';

/**
 * Sets how lines are offered to the plain reader; returns the previous setting.
 * @internal for the test that holds the two paths to the same output
 */
export function setPlainLines(next: PlainMode): PlainMode {
  const was = mode;
  mode = next;
  return was;
}

/** The analyzer backs off from the plain reader after lines it did not take (analyzer.ts). */
export function plainBackoff(): boolean {
  return mode === 'on';
}

/** Brackets deeper than this, or more `not`s, signs and `else`s than this, are left to the analysis. */
const MAX_BRACKETS = 8;
const MAX_PREFIXES = 16;
/** Arguments of a command call a plain line reads. */
const MAX_ARGS = 16;
/** An empty argument, in `args`. */
const EMPTY = -1;

/**
 * The reader of one line (one instance: the analysis reads one line at a time): the line's tokens (plainTokens.ts),
 * then its statement read from them by index.
 */
class PlainReader extends LineTokens {
  /** The grammar's position in the tokens. */
  at = 0;
  brackets = 0;
  prefixes = 0;
  /** Templates met, in order (token indices): the analysis checks each. */
  readonly templates = new Int32Array(MAX_TOKENS);
  templateCount = 0;
  /** A command call's arguments (token indices). */
  readonly args = new Int32Array(MAX_ARGS);
  argc = 0;

  // --------------------------------------------------------------- expressions

  /** expression := chain ('if' chain 'else' expression)? — false when not plain. */
  expression(): boolean {
    if (!this.chain()) return false;
    if (this.word(this.at) !== W.If) return true;
    this.at++;
    if (!this.chain() || this.word(this.at) !== W.Else) return false;
    this.at++;
    if (++this.prefixes > MAX_PREFIXES) return false;
    return this.expression();
  }

  /** chain := 'not'* comparison (('and' | 'or') 'not'* comparison)* */
  chain(): boolean {
    for (;;) {
      while (this.word(this.at) === W.Not) {
        if (++this.prefixes > MAX_PREFIXES) return false;
        this.at++;
      }
      if (!this.comparison()) return false;
      const joiner = this.word(this.at);
      if (joiner !== W.And && joiner !== W.Or) return true;
      this.at++;
    }
  }

  /** comparison := unary (operator unary)* */
  comparison(): boolean {
    if (!this.unary()) return false;
    while (this.kinds[this.at] === T.Binary) {
      this.at++;
      if (!this.unary()) return false;
    }
    return true;
  }

  /** unary := ('-' | '+')? operand */
  unary(): boolean {
    const k = this.at;
    if (this.kinds[k] === T.Binary) {
      const start = this.starts[k] as number;
      const c = this.src.charCodeAt(start);
      if ((this.ends[k] as number) - start !== 1 || (c !== 43 && c !== 45)) return false;
      if (++this.prefixes > MAX_PREFIXES) return false;
      this.at = k + 1;
    }
    return this.operand();
  }

  /** Elements up to `closer`, the opener read: expressions, or `key: value` pairs, between commas. */
  elements(closer: T, pairs: boolean): boolean {
    if (++this.brackets > MAX_BRACKETS) return false;
    const kinds = this.kinds;
    if (kinds[this.at] === closer) {
      this.at++;
      return true;
    }
    for (;;) {
      if (!this.expression()) return false;
      if (pairs) {
        if (kinds[this.at] !== T.Colon) return false;
        this.at++;
        if (!this.expression()) return false;
      }
      const k = kinds[this.at];
      if (k === closer) {
        this.at++;
        return true;
      }
      if (k !== T.Comma || kinds[this.at + 1] === closer) return false; // a trailing comma: the analysis decides
      this.at++;
    }
  }

  /** operand := number | string | template | name | builtin(args) | (expression) | [list] | {dict} */
  operand(): boolean {
    const k = this.at;
    switch (this.kinds[k] as T) {
      case T.Number:
      case T.String:
        this.at = k + 1;
        return true;
      case T.Template:
        this.templates[this.templateCount++] = k;
        this.at = k + 1;
        return true;
      case T.Open:
        this.at = k + 1;
        if (++this.brackets > MAX_BRACKETS || !this.expression() || this.kinds[this.at] !== T.Close) return false;
        this.at++;
        return true;
      case T.OpenBracket:
        this.at = k + 1;
        return this.elements(T.CloseBracket, false);
      case T.OpenBrace:
        this.at = k + 1;
        return this.elements(T.CloseBrace, true);
      case T.Ident:
        return this.name(k);
      default:
        return false;
    }
  }

  /** A name as an operand: not a word the checks report, not followed by an attribute or subscript; a call only of a built-in. */
  name(k: number): boolean {
    const word = this.word(k);
    if (NOT_A_NAME[word] === 1) return false;
    const builtin = BUILTIN[word] === 1;
    const next = this.kinds[k + 1] as T;
    if (next === T.Dot || next === T.OpenBracket) return false; // attributes and subscripts: the analysis reads them
    if (next !== T.Open) {
      this.at = k + 1;
      return true;
    }
    if (!builtin) return false; // a call the analysis notes
    this.at = k + 2;
    return this.elements(T.Close, false);
  }

  // --------------------------------------------------------------- command calls

  /**
   * The arguments of a call whose `(` is token `open`, each one name, number, string or template, or empty (`f(a, ,
   * b)`: EMPTY), and its `)` the line's last token: true, with `args` and `argc` set. As calls.ts parseCall counts
   * them: `f()` has none, `f(a,)` two.
   */
  callArguments(open: number): boolean {
    const kinds = this.kinds;
    let k = open + 1;
    let argc = 0;
    if (kinds[k] !== T.Close) {
      for (;;) {
        if (argc === MAX_ARGS) return false;
        const kind = kinds[k] as T;
        if (kind === T.Comma || kind === T.Close) this.args[argc++] = EMPTY;
        else if (kind >= T.Ident && kind <= T.Template) this.args[argc++] = k++;
        else return false;
        const sep = kinds[k];
        if (sep === T.Close) break;
        if (sep !== T.Comma) return false;
        k++;
      }
    }
    this.argc = argc;
    return k === this.count - 1;
  }

  /** Argument `a` is what `param` takes without a finding (analysis/arity.ts checkArgumentKind). */
  argumentFits(a: number, param: ParamSpec): boolean {
    const k = this.args[a] as number;
    if (k === EMPTY) return !mustHaveArgument(param);
    const kind = this.kinds[k] as T;
    if (param.kind === 'target') return kind === T.Ident || (kind === T.String && isIdentifier(this.inner(k)));
    if (param.kind === 'number') {
      return kind === T.Number || kind === T.Ident || (kind === T.String && NUMBER_RE.test(this.inner(k)));
    }
    return true;
  }

  /**
   * The parameters a call of `spec` with the arguments read matches when the analysis finds nothing in it (arity,
   * argument kinds, addVar's literal words, a discarded result), or undefined.
   */
  plainCall(spec: CommandSpec, context: 'statement' | 'assignment'): readonly ParamSpec[] | undefined {
    const argc = this.argc;
    const params =
      matchSignature(spec.params, argc, context) ??
      (spec.altParams ? matchSignature(spec.altParams, argc, context) : undefined);
    if (!params) return undefined;
    for (let a = 0; a < argc; a++) {
      const param = params[a];
      if (param && !this.argumentFits(a, param)) return undefined;
    }
    if (context === 'statement' && spec.resultOnlyByAssignment) return undefined;
    return params;
  }

  /** Templates among the arguments, checked in order (analysis/commands.ts checkArgumentContents). */
  argumentTemplates(ctx: AnalysisContext): void {
    for (let a = 0; a < this.argc; a++) {
      const k = this.args[a] as number;
      if (k !== EMPTY && this.kinds[k] === T.Template) this.checkTemplate(ctx, k);
    }
  }

  /** What the analysis does for a plain call: templates checked, keys and targets told to the semantic tables. */
  callEffects(ctx: AnalysisContext, spec: CommandSpec, params: readonly ParamSpec[], statement: boolean): void {
    const argc = this.argc;
    this.argumentTemplates(ctx);
    for (let a = 0; a < argc; a++) {
      const k = this.args[a] as number;
      if (!params[a]?.key || k === EMPTY || this.kinds[k] !== T.Ident) continue;
      const start = this.starts[k] as number;
      const end = this.ends[k] as number;
      ctx.sem.key({
        name: this.text(k),
        command: spec.name,
        line: ctx.lineNo,
        column: ctx.col(start),
        endColumn: ctx.col(end),
        start,
        end,
      });
    }
    if (statement && spec.name === 'addVar') this.storedValue(ctx); // between them, as semanticChecks reports it
    for (let a = 0; a < argc; a++) {
      const k = this.args[a] as number;
      if (params[a]?.kind !== 'target' || k === EMPTY) continue;
      ctx.sem.assign(this.kinds[k] === T.Ident ? this.text(k) : this.inner(k), ctx.lineNo);
    }
  }

  /** addVar's value, a word or a list or dict literal it stores as text: commands.ts reportStoredWord, addVarLiteral. */
  storedValue(ctx: AnalysisContext): void {
    const target = this.args[0] as number;
    const value = this.args[1] as number;
    const kind = value === EMPTY ? T.End : (this.kinds[value] as T);
    if (this.argc < 2 || (kind !== T.Ident && kind !== T.OpenBracket && kind !== T.OpenBrace)) return;
    const targetKind = target === EMPTY ? undefined : (this.kinds[target] as T);
    const quoted = targetKind === T.String ? this.inner(target) : undefined;
    const name =
      targetKind === T.Ident ? this.text(target) : quoted !== undefined && isIdentifier(quoted) ? quoted : undefined;
    const statement = { start: this.starts[0] as number, end: this.ends[this.count - 1] as number };
    if (kind !== T.Ident) return reportStoredCollection(ctx, this, { value, last: this.count - 1, name, statement });
    const word = { start: this.starts[value] as number, end: this.ends[value] as number, text: this.text(value) };
    reportStoredWord(ctx, word, name, statement);
  }

  // --------------------------------------------------------------- lines

  /** The line [lineStart, lineEnd) of `ctx.src` (see plainLine). */
  line(ctx: AnalysisContext, n: number): boolean {
    if (n === 0) return true;
    this.count = n;
    const first = this.kinds[0];
    if (first === T.CloseBrace) return n === 1 && this.closeFunction(ctx);
    if (first !== T.Ident) return false;
    // In the analysis' order (analysis/lines.ts): an assignment first, then the words, then a call.
    const second = this.kinds[1];
    if (second === T.Assign) return this.assignmentLine(ctx);
    const word = this.word(0);
    if (word === W.Return) return this.returnLine(ctx);
    if (word === W.Function) return this.functionLine(ctx);
    if (second === T.Open) return this.callLine(ctx);
    return false;
  }

  /** `}` alone, closing the function body on top of the blocks (analysis/braces.ts closingBrace). */
  closeFunction(ctx: AnalysisContext): boolean {
    const top = ctx.blocks.top;
    if (top?.kind !== 'function' || top.conversion) return false;
    ctx.blocks.closeBrace(ctx.site(this.token(TokenKind.Punct, 0)));
    return true;
  }

  /** `return` or `return expression` inside a function (analysis/statements.ts returnStatement). */
  returnLine(ctx: AnalysisContext): boolean {
    if (!ctx.blocks.insideFunction) return false;
    return this.count === 1 || this.expressionFrom(ctx, 1);
  }

  /**
   * `function name(a, b) {` at the top level, its name new, or the same with its body on the line and closed there
   * (reported) (analysis/functions.ts functionDefinition).
   */
  functionLine(ctx: AnalysisContext): boolean {
    const kinds = this.kinds;
    if (kinds[1] !== T.Ident || kinds[2] !== T.Open) return false;
    let k = 3;
    let arity = 0;
    if (kinds[k] !== T.Close) {
      for (;;) {
        if (kinds[k] !== T.Ident) return false;
        arity++;
        k++;
        if (kinds[k] === T.Close) break;
        if (kinds[k] !== T.Comma) return false;
        k++;
      }
    }
    if (kinds[k + 1] !== T.OpenBrace) return false;
    // The body on the header's line, closed there: reported, its tokens never read (functionDefinition).
    const last = this.count - 1;
    const inline = k + 1 !== last;
    if (inline && kinds[last] !== T.CloseBrace) return false;
    const end = this.ends[1] as number;
    if (COMMAND[this.word(1)] || ctx.blocks.insideAvapBlock) return false;
    const name = this.text(1);
    if (ctx.functions.has(name)) return false;
    ctx.functions.set(name, { arity, line: ctx.lineNo });
    if (inline) {
      // `{ }` is an empty body; anything between is reported.
      if (last > k + 2) {
        reportInlineBody(ctx, {
          start: this.starts[k + 2] as number,
          end: this.ends[last] as number,
          openEnd: this.ends[k + 1] as number,
          closes: true,
        });
      }
      return true;
    }
    ctx.blocks.push({
      kind: 'function',
      name,
      line: ctx.lineNo,
      column: ctx.col(this.starts[0] as number),
      endColumn: ctx.col(end),
      token: name,
    });
    return true;
  }

  /** `name(args)` on its own: a catalogue command, if() or else() with plain arguments. */
  callLine(ctx: AnalysisContext): boolean {
    const word = this.word(0);
    if (word === W.If) return this.ifLine(ctx);
    if (word === W.Else) {
      if (!this.callArguments(1) || this.argc > 0) return false;
      ctx.blocks.else(ctx.site(this.token(TokenKind.Ident, 0)));
      return true;
    }
    const spec = CALLABLE[word];
    if (spec === null) return false;
    if (spec === undefined) return this.callArguments(1) && this.unknownCall(ctx, 'statement');
    if (!this.callArguments(1)) {
      if (spec.name !== 'addVar' || !isLiteralCall(this)) return false;
      this.args[0] = 2; // addVar(target, [...]): the literal is the rest of the call
      this.args[1] = 4;
      this.argc = 2;
    }
    const params = this.plainCall(spec, 'statement');
    if (!params) return false;
    this.callEffects(ctx, spec, params, true);
    if (spec.block) applyRole(ctx, spec.block, this.token(TokenKind.Ident, 0));
    return true;
  }

  /**
   * A call of a name that is no command, its arguments read (`helper(a)`, `x = helper(a)`): deferred to the end
   * of the file as the analysis defers it (analysis/commands.ts checkCommand) — its templates checked, then the
   * call kept with the statement it is, for a fix that rewrites it. Not when the name stands for a block command.
   */
  unknownCall(ctx: AnalysisContext, context: 'statement' | 'assignment'): boolean {
    const nameAt = context === 'statement' ? 0 : 2;
    const name = this.text(nameAt);
    if (structuralRole(name) !== undefined) return false;
    this.argumentTemplates(ctx);
    const nameStart = this.starts[nameAt] as number;
    const nameEnd = this.ends[nameAt] as number;
    const end = this.ends[this.count - 1] as number;
    // Of its exact length: the call lives to the end of the file, and an empty array's first push reserves 17 items.
    const args = new Array<{ text: string; name: string | undefined }>(this.argc);
    for (let a = 0; a < this.argc; a++) {
      const k = this.args[a] as number;
      const kind = k === EMPTY ? undefined : (this.kinds[k] as T);
      const text = kind === undefined ? '' : this.text(k);
      const quoted = kind === T.String ? this.inner(k) : undefined;
      args[a] = {
        text,
        name: kind === T.Ident ? text : quoted !== undefined && isIdentifier(quoted) ? quoted : undefined,
      };
    }
    ctx.pending.push({
      name,
      argCount: this.argc,
      line: ctx.lineNo,
      column: ctx.col(nameStart),
      endColumn: ctx.col(nameEnd),
      context,
      text: this.src.slice(nameStart, end),
      shape: {
        start: this.starts[0] as number,
        end,
        target: context === 'assignment' ? this.text(0) : undefined,
        args,
      },
    });
    return true;
  }

  /**
   * `if(a, b, comparator)` with plain operands and a comparator the catalogue has, quoted or not (the quoted
   * expression of if(None, None, "…") is the analysis').
   */
  ifLine(ctx: AnalysisContext): boolean {
    const kinds = this.kinds;
    if (this.count !== 8 || kinds[3] !== T.Comma || kinds[5] !== T.Comma || kinds[7] !== T.Close) return false;
    for (const k of [2, 4]) {
      const kind = kinds[k] as T;
      if (kind < T.Ident || kind > T.Template) return false;
    }
    const cond = kinds[6] as T;
    let comparator: string;
    if (cond === T.String) {
      if (this.word(2) === W.None && this.word(4) === W.None) return false;
      comparator = this.inner(6).trim();
    } else if (cond === T.Binary || cond === T.Assign || cond === T.Ident) {
      comparator = this.text(6);
    } else return false;
    if (!COMPARATORS.has(comparator)) return false;
    applyRole(ctx, 'open-if', this.token(TokenKind.Ident, 0));
    if (kinds[2] === T.Template) this.checkTemplate(ctx, 2);
    if (kinds[4] === T.Template) this.checkTemplate(ctx, 4);
    return true;
  }

  /** `target = …`: a plain command call or a plain expression. */
  assignmentLine(ctx: AnalysisContext): boolean {
    if (COMMAND[this.word(0)] || this.count === 2) return false;
    const kinds = this.kinds;
    if (kinds[2] === T.Ident && kinds[3] === T.Open) {
      const called = this.word(2);
      if (BUILTIN[called] !== 1) {
        // `x = cmd(…)`: the analysis reads it as a command call when the call ends the line.
        if (!this.callArguments(3)) return false;
        const spec = COMMAND[called];
        if (!spec) {
          if (!this.unknownCall(ctx, 'assignment')) return false;
          ctx.sem.assign(this.text(0), ctx.lineNo);
          return true;
        }
        if (spec.block || spec.name === 'avapConnector') return false;
        const params = this.plainCall(spec, 'assignment');
        if (!params) return false;
        this.callEffects(ctx, spec, params, false);
        ctx.sem.assign(this.text(0), ctx.lineNo);
        return true;
      }
    }
    if (!this.expressionFrom(ctx, 2)) return false;
    ctx.sem.assign(this.text(0), ctx.lineNo);
    return true;
  }

  /** The tokens from `from` to the end are a plain expression: its templates checked, as the analysis does. */
  expressionFrom(ctx: AnalysisContext, from: number): boolean {
    this.at = from;
    this.brackets = 0;
    this.prefixes = 0;
    this.templateCount = 0;
    if (!this.expression() || this.at !== this.count) return false;
    for (let t = 0; t < this.templateCount; t++) this.checkTemplate(ctx, this.templates[t] as number);
    return true;
  }

  /** The template token `k` checked as the analysis checks it (lexicalFindings.ts), read in place when it can be. */
  checkTemplate(ctx: AnalysisContext, k: number): void {
    if (!plainTemplate(this.src, this.starts[k] as number, this.ends[k] as number)) {
      checkTemplate(ctx, this.token(TokenKind.Template, k));
    }
  }
}

const reader = new PlainReader();

/**
 * Reads the line [start, end) of `ctx.src` as a plain line and, when it is one, does what the analysis does for
 * it: true. Otherwise nothing is changed, and the answer is the line's tokens, as the scanner would give them,
 * when the line holds only characters a plain line may (the checks then read them: analysis/lines.ts), or
 * undefined: the scanner reads the line.
 */
export function plainLine(ctx: AnalysisContext, lineStart: number, lineEnd: number): true | Token[] | undefined {
  const n = tokenizePlain(ctx.src, lineStart, lineEnd);
  return n < 0 ? undefined : plainStatement(ctx, n);
}

/**
 * The first half of plainLine, for a reader that does not know where the line ends (analyzer.ts run): tokenizes
 * `src` from `start` up to the first line break (or `end`); the token count, the line's end in plainLineEnd(), or
 * -1 when the line holds a character a plain line may not (nothing kept). plainStatement is the second half.
 */
function tokenizePlain(src: string, start: number, end: number): number {
  if (mode === 'off') return -1;
  reader.src = src;
  const n = reader.tokenize(start, end);
  if (n < 0) reader.src = ''; // the program is not kept past its line
  return n;
}

/**
 * Gives the whole program to the faster tokenizer (plainTokens.ts LineTokens.load), for a reader that reads it from
 * the first line to the last (analyzer.ts run): a ticket for tokenizeLoaded, 0 when the lines are tokenized as by
 * tokenizePlain.
 */
export function loadPlain(src: string): number {
  return mode === 'off' ? 0 : reader.load(src);
}

/** tokenizePlain of the program loaded with `ticket` (loadPlain). */
export function tokenizeLoaded(ticket: number, src: string, start: number, end: number): number {
  if (mode === 'off') return -1;
  const n = reader.tokenizeLoaded(ticket, src, start, end);
  if (n < 0) reader.src = ''; // the program is not kept past its line
  return n;
}

/** Where the line tokenizePlain read ends. */
export function plainLineEnd(): number {
  return reader.lineEnd;
}

/** The second half of plainLine: the statement of the `n` tokens tokenizePlain read, with the context on its line. */
export function plainStatement(ctx: AnalysisContext, n: number): true | Token[] {
  const answer = reader.line(ctx, n) || reader.scannerTokens(n);
  reader.src = ''; // the program is not kept past its line
  return answer;
}
