/**
 * Statement analysis: one physical line at a time (AVAP has no line
 * continuation), each line classified as a command call, an assignment, a
 * block keyword, a function definition, or a foreign construct. Names that are
 * neither commands nor functions are resolved at the end of the file, because
 * a function may be defined after its first call.
 */
import { BlockStack, closerOf, type Block, type Site } from './blocks';
import {
  isCloseBracket,
  isIdentifier,
  isOpenBracket,
  matchBracket,
  parseCall,
  quotedIdentifier,
  type CallArg,
  type ParsedCall,
} from './calls';
import {
  COMPARATOR_FIXES,
  COMPARATORS,
  EXPRESSION_BUILTINS,
  findCommand,
  findCommandIgnoringCase,
  findForeignOperator,
  findForeignStatement,
  findForeignWord,
  findHallucination,
  findHallucinationIgnoringCase,
  signatureOf,
  signaturesOf,
  type BlockRole,
  type CommandSpec,
  type ForeignStatement,
  type ParamSpec,
} from './catalogue';
import { Rule, type RuleDefinition } from './catalogue/rules';
import { checkExpression, reportForeignTokens, type ExpressionHost } from './expressions';
import type { FixHint } from './fixes/candidates';
import type { BraceConversion } from './fixes/braces';
import {
  allmanBraceConversion,
  braceBodyConversion,
  branchWords,
  closeBlockFix,
  compoundAssignmentFix,
  braceLoopConversion,
  declarationFix,
  foreignElseFix,
  foreignIfFix,
  foreignTryFix,
  functionColonFix,
  goFuncFix,
  inlineBodyFix,
  isBraceBranchLine,
  pythonDefFix,
  pythonLoopFix,
  hoistFix,
  oneCallPerName,
  removeLineFix,
  swappedArgumentsFix,
  terminatorFix,
  topLevelReturnFix,
  ElseIfRewrite,
} from './fixes/builders';
import { completedCallFix, inventedCallFix, type CallShape } from './fixes/commands';
import type { Reporter } from './reporter';
import { Semantics } from './semantics';
import {
  isOp,
  isPunct,
  isWord,
  newScanState,
  scanLine,
  TokenKind,
  type LexicalProblem,
  type ScanState,
  type Token,
} from './scanner';
import { MAX_COMPARED_LENGTH, suggestName } from './suggest';
import { abbreviate, valueLiteral } from './wording';
import { pendingRule, type CallContext, type FunctionInfo, type PendingCall } from './pendingCalls';
import { AppendList, layerOver, MAX_LAYERS } from './layered';
import { NEAR_NAME_CELLS_FLOOR, NEAR_NAME_CELLS_PER_CHAR, NearNames } from './nearNames';

/** The state of an analysis between two lines, as far as later findings depend on it. */
export interface AnalysisState {
  blocks: BlockStack;
  sem: Semantics;
  functions: ReadonlyMap<string, FunctionInfo>;
  pending: { readonly length: number; at(index: number): PendingCall | undefined };
  connectors: ReadonlySet<string>;
  inBlockComment: boolean;
  /** The line of the block comment still open, when one is. */
  blockCommentLine: number | undefined;
}

/** Operands if(a, b, comparator) compares as they are: a name (its value), a global, a number or a string. */
const PLAIN_OPERANDS: ReadonlySet<TokenKind> = new Set([
  TokenKind.Ident,
  TokenKind.Global,
  TokenKind.Number,
  TokenKind.String,
]);
const NUMBER_RE = /^[+-]?\d+(\.\d+)?$/;
const ASSIGN_FOREIGN_OPS = new Set(['+=', '-=', '*=', '/=', '++', '--']);

const LITERAL_WORDS: Readonly<Record<string, string>> = {
  None: 'null',
  True: 'a boolean',
  False: 'a boolean',
  true: 'a boolean',
  false: 'a boolean',
};
/** Another language's null in addVar: text as well, and its value is AVAP's None. */
const FOREIGN_NULL = 'null';

/** A scalar literal: a number, a closed string, None or a boolean. */
function isScalar(x: Token | undefined): boolean {
  return (
    x !== undefined &&
    (x.kind === TokenKind.Number ||
      (x.kind === TokenKind.String && !x.unterminated) ||
      (x.kind === TokenKind.Ident && LITERAL_WORDS[x.text] !== undefined))
  );
}

/** Index after the literal (scalar, or list / dict literal of literals) starting at `i`, or -1. */
function literalEnd(t: readonly Token[], i: number, end: number, depth = 0): number {
  const x = t[i];
  if (isScalar(x)) return i + 1;
  const list = isPunct(x, '[');
  if ((!list && !isPunct(x, '{')) || depth > 8) return -1;
  const close = list ? ']' : '}';
  let j = i + 1;
  if (isPunct(t[j], close)) return j + 1;
  while (j < end) {
    if (!list) {
      if (!isScalar(t[j]) || !isPunct(t[j + 1], ':')) return -1;
      j += 2;
    }
    j = literalEnd(t, j, end, depth + 1);
    if (j === -1) return -1;
    if (isPunct(t[j], close)) return j + 1;
    if (!isPunct(t[j], ',')) return -1;
    j++;
  }
  return -1;
}

/**
 * What a value argument is when it is a literal the specification's addVar
 * keeps as text: None, a boolean, or a list or dict literal of such literals
 * (`[]`, `[1, 2]`, `{}`, `{"a": [1]}`). Undefined for anything else (text such
 * as a regex class `[a-z]` stays text by intent).
 */
function literalKind(t: readonly Token[], arg: CallArg): string | undefined {
  const first = t[arg.first];
  if (!first) return undefined;
  if (arg.last - arg.first === 1)
    return first.kind !== TokenKind.Ident
      ? undefined
      : first.text === FOREIGN_NULL
        ? 'null'
        : LITERAL_WORDS[first.text];
  if (literalEnd(t, arg.first, arg.last) !== arg.last) return undefined;
  const empty = arg.last - arg.first === 2;
  return isPunct(first, '[') ? (empty ? 'an empty list' : 'a list') : empty ? 'an empty dictionary' : 'a dictionary';
}

function last<T>(items: readonly T[]): T | undefined {
  return items[items.length - 1];
}

/** The parameter list `params` as `argc` arguments in `context` match it, or undefined (see Analyzer.checkArity). */
function matchSignature(
  params: readonly ParamSpec[],
  argc: number,
  context: 'statement' | 'assignment',
): readonly ParamSpec[] | undefined {
  let optionalTail = 0;
  for (let i = params.length - 1; i >= 0 && params[i]?.optional; i--) optionalTail++;
  if (argc <= params.length && argc >= params.length - optionalTail) return params;
  // `x = cmd(a)`: the assignment supplies the trailing target.
  if (context === 'assignment' && params.length > 0 && last(params)?.kind === 'target' && argc === params.length - 1) {
    return params.slice(0, -1);
  }
  return undefined;
}

/** Some token of the line is `;` (at any depth). */
function hasSemicolon(tokens: readonly Token[]): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.kind === TokenKind.Punct && t.text === ';') return true;
  }
  return false;
}

/** An argument as messages name it: `argument 2 of 'addVar' (value)`. */
function argumentName(spec: CommandSpec, index: number, param: ParamSpec): string {
  return `argument ${index + 1} of '${spec.name}' (${param.name})`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export class Analyzer implements ExpressionHost {
  private readonly blocks: BlockStack;
  private functions = new Map<string, FunctionInfo>();
  private pending = new AppendList<PendingCall>();
  private readonly connectors = new Set<string>();
  private lineNo = 0;
  private lineStart = 0;
  private lineEnd = 0;
  private blockComment: { line: number; column: number } | undefined;
  private readonly sem: Semantics;
  /** Where the next line starts, its number, and the scan state carried into it (a block comment). */
  private next = 0;
  private nextLineNo = 1;
  private scan: ScanState = newScanState();
  private nextLF = -2;
  private nextCR = -2;
  private done = false;
  private readonly sink = (problem: LexicalProblem, start: number, end: number) => this.lexical(problem, start, end);
  /**
   * When set, `marks[n]` is how many findings the reporter held when line n
   * started (fixes/resync.ts splits a program's findings by the line that
   * reported them).
   */
  marks: number[] | undefined;

  constructor(
    private src: string,
    private readonly rep: Reporter,
  ) {
    this.blocks = new BlockStack(rep, {
      lineStart: () => this.lineStart,
      closer: (block, limit) => closeBlockFix(block, limit),
      closedByCloser: (block) => {
        block.conversion?.closedByCloser();
        if (block.elseIfs) for (const rewrite of block.elseIfs) rewrite.closedAt(this.lineEnd);
      },
    });
    this.sem = new Semantics(rep, this.blocks);
  }

  /** The whole text, then its end: the loop of `step` with its state in locals (the hot path of every validation). */
  run(): void {
    const src = this.src;
    const n = src.length;
    const marks = this.marks;
    let start = this.next;
    let lineNo = this.nextLineNo;
    let nextLF = -2;
    let nextCR = -2;
    while (!this.done) {
      if (nextLF !== -1 && nextLF < start) nextLF = src.indexOf('\n', start);
      if (nextCR !== -1 && nextCR < start) nextCR = src.indexOf('\r', start);
      const end = Math.min(nextLF === -1 ? n : nextLF, nextCR === -1 ? n : nextCR);
      if (marks) marks[lineNo] = this.rep.entries.length;
      if (!this.line(start, end, lineNo) || end >= n) break;
      start = end + (src.charCodeAt(end) === 13 && src.charCodeAt(end + 1) === 10 ? 2 : 1);
      lineNo++;
    }
    this.next = start;
    this.nextLineNo = lineNo;
    this.done = true;
    this.end();
  }

  /** Analyses the next line; false once there is none (or the reporter is full of errors). */
  step(): boolean {
    if (this.done) return false;
    const src = this.src;
    const n = src.length;
    const start = this.next;
    if (this.nextLF !== -1 && this.nextLF < start) this.nextLF = src.indexOf('\n', start);
    if (this.nextCR !== -1 && this.nextCR < start) this.nextCR = src.indexOf('\r', start);
    const end = Math.min(this.nextLF === -1 ? n : this.nextLF, this.nextCR === -1 ? n : this.nextCR);
    const lineNo = this.nextLineNo;
    if (this.marks) this.marks[lineNo] = this.rep.entries.length;
    if (!this.line(start, end, lineNo) || end >= n) {
      this.done = true;
      return false;
    }
    this.next = end + (src.charCodeAt(end) === 13 && src.charCodeAt(end + 1) === 10 ? 2 : 1);
    this.nextLineNo = lineNo + 1;
    return true;
  }

  /** The line [start, end) of the text; false when the reporter is full of errors (the analysis stops there). */
  private line(start: number, end: number, lineNo: number): boolean {
    this.lineNo = lineNo;
    this.lineStart = start;
    this.lineEnd = end;
    const state = this.scan;
    const wasInComment = state.inBlockComment;
    const tokens = scanLine(this.src, start, end, state, this.sink);
    if (state.inBlockComment && !wasInComment) {
      this.blockComment = { line: lineNo, column: state.blockCommentStart - start + 1 };
    }
    if (tokens.length > 0) this.analyzeLine(tokens);
    if (this.rep.saturated && this.rep.errorCount > 0) {
      this.stoppedEarly = true;
      return false;
    }
    return true;
  }

  /** The end of the file: what is still open or unresolved is reported (not after an early stop). */
  end(): void {
    if (this.marks) this.marks[this.lineNo + 1] = this.rep.entries.length;
    if (!this.stoppedEarly) this.finish(this.scan);
  }

  /** The reporter filled up with errors and the analysis stopped before the end. */
  private stoppedEarly = false;

  /**
   * Analyses one more line, given alone (without its line break), after the
   * lines given before: a streamed answer is checked as its lines complete
   * (parser/stream.ts). Offsets start again with each line, so a fed
   * analysis' candidate fixes mean nothing; its findings are exact. False
   * once the reporter is full of errors.
   */
  feed(line: string): boolean {
    if (this.stoppedEarly) return false;
    this.src = line;
    this.next = 0;
    this.nextLF = -2;
    this.nextCR = -2;
    this.done = false;
    this.nextLineNo = this.lineNo + 1;
    // A lone CR inside the line breaks it, as it does in a whole program.
    while (this.step());
    this.nextLineNo = this.lineNo + 1;
    return !this.stoppedEarly;
  }

  /** Reads on in `src`, a longer text that begins with the one read so far (a fork given its text in parts). */
  extend(src: string): void {
    this.src = src;
    this.nextLF = -2;
    this.nextCR = -2;
  }

  /** Offset where the next line starts, and its number. */
  get position(): { offset: number; line: number } {
    return { offset: this.next, line: this.nextLineNo };
  }

  /** True once the last line has been analysed. */
  get atEnd(): boolean {
    return this.done;
  }

  /**
   * A copy of this analysis at the start of its next line, reading `src` from
   * there on (a program whose text up to that line is this one's) and
   * reporting to `rep`: fix proofs re-analyse only what a fix changes
   * (fixes/resync.ts). Candidate fixes of the copy are not meant to be used.
   * `frozen`: this analysis is never read on, so the copy may share its
   * tables (layered.ts) instead of copying them. `base`: where `src` starts in
   * this analysis' text (a fork may read only the text from its line on; its
   * offsets then count from there, which only its candidate fixes would see).
   * `maxLayers`: how deep shared tables may be layered before they are copied.
   */
  fork(src: string, rep: Reporter, frozen = false, base = 0, maxLayers = MAX_LAYERS): Analyzer {
    const copy = new Analyzer(src, rep);
    const blockMap = copy.blocks.copyFrom(this.blocks);
    copy.sem.copyFrom(this.sem, blockMap, frozen, maxLayers);
    if (frozen) copy.functions = layerOver(this.functions, maxLayers);
    else for (const [name, info] of this.functions) copy.functions.set(name, info);
    copy.pending = frozen ? this.pending.layer(maxLayers) : this.pending.copy();
    for (const name of this.connectors) copy.connectors.add(name);
    copy.blockComment = this.blockComment;
    copy.scan = { ...this.scan };
    copy.next = this.next - base;
    copy.nextLineNo = this.nextLineNo;
    copy.lineNo = this.lineNo;
    copy.done = this.done;
    return copy;
  }

  /** What later lines' findings depend on, for comparing two analyses (fixes/resync.ts). */
  get state(): AnalysisState {
    return {
      blocks: this.blocks,
      sem: this.sem,
      functions: this.functions,
      pending: this.pending,
      connectors: this.connectors,
      inBlockComment: this.scan.inBlockComment,
      blockCommentLine: this.blockComment?.line,
    };
  }

  // ---------------------------------------------------------------- reporting

  private col(offset: number): number {
    return offset - this.lineStart + 1;
  }

  report(
    rule: RuleDefinition,
    start: number,
    end: number,
    message: string,
    token: string,
    suggestion?: string,
    hint?: FixHint,
  ): void {
    this.rep.at(rule, this.lineNo, this.col(start), this.col(end), message, abbreviate(token, 80), suggestion, hint);
  }

  private reportTokens(
    rule: RuleDefinition,
    from: Token,
    to: Token,
    message: string,
    suggestion?: string,
    hint?: FixHint,
  ): void {
    this.report(rule, from.start, to.end, message, this.src.slice(from.start, to.end), suggestion, hint);
  }

  private site(t: Token, endToken: Token = t): Site {
    return { line: this.lineNo, column: this.col(t.start), endColumn: this.col(endToken.end), token: t.text };
  }

  private lexical(problem: LexicalProblem, start: number, end: number): void {
    switch (problem) {
      case 'unterminated-string':
        this.report(
          Rule.UnterminatedString,
          start,
          end,
          'unterminated string — close it with the same quote on this line',
          this.src.slice(start, end),
        );
        return;
      case 'control-character': {
        const code = this.src.charCodeAt(start).toString(16).toUpperCase().padStart(4, '0');
        this.report(
          Rule.ControlCharacter,
          start,
          end,
          `stray control character U+${code} — binary data is not AVAP source`,
          `\\u${code}`,
        );
        return;
      }
      case 'hash-comment':
        this.report(Rule.HashComment, start, end, "'#' is not an AVAP comment — use //", '#', '//');
        return;
      case 'unterminated-block-comment':
        return; // reported in finish(), where its opening line is known
      case 'typographic-quote':
        this.typographicQuote(start, end);
        return;
    }
  }

  /** “…” or ‘…’ used as string quotes: straightened to "…" or '…' (the other ASCII quote when the text holds one). */
  private typographicQuote(start: number, end: number): void {
    const text = this.src.slice(start, end);
    const inner = text.slice(1, -1);
    const double = text.charCodeAt(0) >= 0x201c;
    const preferred = double ? '"' : "'";
    const other = double ? "'" : '"';
    const quote = !inner.includes(preferred) ? preferred : !inner.includes(other) ? other : undefined;
    const straight = quote === undefined ? undefined : `${quote}${inner}${quote}`;
    const advice = straight === undefined ? 'use " or \' quotes' : `straighten them: ${straight}`;
    this.report(
      Rule.TypographicQuote,
      start,
      end,
      `typographic quotes in ${abbreviate(text, 40)} are not AVAP string quotes — the runtime keeps them as part of the text; ${advice}`,
      text,
      straight,
      straight === undefined
        ? undefined
        : { title: `Straighten the quotes: ${abbreviate(straight, 40)}`, edits: [{ start, end, newText: straight }] },
    );
  }

  // ------------------------------------------------------------- expression host

  noteCall(nameToken: Token, argCount: number): void {
    const name = nameToken.text;
    if (EXPRESSION_BUILTINS.has(name)) return;
    const spec = findCommand(name);
    if (spec) {
      this.report(
        Rule.NestedCommand,
        nameToken.start,
        nameToken.end,
        `command '${name}' is not accepted inside an expression (this parser's rule: commands are statements) — run it on its own line: ${signatureOf(spec)}`,
        name,
      );
      return;
    }
    this.defer(nameToken, argCount, 'expression', name);
  }

  checkTemplate(token: Token): void {
    const text = token.text;
    let from = 1;
    for (;;) {
      const open = text.indexOf('${', from);
      if (open === -1) return;
      const close = text.indexOf('}', open + 2);
      if (close === -1) {
        this.report(
          Rule.UnclosedPlaceholder,
          token.start + open,
          token.end,
          "unclosed '${' in template string — write ${name}",
          text.slice(open),
        );
        return;
      }
      const inner = text.slice(open + 2, close).trim();
      if (!/^[\p{L}_][\p{L}\p{N}_]*(\.[\p{L}_][\p{L}\p{N}_]*)*$/u.test(inner)) {
        this.report(
          Rule.PlaceholderNotAName,
          token.start + open,
          token.start + close + 1,
          `template placeholder '${abbreviate(text.slice(open, close + 1), 40)}' should name a variable: \${name}`,
          text.slice(open, close + 1),
        );
      }
      from = close + 1;
    }
  }

  // ------------------------------------------------------------------- lines

  private analyzeLine(tokens: Token[]): void {
    const top = this.blocks.top;
    if (top?.awaitingBrace) {
      top.awaitingBrace = false;
      if (isPunct(tokens[0], '{')) {
        if (tokens.length > 1) this.analyzeSegments(tokens.slice(1));
        return;
      }
      this.rep.at(
        Rule.FunctionMissingBrace,
        top.line,
        top.column,
        top.endColumn,
        `function '${top.name ?? ''}' needs '{' to open its body`,
        top.token,
      );
    }
    if (this.foreignLine(tokens)) return;
    this.analyzeSegments(tokens);
  }

  /** Splits a line at top-level `;` (reported) and analyses each statement. */
  private analyzeSegments(tokens: Token[]): void {
    if (!hasSemicolon(tokens)) {
      this.analyzeStatement(tokens);
      return;
    }
    let depth = 0;
    let from = 0;
    let split = false;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i] as Token;
      if (t.kind !== TokenKind.Punct) continue;
      if (isOpenBracket(t)) depth++;
      else if (isCloseBracket(t)) depth = Math.max(0, depth - 1);
      else if (t.text === ';' && depth === 0) {
        this.report(
          Rule.StatementTerminator,
          t.start,
          t.end,
          "statement terminator ';' is not AVAP — one statement per line, no terminator",
          ';',
          undefined,
          terminatorFix(this.src, tokens, i, this.lineStart),
        );
        if (i > from) this.analyzeStatement(tokens.slice(from, i));
        from = i + 1;
        split = true;
      }
    }
    if (!split) this.analyzeStatement(tokens);
    else if (from < tokens.length) this.analyzeStatement(tokens.slice(from));
  }

  private analyzeStatement(t: Token[]): void {
    const t0 = t[0];
    if (!t0) return;
    const t1 = t[1];
    if (t0.kind === TokenKind.Punct && t0.text === '}') return this.closingBrace(t);
    if (t0.kind === TokenKind.Punct && t0.text === '{') return this.openingBrace(t);
    if (t0.kind === TokenKind.Ident) {
      if (isOp(t1, '=')) return this.assignment(t);
      if (t1?.kind === TokenKind.Op && t1.text === ':=') {
        this.foreignOperator(t1);
        return this.assignment(t);
      }
      if (t1?.kind === TokenKind.Op && ASSIGN_FOREIGN_OPS.has(t1.text)) {
        this.foreignOperator(t1, compoundAssignmentFix(this.src, t));
        return;
      }
      switch (t0.text) {
        case 'if':
          return this.ifStatement(t);
        case 'else':
          return this.elseStatement(t);
        case 'function':
          return this.functionDefinition(t);
        case 'return':
          return this.returnStatement(t);
        default:
          break;
      }
      if (isPunct(t1, '(')) return this.callStatement(t);
      if (isPunct(t1, '.')) return this.dottedStatement(t);
      if (t1?.kind === TokenKind.Ident && isOp(t[2], '=')) {
        this.reportTokens(
          Rule.TypedDeclaration,
          t0,
          t1,
          `typed declaration '${t0.text} ${t1.text}' is not AVAP — set variables with addVar(name, value) or name = value`,
          `${t1.text}`,
        );
        return this.assignment(t.slice(1));
      }
      if (t.length === 1) return this.bareWord(t0);
    }
    if (t0.kind === TokenKind.Global && isOp(t1, '=')) {
      this.reportTokens(
        Rule.InvalidAssignmentTarget,
        t0,
        t0,
        `cannot assign to the global reference '${t0.text}' — assign to a plain name`,
        t0.text.slice(1),
      );
      return;
    }
    const assignAt = this.topLevelAssign(t);
    if (assignAt > 0) {
      this.reportTokens(
        Rule.InvalidAssignmentTarget,
        t0,
        t[assignAt - 1] as Token,
        `assignment target '${abbreviate(this.src.slice(t0.start, (t[assignAt - 1] as Token).end), 40)}' must be a plain variable name`,
      );
      return;
    }
    this.unrecognized(t);
  }

  /** Index of a top-level `=` operator, or -1. */
  private topLevelAssign(t: readonly Token[]): number {
    let depth = 0;
    for (let i = 0; i < t.length; i++) {
      const x = t[i] as Token;
      if (isOpenBracket(x)) depth++;
      else if (isCloseBracket(x)) depth = Math.max(0, depth - 1);
      else if (depth === 0 && isOp(x, '=')) return i;
    }
    return -1;
  }

  private unrecognized(t: Token[]): void {
    const reported = reportForeignTokens(t, 0, t.length, this);
    if (reported.size > 0) {
      this.pushBraceIfOpened(t);
      return;
    }
    const t0 = t[0] as Token;
    const lastToken = last(t) as Token;
    if (t0.kind === TokenKind.Other) {
      this.reportTokens(Rule.StrayCharacter, t0, lastToken, `stray character '${t0.text}'`);
    } else {
      const value = t0.kind === TokenKind.String || t0.kind === TokenKind.Number || t0.kind === TokenKind.Template;
      this.reportTokens(
        Rule.NotAStatement,
        t0,
        lastToken,
        value
          ? 'a value on its own is not a statement — expected a command call or an assignment'
          : 'expected a command call or an assignment',
      );
    }
    this.pushBraceIfOpened(t);
  }

  /** A reported line that ends with `{` opens a foreign brace block whose `}` must match. */
  private pushBraceIfOpened(t: readonly Token[], block?: Block, conversion?: BraceConversion): void {
    if (!isPunct(last(t), '{')) return;
    if (block) {
      block.braceBody = true;
      return;
    }
    const t0 = t[0] as Token;
    this.blocks.push({
      kind: 'brace',
      line: this.lineNo,
      column: this.col(t0.start),
      endColumn: this.col(t0.end),
      token: t0.text,
      conversion,
    });
  }

  private foreignOperator(t: Token, hint?: FixHint): void {
    const op = findForeignOperator(t.text);
    if (!op) return;
    this.report(
      Rule.ForeignOperator,
      t.start,
      t.end,
      `foreign operator '${t.text}' (${op.language}) — ${op.hint}`,
      t.text,
      op.suggestion,
      hint,
    );
  }

  // --------------------------------------------------------- foreign lines

  /** Lines whose first word belongs to another language. Returns true when handled. */
  private foreignLine(t: Token[]): boolean {
    const t0 = t[0] as Token;
    const t1 = t[1];
    if (t0.kind !== TokenKind.Ident || isOp(t1, '=')) return false;
    const lineText = () => this.src.slice(t0.start, (last(t) as Token).end);

    if (t0.text === 'for' && t1?.kind === TokenKind.Ident && isWord(t[2], 'in')) {
      const construct = `for ${t1.text} in ${this.renderIterable(t, 3)}`;
      this.reportTokens(
        Rule.ForeignLoop,
        t0,
        last(t) as Token,
        `unexpected construct '${construct}' — AVAP loop syntax required: startLoop(i, from, to) … endLoop()`,
        undefined,
        pythonLoopFix(t, this.lineStart),
      );
      this.pushBraceIfOpened(t);
      return true;
    }
    if (t0.text === 'if' && t1 && !isPunct(t1, '(')) {
      const fix = foreignIfFix(t, this.lineStart, (tokens, first, end) => this.conditionArguments(tokens, first, end));
      this.reportTokens(
        Rule.ForeignIf,
        t0,
        last(t) as Token,
        `unexpected construct '${abbreviate(lineText(), 40)}' — AVAP conditions are if(a, b, comparator) … else() … end()`,
        undefined,
        fix.hint,
      );
      if (isPunct(last(t), '{')) {
        this.blocks.push({
          kind: 'if',
          line: this.lineNo,
          column: this.col(t0.start),
          endColumn: this.col(t0.end),
          token: 'if',
          braceBody: true,
          conversion: fix.conversion,
        });
      }
      return true;
    }
    if ((t0.text === 'try' || t0.text === 'finally') && (isPunct(t1, ':') || isPunct(t1, '{'))) {
      const fix = foreignTryFix(t, this.lineStart);
      this.reportTokens(
        Rule.ForeignTry,
        t0,
        last(t) as Token,
        `unexpected construct '${abbreviate(lineText(), 40)}' — AVAP error handling is try() … exception(err) … end()`,
        undefined,
        fix.hint,
      );
      this.pushBraceIfOpened(t, undefined, fix.conversion);
      return true;
    }
    const foreign = findForeignStatement(t0.text);
    if (!foreign || !this.shapeMatches(foreign, t)) return false;
    const fix = this.foreignStatementFix(foreign, t);
    this.report(
      Rule.ForeignKeyword,
      t0.start,
      t0.end,
      `foreign keyword '${t0.text}' (${foreign.language}) — ${foreign.hint}`,
      t0.text,
      undefined,
      fix.hint,
    );
    this.pushBraceIfOpened(t, undefined, fix.conversion);
    if (foreign.shape === 'declaration' && t.length > 1) this.analyzeSegments(t.slice(1));
    return true;
  }

  /** The mechanical repair of a line opened by a foreign keyword, where there is one. */
  private foreignStatementFix(
    foreign: ForeignStatement,
    t: readonly Token[],
  ): { hint?: FixHint; conversion?: BraceConversion } {
    switch (foreign.keyword) {
      case 'let':
      case 'var':
      case 'const':
        return { hint: declarationFix(t) };
      case 'package':
      case 'import':
      case 'from':
        return { hint: removeLineFix(this.src, t) };
      case 'def':
        return { hint: pythonDefFix(t, this.lineStart) };
      case 'func':
        return goFuncFix(this.src, t);
      case 'for': {
        const conversion = braceLoopConversion(t, this.lineStart);
        return conversion ? { conversion, hint: conversion.hint() } : {};
      }
      default:
        return {};
    }
  }

  private shapeMatches(foreign: ForeignStatement, t: readonly Token[]): boolean {
    const t1 = t[1];
    switch (foreign.shape) {
      case 'any':
        return true;
      case 'word':
        return t.length === 2 && t1?.kind === TokenKind.Ident;
      case 'declaration':
        return t1 !== undefined && (t1.kind === TokenKind.Ident || isPunct(t1, '{') || isPunct(t1, '['));
      case 'from-import':
        return t.some((x) => isWord(x, 'import'));
      case 'python-except':
        return !isPunct(t1, '(');
      case 'js-catch':
        return isPunct(last(t), '{');
    }
  }

  /** `range(1, 6):` → `range(...)`, `items:` → `items`. */
  private renderIterable(t: readonly Token[], from: number): string {
    const first = t[from];
    if (!first) return '…';
    if (first.kind === TokenKind.Ident && isPunct(t[from + 1], '(')) return `${first.text}(...)`;
    let end = t.length;
    if (isPunct(t[end - 1], ':') || isPunct(t[end - 1], '{')) end--;
    if (end <= from) return first.text;
    return abbreviate(this.src.slice(first.start, (t[end - 1] as Token).end), 30);
  }

  // ----------------------------------------------------------- statements

  private bareWord(t0: Token): void {
    const closers: Record<string, string> = { else: 'else()', end: 'end()', endLoop: 'endLoop()', try: 'try()' };
    const exact = closers[t0.text];
    if (exact) {
      this.report(
        Rule.MissingParentheses,
        t0.start,
        t0.end,
        `'${t0.text}' needs parentheses: ${exact}`,
        t0.text,
        exact,
      );
      this.applyRole(findCommand(t0.text)?.block, t0);
      return;
    }
    const spec = findCommandIgnoringCase(t0.text);
    if (spec && spec.params.length === 0) {
      this.report(
        Rule.UnknownCommand,
        t0.start,
        t0.end,
        `'${t0.text}' not defined — did you mean '${spec.name}()'? (AVAP is case-sensitive)`,
        t0.text,
        `${spec.name}()`,
      );
      this.applyRole(spec.block, t0);
      return;
    }
    const message = `expected a command call or an assignment, found '${abbreviate(t0.text, 40)}'`;
    if (findCommand(t0.text)) {
      this.report(
        Rule.MissingParentheses,
        t0.start,
        t0.end,
        `${message} — '${t0.text}' is a command: call it with parentheses`,
        t0.text,
      );
    } else {
      this.report(Rule.NotAStatement, t0.start, t0.end, message, t0.text);
    }
  }

  private callStatement(t: Token[]): void {
    const call = parseCall(this.src, t, 1, this.lineEnd);
    this.bracketProblems(t, call);
    const block = this.checkCommand(t, call, 'statement');
    this.trailing(t, call, block);
  }

  /** `name = …`: the value is read before the name is assigned. */
  private assignment(t: Token[]): void {
    this.assignmentValue(t);
    const target = t[0] as Token;
    if (target.kind === TokenKind.Ident) this.sem.assign(target.text, this.lineNo);
  }

  private assignmentValue(t: Token[]): void {
    const target = t[0] as Token;
    const eq = t[1] as Token;
    if (findCommand(target.text)) {
      this.report(
        Rule.InvalidAssignmentTarget,
        target.start,
        target.end,
        `'${target.text}' is a command name and cannot be assigned to`,
        target.text,
      );
    }
    if (t.length === 2) {
      this.report(
        Rule.MissingValue,
        eq.start,
        eq.end,
        `missing value after '=' in the assignment to '${target.text}'`,
        '=',
      );
      return;
    }
    const r0 = t[2] as Token;
    if (r0.kind === TokenKind.Ident && isPunct(t[3], '(') && !EXPRESSION_BUILTINS.has(r0.text)) {
      const close = matchBracket(t, 3);
      if (close === t.length - 1 || close === -1) {
        const call = parseCall(this.src, t, 3, this.lineEnd);
        this.bracketProblems(t, call);
        const spec = findCommand(r0.text);
        if (spec?.block && spec.block !== 'exception') {
          this.report(
            Rule.BlockCommandAssigned,
            r0.start,
            r0.end,
            `'${r0.text}' opens or closes a block and cannot be assigned`,
            r0.text,
          );
          return;
        }
        this.checkCommand(t, call, 'assignment');
        if (spec?.name === 'avapConnector') this.connectors.add(target.text);
        return;
      }
    }
    checkExpression(t, 2, t.length, this);
  }

  private dottedStatement(t: Token[]): void {
    const reported = reportForeignTokens(t, 0, t.length, this);
    if (reported.size > 0) {
      this.pushBraceIfOpened(t);
      return;
    }
    if (this.topLevelAssign(t) > 0) {
      this.analyzeStatementFallback(t);
      return;
    }
    const wellFormed = checkExpression(t, 0, t.length, this);
    const t0 = t[0] as Token;
    if (wellFormed && !this.connectors.has(t0.text)) {
      const method = t[2];
      this.reportTokens(
        Rule.UnknownConnector,
        t0,
        method ?? t0,
        `method call on '${t0.text}', which is not a connector created with avapConnector() in this file`,
      );
    }
  }

  private analyzeStatementFallback(t: Token[]): void {
    const assignAt = this.topLevelAssign(t);
    const t0 = t[0] as Token;
    this.reportTokens(
      Rule.InvalidAssignmentTarget,
      t0,
      t[assignAt - 1] as Token,
      `assignment target '${abbreviate(this.src.slice(t0.start, (t[assignAt - 1] as Token).end), 40)}' must be a plain variable name`,
    );
  }

  private returnStatement(t: Token[]): void {
    const t0 = t[0] as Token;
    if (!this.blocks.insideFunction) {
      this.report(
        Rule.ReturnOutsideFunction,
        t0.start,
        t0.end,
        'return outside a function — at the top level, put values in the response with addResult(variable)',
        'return',
        undefined,
        topLevelReturnFix(t, this.lineStart),
      );
    }
    if (t.length > 1) checkExpression(t, 1, t.length, this);
  }

  // --------------------------------------------------------------- blocks

  private ifStatement(t: Token[]): void {
    const t0 = t[0] as Token;
    if (!isPunct(t[1], '(')) {
      // e.g. `if#(…)` or `if x:`; still open the block so its end() matches.
      this.reportTokens(
        Rule.MissingParentheses,
        t0,
        last(t) as Token,
        "expected '(' after 'if' — if(variable, value, comparator)",
      );
      this.blocks.push({
        kind: 'if',
        line: this.lineNo,
        column: this.col(t0.start),
        endColumn: this.col(t0.end),
        token: 'if',
      });
      return;
    }
    const call = parseCall(this.src, t, 1, this.lineEnd);
    this.bracketProblems(t, call);
    const block: Block = {
      kind: 'if',
      line: this.lineNo,
      column: this.col(t0.start),
      endColumn: this.col(t0.end),
      token: 'if',
    };
    this.blocks.push(block);
    this.checkIfArguments(t, call);
    this.checkArgumentContents(t, call);
    this.trailing(t, call, block);
  }

  private checkIfArguments(t: Token[], call: ParsedCall): void {
    const args = call.args;
    const t0 = t[0] as Token;
    const isNone = (a: CallArg | undefined) => a !== undefined && (a.text === '' || a.text === 'None');
    if (args.length === 3) {
      const cond = args[2] as CallArg;
      const condToken = t[cond.first];
      if (isNone(args[0]) && isNone(args[1]) && cond.last - cond.first === 1 && condToken?.kind === TokenKind.String) {
        this.checkConditionString(condToken);
        return;
      }
      this.checkComparator(t, cond);
      return;
    }
    if (args.length === 4) {
      this.report(
        Rule.LegacyIf,
        t0.start,
        t0.end,
        'four-argument if(variable, value, comparator, expression) is an older documented form — prefer if(a, b, comparator) or if(None, None, "expression")',
        'if',
      );
      this.checkComparator(t, args[2] as CallArg);
      return;
    }
    const closeToken = call.closeIndex >= 0 ? (t[call.closeIndex] as Token) : (last(t) as Token);
    if (args.length === 1) {
      const arg = args[0] as CallArg;
      reportForeignTokens(t, arg.first, arg.last, this);
      const fix = this.ifExpressionFix(t, arg);
      if (fix !== undefined) {
        this.report(
          Rule.IfExpression,
          arg.start,
          arg.end,
          `'if' takes (left, right, comparator), not an expression — write if(${fix})`,
          arg.text,
          fix,
        );
        return;
      }
    }
    this.reportTokens(
      Rule.Arity,
      t0,
      closeToken,
      `'if' expects 3 arguments (variable, variableValue, comparator), got ${args.length}`,
    );
  }

  /** The arguments of if() for a foreign condition written as tokens [first, end) (`if x > 5:`). */
  private conditionArguments(t: readonly Token[], first: number, end: number): string | undefined {
    const a = t[first] as Token;
    const b = t[end - 1] as Token;
    return this.ifExpressionFix(t, {
      first,
      last: end,
      start: a.start,
      end: b.end,
      text: this.src.slice(a.start, b.end),
    });
  }

  /** For `if(x > 5)` returns `x, 5, >`; for `if(a > 1 and b)` the expression form. */
  private ifExpressionFix(t: readonly Token[], arg: CallArg): string | undefined {
    const comparisons: number[] = [];
    let logical = false;
    let foreign = false;
    let depth = 0;
    for (let i = arg.first; i < arg.last; i++) {
      const x = t[i] as Token;
      if (isOpenBracket(x)) depth++;
      else if (isCloseBracket(x)) depth--;
      else if (depth === 0 && x.kind === TokenKind.Op) {
        if (COMPARATORS.has(x.text) || COMPARATOR_FIXES.has(x.text)) comparisons.push(i);
        if (findForeignOperator(x.text) || x.text === '!') foreign = true;
      } else if (depth === 0 && (isWord(x, 'and') || isWord(x, 'or') || isWord(x, 'not') || isWord(x, 'in'))) {
        logical = true;
      }
    }
    if (comparisons.length === 0 && !logical) return undefined;
    // if(a, b, >) compares a name's value or a literal: an expression there would be compared as its text
    // (issue 24, F10), so `a + 1 > b` becomes the expression form.
    const at = comparisons[0];
    const plain = (x: Token | undefined) => x !== undefined && PLAIN_OPERANDS.has(x.kind) && !x.unterminated;
    if (at !== undefined && comparisons.length === 1 && !logical) {
      if (at === arg.first || at === arg.last - 1) return undefined;
      if (at - arg.first === 1 && arg.last - at === 2 && plain(t[arg.first]) && plain(t[at + 1])) {
        const comparator = COMPARATOR_FIXES.get((t[at] as Token).text) ?? (t[at] as Token).text;
        // `x == null` compares with None: `null` as an operand would be the text "null" (issue 30).
        const operand = (x: Token) => findForeignWord(x.text)?.suggestion ?? x.text;
        return `${operand(t[arg.first] as Token)}, ${operand(t[at + 1] as Token)}, ${comparator}`;
      }
    }
    if (foreign) return undefined;
    const quote = arg.text.includes('"') ? "'" : '"';
    if (arg.text.includes(quote)) return undefined;
    return `None, None, ${quote}${arg.text}${quote}`;
  }

  private checkComparator(t: readonly Token[], arg: CallArg): void {
    if (arg.text === '') {
      this.report(
        Rule.InvalidComparator,
        arg.start,
        arg.end,
        'missing comparator (argument 3 of if) — one of = == != < > <= >= in',
        '',
      );
      return;
    }
    const single = arg.last - arg.first === 1 ? t[arg.first] : undefined;
    const value =
      single && single.kind === TokenKind.String && !single.unterminated ? single.text.slice(1, -1).trim() : arg.text;
    if (COMPARATORS.has(value)) return;
    const fix = COMPARATOR_FIXES.get(value);
    this.report(
      Rule.InvalidComparator,
      arg.start,
      arg.end,
      `invalid comparator '${abbreviate(value, 20)}' — expected one of = == != < > <= >= in`,
      arg.text,
      fix,
    );
  }

  /** The quoted condition of if(None, None, "…") is an expression. */
  private checkConditionString(token: Token): void {
    if (token.unterminated) return;
    const start = token.start + 1;
    const end = token.end - 1;
    if (this.src.slice(start, end).trim() === '') {
      this.report(Rule.EmptyCondition, token.start, token.end, 'empty condition in if(None, None, "…")', token.text);
      return;
    }
    const inner = scanLine(this.src, start, end, newScanState(), (problem, s, e) => this.lexical(problem, s, e));
    if (inner.length === 0) return;
    checkExpression(inner, 0, inner.length, this);
  }

  private elseStatement(t: Token[]): void {
    const t0 = t[0] as Token;
    const t1 = t[1];
    const lastToken = last(t) as Token;
    if (isPunct(t1, '(')) {
      const call = parseCall(this.src, t, 1, this.lineEnd);
      this.bracketProblems(t, call);
      if (call.args.length > 0) {
        const close = call.closeIndex >= 0 ? (t[call.closeIndex] as Token) : lastToken;
        this.reportTokens(Rule.Arity, t0, close, `'else' takes no arguments, got ${call.args.length}`, 'else()');
      }
      this.blocks.else(this.site(t0));
      this.trailing(t, call, this.blocks.top);
      return;
    }
    if (isWord(t1, 'if')) {
      this.reportTokens(
        Rule.ElseIf,
        t0,
        lastToken,
        `unexpected construct '${abbreviate(this.src.slice(t0.start, lastToken.end), 40)}' — AVAP has no else-if: nest if() … end() inside else()`,
        undefined,
        this.elseIfFix(t),
      );
      return;
    }
    if (isPunct(t1, '{') || isPunct(t1, ':')) {
      this.reportTokens(
        Rule.ForeignElse,
        t0,
        lastToken,
        `unexpected construct '${abbreviate(this.src.slice(t0.start, lastToken.end), 40)}' — AVAP writes else() … end()`,
        undefined,
        foreignElseFix(t),
      );
      this.blocks.else(this.site(t0));
      return;
    }
    if (t.length === 1) return this.bareWord(t0);
    this.unrecognized(t);
  }

  /** `else if(a, b, >)` (or `else if (x > 5)`) of an open if() without else(): nested into else(). */
  private elseIfFix(t: Token[]): FixHint | undefined {
    const top = this.blocks.top;
    if (top?.kind !== 'if' || top.hasElse || top.braceBody || top.lineStart === undefined || !isPunct(t[2], '('))
      return undefined;
    if (matchBracket(t, 2) !== t.length - 1) return undefined;
    const call = parseCall(this.src, t, 2, this.lineEnd);
    const only = call.args[0];
    const args =
      call.args.length === 3
        ? this.src.slice((t[2] as Token).end, (t[t.length - 1] as Token).start).trim()
        : call.args.length === 1 && only
          ? this.ifExpressionFix(t, only)
          : undefined;
    if (args === undefined) return undefined;
    const rewrite = new ElseIfRewrite(t, args, top.lineStart);
    (top.elseIfs ??= []).push(rewrite);
    return rewrite.hint();
  }

  private functionDefinition(t: Token[]): void {
    const t0 = t[0] as Token;
    const nameToken = t[1];
    const lastToken = last(t) as Token;
    if (!nameToken || nameToken.kind !== TokenKind.Ident) {
      if (isPunct(nameToken, '(')) {
        this.reportTokens(
          Rule.AnonymousFunction,
          t0,
          lastToken,
          'anonymous functions are not AVAP — name it: function name(a, b) { … }',
        );
      } else {
        this.reportTokens(Rule.FunctionHeader, t0, lastToken, "expected a function name after 'function'");
      }
      this.pushBraceIfOpened(t);
      return;
    }
    const name = nameToken.text;
    if (!isPunct(t[2], '(')) {
      this.reportTokens(Rule.FunctionHeader, t0, lastToken, `expected '(' after the function name '${name}'`);
      this.pushBraceIfOpened(t);
      return;
    }
    const close = matchBracket(t, 2);
    const block: Block = {
      kind: 'function',
      name,
      line: this.lineNo,
      column: this.col(t0.start),
      endColumn: this.col(nameToken.end),
      token: name,
    };
    if (close === -1) {
      this.reportTokens(
        Rule.FunctionHeader,
        t[2] as Token,
        lastToken,
        `missing ')' in the parameter list of '${name}'`,
      );
      if (isPunct(lastToken, '{')) this.blocks.push(block);
      return;
    }
    const arity = this.checkParameters(t, 3, close);
    if (findCommand(name)) {
      this.report(
        Rule.CommandRedefined,
        nameToken.start,
        nameToken.end,
        `'${name}' is a built-in command and cannot be redefined`,
        name,
      );
    } else if (this.functions.has(name)) {
      this.report(
        Rule.DuplicateFunction,
        nameToken.start,
        nameToken.end,
        `function '${name}' is already defined on line ${this.functions.get(name)?.line ?? 0}`,
        name,
      );
    } else {
      this.functions.set(name, { arity, line: this.lineNo });
    }
    if (this.blocks.insideAvapBlock) {
      this.reportTokens(
        Rule.NestedFunction,
        t0,
        nameToken,
        `function '${name}' must be defined at the top level, not inside another block`,
      );
    }
    const rest = t.slice(close + 1);
    if (rest.length === 0) {
      block.awaitingBrace = true;
      this.blocks.push(block);
      return;
    }
    const r0 = rest[0] as Token;
    if (isPunct(r0, '{')) {
      if (rest.length === 1) {
        this.blocks.push(block);
      } else if (!(rest.length === 2 && isPunct(rest[1], '}'))) {
        this.reportTokens(
          Rule.FunctionBodyInline,
          rest[1] as Token,
          last(rest) as Token,
          "put the function body on the lines after '{'",
          undefined,
          inlineBodyFix(this.src, t, close + 1, this.lineStart),
        );
        if (!isPunct(last(rest), '}')) this.blocks.push(block);
      }
      return;
    }
    if (isPunct(r0, ':')) {
      this.report(
        Rule.PythonColon,
        r0.start,
        r0.end,
        "Python-style ':' — AVAP function bodies are enclosed in { … }",
        ':',
        '{',
        rest.length === 1 ? functionColonFix(t[close] as Token, r0, this.lineStart) : undefined,
      );
      return;
    }
    this.reportTokens(
      Rule.TrailingText,
      r0,
      last(rest) as Token,
      `unexpected '${abbreviate(r0.text, 20)}' after the parameter list of '${name}'`,
    );
  }

  /** Checks `a, b, c` between the parentheses; returns the number of parameters. */
  private checkParameters(t: readonly Token[], from: number, to: number): number {
    if (from === to) return 0;
    let count = 0;
    let segment = from;
    for (let i = from; i <= to; i++) {
      if (i < to && !isPunct(t[i], ',')) continue;
      count++;
      const first = t[segment];
      if (i === segment || !first) {
        const at = t[i] as Token;
        this.report(Rule.FunctionParameter, at.start, at.end, 'empty function parameter', at.text);
      } else if (i - segment !== 1 || first.kind !== TokenKind.Ident) {
        const lastToken = t[i - 1] as Token;
        this.reportTokens(
          Rule.FunctionParameter,
          first,
          lastToken,
          `function parameters are plain names, got '${abbreviate(this.src.slice(first.start, lastToken.end), 30)}'`,
        );
      }
      segment = i + 1;
    }
    return count;
  }

  private closingBrace(t: Token[]): void {
    const t0 = t[0] as Token;
    const r0 = t[1];
    const lastToken = last(t) as Token;
    const top = this.blocks.top;
    if (isWord(r0, 'else') || isWord(r0, 'catch') || isWord(r0, 'except') || isWord(r0, 'finally')) {
      // A block being converted takes `} else {` / `} catch (e) {` along; any other shape stops its conversion.
      top?.conversion?.branchLine(t0.start, lastToken.end, isBraceBranchLine(t) ? branchWords(t) : []);
      if (isWord(r0, 'else')) {
        this.reportTokens(
          Rule.ForeignElse,
          t0,
          lastToken,
          `unexpected construct '${abbreviate(this.src.slice(t0.start, lastToken.end), 40)}' — AVAP writes else() … end()`,
          undefined,
          foreignElseFix(t),
        );
        if (top && (top.kind === 'if' || top.kind === 'brace')) top.hasElse = true;
        return;
      }
      const word = r0 as Token;
      this.report(
        Rule.ForeignKeyword,
        word.start,
        word.end,
        `foreign keyword '${word.text}' — AVAP error handling is try() … exception(err) … end()`,
        word.text,
      );
      return;
    }
    const closed = this.blocks.closeBrace(this.site(t0));
    const trailingJunk =
      t.length > 1 && !t.slice(1).every((x) => isPunct(x, ')') || isPunct(x, ';') || isPunct(x, ']'));
    if (closed?.conversion && !trailingJunk) closed.conversion.closedByBrace(this.src, t0.start, lastToken.end);
    if (closed?.kind === 'function') {
      if (trailingJunk) this.reportTokens(Rule.TrailingText, t[1] as Token, lastToken, "unexpected text after '}'");
      return;
    }
    if (closed) {
      const closer = closed.kind === 'brace' ? undefined : closerOf(closed.kind);
      const message = closer
        ? `unexpected construct '}' — close ${closed.kind === 'loop' ? 'startLoop()' : `'${closed.token}'`} with ${closer}; braces only enclose function bodies`
        : "unexpected construct '}' — AVAP closes blocks with end() or endLoop(); braces only enclose function bodies";
      this.reportTokens(
        Rule.BraceClosesBlock,
        t0,
        t.length > 1 ? lastToken : t0,
        message,
        t.length === 1 ? closer : undefined,
      );
      return;
    }
    this.reportTokens(
      Rule.UnmatchedBrace,
      t0,
      lastToken,
      "'}' without an opening function body — AVAP closes blocks with end() or endLoop()",
    );
  }

  private openingBrace(t: Token[]): void {
    const t0 = t[0] as Token;
    const under = this.blocks.top;
    const conversion =
      under && under.line === this.lineNo - 1 && t.length === 1
        ? allmanBraceConversion(this.src, under, t0)
        : undefined;
    this.report(
      Rule.BraceBody,
      t0.start,
      t0.end,
      'curly-brace body — AVAP blocks have no braces; close them with end() or endLoop()',
      '{',
      undefined,
      conversion?.hint(),
    );
    this.blocks.push({
      kind: 'brace',
      line: this.lineNo,
      column: this.col(t0.start),
      endColumn: this.col(t0.end),
      token: '{',
      conversion,
    });
  }

  /** Text after the closing `)` of a call: a brace body, a Python colon, or junk. */
  private trailing(t: readonly Token[], call: ParsedCall, block: Block | undefined): void {
    if (call.closeIndex === -1 || call.closeIndex === t.length - 1) return;
    const r0 = t[call.closeIndex + 1] as Token;
    const lastToken = last(t) as Token;
    const name = (t[call.nameIndex] as Token).text;
    if (isPunct(r0, '{')) {
      const conversion = block && !block.conversion ? braceBodyConversion(block, t, r0) : undefined;
      this.report(
        Rule.BraceBody,
        r0.start,
        r0.end,
        `curly-brace body after '${name}(…)' — AVAP blocks have no braces; close them with ${block ? closerOf(block.kind) : 'end()'}`,
        '{',
        undefined,
        conversion?.hint(),
      );
      if (block) {
        block.braceBody = true;
        block.conversion ??= conversion;
      } else this.pushBraceIfOpened(t);
      return;
    }
    if (isPunct(r0, ':')) {
      const close = t[call.closeIndex] as Token;
      const hint =
        block && r0 === lastToken
          ? { title: "Delete ':'", edits: [{ start: close.end, end: r0.end, newText: '' }] }
          : undefined;
      this.report(
        Rule.PythonColon,
        r0.start,
        r0.end,
        `Python-style ':' after '${name}(…)' — AVAP blocks are closed with ${block ? closerOf(block.kind) : 'end()'}, not indented`,
        ':',
        undefined,
        hint,
      );
      return;
    }
    this.reportTokens(
      Rule.TrailingText,
      r0,
      lastToken,
      `unexpected '${abbreviate(this.src.slice(r0.start, lastToken.end), 30)}' after '${name}(…)'`,
    );
  }

  private bracketProblems(t: readonly Token[], call: ParsedCall): void {
    const problem = call.problem;
    if (!problem) return;
    const name = (t[call.nameIndex] as Token).text;
    if (problem.kind === 'unclosed') {
      const end = (last(t) as Token).end;
      const closable = !t.some((x) => x.unterminated);
      this.report(
        Rule.UnclosedCall,
        problem.token.start,
        this.lineEnd,
        `missing ')' — the call to '${name}' is not closed on this line`,
        '(',
        undefined,
        closable ? { title: "Insert the missing ')'", edits: [{ start: end, end, newText: ')' }] } : undefined,
      );
    } else {
      this.report(
        Rule.MismatchedBracket,
        problem.token.start,
        problem.token.end,
        `mismatched '${problem.token.text}' in the call to '${name}' — expected '${problem.expected ?? ')'}'`,
        problem.token.text,
      );
    }
  }

  // ------------------------------------------------------------- commands

  /** Checks a call to a catalogue command, or defers an unknown name. Returns the block it opened. */
  private checkCommand(t: Token[], call: ParsedCall, context: 'statement' | 'assignment'): Block | undefined {
    const nameToken = t[call.nameIndex] as Token;
    const name = nameToken.text;
    const spec = findCommand(name);
    this.checkArgumentContents(t, call);
    if (!spec) {
      const role = this.structuralRole(name);
      const block = role ? this.applyRole(role, nameToken) : undefined;
      const closeToken = call.closeIndex >= 0 ? (t[call.closeIndex] as Token) : nameToken;
      this.pending.push({
        name,
        argCount: call.args.length,
        line: this.lineNo,
        column: this.col(nameToken.start),
        endColumn: this.col(nameToken.end),
        context,
        text: this.src.slice(nameToken.start, closeToken.end),
        shape: this.callShape(t, call, context),
      });
      return block;
    }
    const params = this.checkArity(t, call, spec, context);
    if (params) {
      this.checkArgumentKinds(t, call, spec, params);
      this.semanticChecks(t, call, spec, params, context);
    }
    if (spec.resultOnlyByAssignment && context === 'statement') {
      this.report(
        Rule.DiscardedResult,
        nameToken.start,
        nameToken.end,
        `the result of '${name}' is discarded — assign it: conn = ${name}(…)`,
        name,
      );
    }
    return this.applyRole(spec.block, nameToken);
  }

  /**
   * What the semantic warnings need from a well-formed command call
   * (semantics.ts): its bare keys, the names it assigns (after the keys: a key
   * of a call is read before its target is written), and addVar's literals.
   */
  private semanticChecks(
    t: readonly Token[],
    call: ParsedCall,
    spec: CommandSpec,
    params: readonly ParamSpec[],
    context: 'statement' | 'assignment',
  ): void {
    const args = call.args;
    for (let i = 0; i < args.length; i++) {
      const param = params[i] as ParamSpec;
      if (!param.key) continue;
      const arg = args[i] as CallArg;
      const x = t[arg.first];
      if (arg.last - arg.first !== 1 || x?.kind !== TokenKind.Ident) continue;
      this.sem.key({
        name: x.text,
        command: spec.name,
        line: this.lineNo,
        column: this.col(x.start),
        endColumn: this.col(x.end),
        start: x.start,
        end: x.end,
      });
    }
    if (spec.name === 'addVar' && context === 'statement') this.addVarLiteral(t, call);
    for (let i = 0; i < args.length; i++) {
      if ((params[i] as ParamSpec).kind !== 'target') continue;
      const arg = args[i] as CallArg;
      const name = isIdentifier(arg.text) ? arg.text : quotedIdentifier(t, arg);
      if (name !== undefined) this.sem.assign(name, this.lineNo);
    }
  }

  /** `addVar(rows, [])`: the specification's addVar stores anything but a variable or a number as text. */
  private addVarLiteral(t: readonly Token[], call: ParsedCall): void {
    const [target, value] = call.args;
    if (!target || !value) return;
    const what = literalKind(t, value);
    if (!what) return;
    const name = isIdentifier(target.text) ? target.text : quotedIdentifier(t, target);
    const literal = valueLiteral(t, value);
    const assignment = name === undefined ? undefined : `${name} = ${literal}`;
    const whole = !call.problem && call.nameIndex === 0 && call.closeIndex === t.length - 1;
    const first = t[0] as Token;
    const hint =
      assignment !== undefined && whole
        ? {
            title: `Assign the value: ${abbreviate(assignment, 40)}`,
            edits: [{ start: first.start, end: (t[call.closeIndex] as Token).end, newText: assignment }],
          }
        : undefined;
    this.report(
      Rule.LiteralStoredAsText,
      value.start,
      value.end,
      `addVar stores ${abbreviate(value.text, 30)} as the text "${abbreviate(value.text, 30)}", not as ${what} — ` +
        `assign the value instead: ${assignment ?? `name = ${literal}`}`,
      value.text,
      undefined,
      hint,
    );
  }

  /** A call that is the whole statement, as a fix that rewrites it needs it. */
  private callShape(t: readonly Token[], call: ParsedCall, context: 'statement' | 'assignment'): CallShape | undefined {
    if (call.problem || call.closeIndex !== t.length - 1) return undefined;
    const first = t[0] as Token;
    return {
      start: first.start,
      end: (t[call.closeIndex] as Token).end,
      target: context === 'assignment' ? first.text : undefined,
      args: call.args.map((a) => ({ text: a.text, name: isIdentifier(a.text) ? a.text : quotedIdentifier(t, a) })),
    };
  }

  private structuralRole(name: string): BlockRole | undefined {
    const hallucination = findHallucination(name);
    if (hallucination?.structuralAs) return findCommand(hallucination.structuralAs)?.block;
    const sameLetters = findCommandIgnoringCase(name);
    if (sameLetters) return sameLetters.block;
    const otherCase = findHallucinationIgnoringCase(name)?.structuralAs;
    return otherCase ? findCommand(otherCase)?.block : undefined;
  }

  private applyRole(role: BlockRole | undefined, at: Token): Block | undefined {
    if (!role) return undefined;
    switch (role) {
      case 'open-if':
        return this.openBlock('if', at);
      case 'open-loop':
        return this.openBlock('loop', at);
      case 'open-try':
        return this.openBlock('try', at);
      case 'open-async':
        return this.openBlock('async', at);
      case 'else':
        this.blocks.else(this.site(at));
        return this.blocks.top;
      case 'exception':
        this.blocks.exception(this.site(at));
        return this.blocks.top;
      case 'end':
        this.blocks.end(this.site(at));
        return undefined;
      case 'end-loop':
        this.blocks.endLoop(this.site(at));
        return undefined;
    }
  }

  private openBlock(kind: Block['kind'], at: Token): Block {
    const block: Block = {
      kind,
      line: this.lineNo,
      column: this.col(at.start),
      endColumn: this.col(at.end),
      token: at.text,
    };
    this.blocks.push(block);
    return block;
  }

  /** Returns the parameter list the arguments match, or undefined after reporting. */
  private checkArity(
    t: readonly Token[],
    call: ParsedCall,
    spec: CommandSpec,
    context: 'statement' | 'assignment',
  ): readonly ParamSpec[] | undefined {
    const argc = call.args.length;
    const matched =
      matchSignature(spec.params, argc, context) ??
      (spec.altParams ? matchSignature(spec.altParams, argc, context) : undefined);
    if (matched) return matched;
    const nameToken = t[call.nameIndex] as Token;
    const closeToken = call.closeIndex >= 0 ? (t[call.closeIndex] as Token) : (last(t) as Token);
    const forms = signaturesOf(spec).map(
      (params) => `${plural(params.length, 'argument')} (${params.map((p) => p.name).join(', ')})`,
    );
    const single = spec.params.length === 1 && spec.params[0]?.kind === 'name' && !spec.altParams;
    const shape = this.callShape(t, call, context);
    let hint: FixHint | undefined;
    if (shape && single && context === 'statement')
      hint = oneCallPerName(
        spec.name,
        nameToken,
        closeToken,
        call.args.map((a) => a.text),
        this.lineStart,
      );
    else if (shape) hint = completedCallFix(spec, shape);
    this.reportTokens(
      Rule.Arity,
      nameToken,
      closeToken,
      `'${spec.name}' expects ${forms.join(' or ')}, got ${argc}`,
      undefined,
      hint,
    );
    return undefined;
  }

  private checkArgumentKinds(
    t: readonly Token[],
    call: ParsedCall,
    spec: CommandSpec,
    params: readonly ParamSpec[],
  ): void {
    const args = call.args;
    for (let index = 0; index < args.length; index++) {
      const param = params[index];
      if (param) this.checkArgumentKind(t, call, spec, args[index] as CallArg, index, param);
    }
  }

  private checkArgumentKind(
    t: readonly Token[],
    call: ParsedCall,
    spec: CommandSpec,
    arg: CallArg,
    index: number,
    param: ParamSpec,
  ): void {
    if (arg.text === '') {
      const mustHave = param.required || ((param.kind === 'target' || param.kind === 'number') && !param.optional);
      if (mustHave)
        this.report(Rule.MissingArgument, arg.start, arg.end, `missing ${argumentName(spec, index, param)}`, spec.name);
      return;
    }
    const single = arg.last - arg.first === 1 ? t[arg.first] : undefined;
    const isGlobal = single?.kind === TokenKind.Global;
    if (param.kind === 'target') {
      if (isIdentifier(arg.text) || quotedIdentifier(t, arg) !== undefined || isGlobal) return;
      const swapped = spec.name === 'addVar' && index === 0;
      const order = swapped ? ' — addVar takes the target first: addVar(target, value)' : '';
      const value = call.args[1];
      const hint =
        swapped && call.args.length === 2 && value && isIdentifier(value.text)
          ? swappedArgumentsFix(this.src, arg, value)
          : undefined;
      this.report(
        Rule.InvalidTarget,
        arg.start,
        arg.end,
        `${argumentName(spec, index, param)} must be a variable name, got '${abbreviate(arg.text, 30)}'${order}`,
        arg.text,
        undefined,
        hint,
      );
      return;
    }
    if (param.kind === 'number') {
      const quoted = single?.kind === TokenKind.String ? single.text.slice(1, -1) : undefined;
      if (
        NUMBER_RE.test(arg.text) ||
        isIdentifier(arg.text) ||
        isGlobal ||
        (quoted !== undefined && NUMBER_RE.test(quoted))
      )
        return;
      const expression =
        arg.last - arg.first > 1 && !t.slice(arg.first, arg.last).some((x) => x.kind === TokenKind.String);
      // A loop bound: named after the loop's variable inside a block (another loop's may be computed the same way).
      const counter =
        spec.name === 'startLoop' && this.lineStart !== (t[0] as Token).start ? call.args[0]?.text : undefined;
      const names =
        param.name === 'to'
          ? [counter ? `${counter}_last` : 'last']
          : param.name === 'from'
            ? [counter ? `${counter}_first` : 'first']
            : [param.name.toLowerCase(), 'value'];
      this.report(
        Rule.InvalidNumber,
        arg.start,
        arg.end,
        `${argumentName(spec, index, param)} must be a number or a variable name (this parser's rule), got '${abbreviate(arg.text, 30)}' — compute it first: value = …`,
        arg.text,
        undefined,
        expression ? hoistFix(this.lineStart, arg, names, (name) => `${name} = ${arg.text}`) : undefined,
      );
    }
  }

  /** Templates, $globals and calls nested inside raw-text arguments. */
  private checkArgumentContents(t: readonly Token[], call: ParsedCall): void {
    for (const arg of call.args) {
      for (let i = arg.first; i < arg.last; i++) {
        const x = t[i] as Token;
        if (x.kind === TokenKind.Template) this.checkTemplate(x);
      }
      const head = t[arg.first];
      if (!head || head.kind !== TokenKind.Ident || !isPunct(t[arg.first + 1], '(')) continue;
      if (matchBracket(t, arg.first + 1) !== arg.last - 1) continue;
      const name = head.text;
      const spec = findCommand(name);
      if (spec) {
        this.report(
          Rule.NestedCommand,
          arg.start,
          arg.end,
          `command '${name}' is not accepted inside an argument (this parser's rule: the specification gives an argument as a literal or a variable name) — call it on its own line and pass its target variable`,
          name,
          undefined,
          this.nestedCommandFix(t, arg, spec),
        );
      } else if (EXPRESSION_BUILTINS.has(name)) {
        this.literalCallWarning(arg.start, arg.end, arg.text);
      } else {
        const inner = parseCall(this.src, t, arg.first + 1, this.lineEnd);
        this.defer(head, inner.args.length, 'argument', arg.text);
      }
    }
  }

  private literalCallWarning(start: number, end: number, text: string): void {
    this.report(
      Rule.LiteralCall,
      start,
      end,
      `'${abbreviate(text, 30)}' in an argument: the specification reads it as that text, the reference implementation fails on it ('Command not found') — compute it first: value = ${abbreviate(text, 30)}`,
      text,
      undefined,
      hoistFix(this.lineStart, { start, end }, ['value'], (name) => `${name} = ${text}`),
    );
  }

  /** `addVar(x, encodeSHA256(a, h))` → `encodeSHA256(a, h)` on the line before, and `addVar(x, h)`. */
  private nestedCommandFix(t: readonly Token[], arg: CallArg, spec: CommandSpec): FixHint | undefined {
    if (spec.block) return undefined;
    const inner = parseCall(this.src, t, arg.first + 1, this.lineEnd);
    const params = spec.params;
    const target = params[params.length - 1];
    if (inner.problem || target?.kind !== 'target' || params.some((p) => p.kind === 'target' && p !== target))
      return undefined;
    const args = inner.args.map((a) => a.text);
    const call = (name: string) => `${spec.name}(${[...args, name].join(', ')})`;
    if (args.length === params.length) {
      const given = args.pop() as string;
      if (!isIdentifier(given)) return undefined;
      return hoistFix(this.lineStart, arg, [], call, given);
    }
    if (args.length !== params.length - 1) return undefined;
    return hoistFix(this.lineStart, arg, ['value'], call);
  }

  private defer(nameToken: Token, argCount: number, context: CallContext, text: string): void {
    this.pending.push({
      name: nameToken.text,
      argCount,
      line: this.lineNo,
      column: this.col(nameToken.start),
      endColumn: this.col(nameToken.end),
      context,
      text,
    });
  }

  // ------------------------------------------------------------------ end

  private finish(state: ScanState): void {
    if (state.inBlockComment && this.blockComment) {
      const { line, column } = this.blockComment;
      this.rep.at(
        Rule.UnterminatedComment,
        line,
        column,
        column + 2,
        "unterminated block comment — close it with '*/'",
        '/*',
      );
    }
    const top = this.blocks.top;
    if (top?.awaitingBrace) {
      this.rep.at(
        Rule.FunctionMissingBrace,
        top.line,
        top.column,
        top.endColumn,
        `function '${top.name ?? ''}' needs '{' to open its body`,
        top.token,
      );
    }
    this.blocks.finish();
    this.resolvePending();
  }

  private resolvePending(): void {
    // One index of the functions for every unknown name: linear, where a scan per name was (names × functions).
    const userFunctions = new NearNames(
      [...this.functions.keys()],
      MAX_COMPARED_LENGTH,
      NEAR_NAME_CELLS_FLOOR + NEAR_NAME_CELLS_PER_CHAR * this.src.length,
    );
    for (const p of this.pending) {
      const rule = pendingRule(p, this.functions);
      const fn = this.functions.get(p.name);
      if (fn) {
        if (rule === Rule.LiteralCall) {
          this.rep.at(
            Rule.LiteralCall,
            p.line,
            p.column,
            p.endColumn,
            `'${abbreviate(p.text, 30)}' in an argument: the specification reads it as that text, the reference implementation calls the function — compute it first: value = ${abbreviate(p.text, 30)}`,
            p.name,
          );
        } else if (rule === Rule.FunctionArity) {
          this.rep.at(
            Rule.FunctionArity,
            p.line,
            p.column,
            p.endColumn,
            `function '${p.name}' (line ${fn.line}) takes ${plural(fn.arity, 'argument')}, got ${p.argCount}`,
            p.name,
          );
        }
        continue;
      }
      const suggestion = suggestName(p.name, userFunctions, p.argCount);
      const kind = p.context === 'statement' || p.context === 'assignment' ? 'command' : 'function';
      const note = suggestion.note ? ` (${suggestion.note})` : '';
      // A name whose arguments are not the unknown one's is advice: its signature says what it needs (issue 24, F10).
      const equivalent = suggestion.name && !suggestion.exact ? findCommand(suggestion.name) : undefined;
      const takes = equivalent ? ` — it takes ${signatureOf(equivalent)}: map the arguments to it` : '';
      const message = suggestion.name
        ? `'${p.name}' not defined — did you mean '${suggestion.name}'?${note}${takes}`
        : `unknown ${kind} '${p.name}' — expected known identifier${note}`;
      const hint = suggestion.name && p.shape ? inventedCallFix(p.name, p.shape) : undefined;
      const replacement = suggestion.exact ? suggestion.name : undefined;
      this.rep.at(rule ?? Rule.UnknownFunction, p.line, p.column, p.endColumn, message, p.name, replacement, hint);
    }
  }
}
