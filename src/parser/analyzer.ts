/**
 * Statement analysis: one physical line at a time (AVAP has no line
 * continuation), each line classified as a command call, an assignment, a
 * block keyword, a function definition, or a foreign construct. Names that are
 * neither commands nor functions are resolved at the end of the file, because
 * a function may be defined after its first call. This module reads the text
 * line by line and holds the state between lines; the checks of each kind of
 * statement live in analysis/ (lines.ts dispatches a line to them).
 */
import { BlockStack, type Block, type BlockFixes, type Site } from './blocks';
import type { FixHint } from './fixes/candidates';
import { Rule } from './catalogue/rules';
import { closeBlockFix } from './fixes/openBlocks';
import type { OffsetFinding, Reporter, TokenFinding } from './reporter';
import { Semantics } from './semantics';
import { newScanState, scanLine, type LexicalProblem, type ScanState, type Span, type Token } from './scanner';
import { abbreviate } from './wording';
import type { FunctionInfo, PendingCall } from './pendingCalls';
import { AppendList, layerOver, MAX_LAYERS, prefixOf } from './layered';
import type { AnalysisContext } from './analysis/context';
import { lexical, checkTemplate } from './analysis/lexicalFindings';
import { functionMissingBrace } from './analysis/functions';
import { analyzeLine } from './analysis/lines';
import {
  loadPlain,
  plainBackoff,
  plainLine,
  plainLineEnd,
  plainStatement,
  tokenizeLoaded,
} from './analysis/plainLines';
import { noteCall, resolvePending } from './analysis/names';

/** How an analysis is copied (Analyzer.fork). */
export interface ForkOptions {
  /** This analysis is never read on, so the copy may share its tables (layered.ts) instead of copying them. */
  frozen?: boolean;
  /**
   * Where the copy's text starts in this analysis' text (a fork may read only
   * the text from its line on; its offsets then count from there, which only
   * its candidate fixes would see).
   */
  base?: number;
  /** How deep shared tables may be layered before they are copied. */
  maxLayers?: number;
  /**
   * This analysis reads on (only adding to its tables), and the copy is a snapshot never read on: it sees the
   * tables as they are now through views of them (layered.ts prefixOf), neither copied nor layered.
   */
  view?: boolean;
}

/** The tables a fork starts with (Analyzer.fork). */
interface ForkedTables {
  functions: Map<string, FunctionInfo>;
  pending: AppendList<PendingCall>;
  scan: ScanState;
}

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

/** What the block stack asks the analysis (blocks.ts BlockFixes): one object per analysis, not three closures. */
class AnalysisBlockFixes implements BlockFixes {
  constructor(private readonly analysis: Analyzer) {}

  lineStart(): number {
    return this.analysis.lineStart;
  }

  closer(block: Block, limit: number): FixHint | undefined {
    return closeBlockFix(block, limit);
  }

  closedByCloser(block: Block): void {
    block.conversion?.closedByCloser();
    if (block.elseIfs) for (const rewrite of block.elseIfs) rewrite.closedAt(this.analysis.lineEnd);
  }
}

export class Analyzer implements AnalysisContext {
  readonly blocks: BlockStack;
  functions: Map<string, FunctionInfo>;
  pending: AppendList<PendingCall>;
  readonly connectors = new Set<string>();
  lineNo = 0;
  lineStart = 0;
  lineEnd = 0;
  private blockComment: { line: number; column: number } | undefined;
  readonly sem: Semantics;
  /** Where the next line starts, its number, and the scan state carried into it (a block comment). */
  private next = 0;
  private nextLineNo = 1;
  private scan: ScanState;
  private nextLF = -2;
  private nextCR = -2;
  private done = false;
  /** The current line's offsets, as the scanner reads them (one object for every line: this is the hot path). */
  private readonly span: Span = { start: 0, end: 0 };
  /** Where the scanner reports, made on the first line it reads (most lines of most programs are plain). */
  private sink: ((problem: LexicalProblem, start: number, end: number) => void) | undefined;
  /**
   * The lines the scanner read, as start and end offsets: the plain reader (analysis/plainLines.ts) read every
   * character of every other line and found no control character. validateAvap's binary check then counts control
   * characters in these lines only (guard.ts binaryCheckIn).
   */
  readonly scanned: number[] = [];
  /**
   * When set, `marks[n]` is how many findings the reporter held when line n
   * started (fixes/resync.ts splits a program's findings by the line that
   * reported them).
   */
  marks: number[] | undefined;

  /** @param tables what a fork takes from the analysis it copies (fork), instead of empty tables to replace */
  constructor(
    public src: string,
    readonly rep: Reporter,
    tables?: ForkedTables,
  ) {
    this.functions = tables?.functions ?? new Map<string, FunctionInfo>();
    this.pending = tables?.pending ?? new AppendList();
    this.scan = tables?.scan ?? newScanState();
    this.blocks = new BlockStack(rep, new AnalysisBlockFixes(this));
    this.sem = new Semantics(rep, this.blocks);
  }

  /**
   * The whole text, then its end: the loop of `step` with its state in locals (the hot path of every validation).
   * A line the plain reader reads is read to its line break by the reader (analysis/plainLines.ts tokenizeLoaded):
   * only the others are searched for it.
   */
  run(): void {
    const src = this.src;
    const n = src.length;
    const marks = this.marks;
    let start = this.next;
    let lineNo = this.nextLineNo;
    let nextLF = -2;
    let nextCR = -2;
    // The whole text goes to the plain reader's faster tokenizer once (a ticket; 0: tokenized line by line as before).
    const ticket = marks === undefined ? loadPlain(src) : 0;
    while (!this.done) {
      if (marks) marks[lineNo] = this.rep.entries.length;
      let end = -1;
      if (marks === undefined && this.offersPlain()) {
        const count = tokenizeLoaded(ticket, src, start, n);
        if (count >= 0) {
          end = plainLineEnd();
          this.enter(lineNo, start, end);
          this.readPlain(this.notePlain(plainStatement(this, count)));
        } else this.notePlain(undefined);
      }
      if (end === -1) {
        if (nextLF !== -1 && nextLF < start) nextLF = src.indexOf('\n', start);
        if (nextCR !== -1 && nextCR < start) nextCR = src.indexOf('\r', start);
        end = Math.min(nextLF === -1 ? n : nextLF, nextCR === -1 ? n : nextCR);
        this.enter(lineNo, start, end);
        // Offered to the plain reader above, or not to be: the scanner reads it.
        if (marks === undefined) this.readScanned();
        else this.readLine();
      }
      if (this.stopsHere() || end >= n) break;
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
    this.enter(lineNo, start, end);
    this.readLine();
    return !this.stopsHere();
  }

  /** The current line is `lineNo`, [start, end) of the text. */
  private enter(lineNo: number, start: number, end: number): void {
    this.lineNo = lineNo;
    this.lineStart = start;
    this.lineEnd = end;
  }

  /** The current line, by the plain reader when it is offered one, else by the scanner. */
  private readLine(): void {
    if (!this.offersPlain()) return this.readScanned();
    const plain = this.notePlain(plainLine(this, this.lineStart, this.lineEnd));
    if (plain === undefined) this.readScanned();
    else this.readPlain(plain);
  }

  /** The current line through the scanner, then the checks. */
  private readScanned(): void {
    const { lineStart: start, lineEnd: end, scan: state } = this;
    this.scanned.push(start, end);
    const span = this.span;
    span.start = start;
    span.end = end;
    const wasInComment = state.inBlockComment;
    const sink = (this.sink ??= (problem, at, to) => lexical(this, problem, at, to));
    const tokens = scanLine(this.src, span, state, sink);
    if (state.inBlockComment && !wasInComment) {
      this.blockComment = { line: this.lineNo, column: state.blockCommentStart - start + 1 };
    }
    if (tokens.length > 0) analyzeLine(this, tokens, state.semicolon);
  }

  /**
   * The current line as the plain reader left it (analysis/plainLines.ts): done, or its tokens for the checks. No
   * `;`, no comment left open, nothing for the scanner to report.
   */
  private readPlain(plain: true | Token[]): void {
    this.scan.semicolon = false;
    if (plain !== true) analyzeLine(this, plain, false);
  }

  /** The reporter is full of errors: the analysis stops after this line. */
  private stopsHere(): boolean {
    if (!(this.rep.saturated && this.rep.errorCount > 0)) return false;
    this.stoppedEarly = true;
    return true;
  }

  /**
   * The current line may go to the plain reader (analysis/plainLines.ts): not inside a block comment or before a
   * function body's `{`, and not right after lines it did not take — after one such line the next goes to the
   * scanner, after two in a row the next two, and so on up to 16 (a line the reader takes resets it). Text that is
   * mostly not plain (an invalid answer, an adversarial shape) is then read about as fast as by the scanner alone;
   * the output is the same either way.
   */
  private offersPlain(): boolean {
    if (this.scan.inBlockComment || this.blocks.top?.awaitingBrace) return false;
    if (this.plainSkip > 0 && plainBackoff()) {
      this.plainSkip--;
      return false;
    }
    return true;
  }

  /** What the plain reader answered, noted for the back-off (offersPlain). */
  private notePlain<A extends true | Token[] | undefined>(answer: A): A {
    if (answer === true) this.plainMisses = 0;
    else {
      this.plainMisses = Math.min(16, this.plainMisses * 2 || 1);
      this.plainSkip = this.plainMisses;
    }
    return answer;
  }

  /** Lines the plain reader did not take in a row, as a back-off length, and the lines still to leave to the scanner. */
  private plainMisses = 0;
  private plainSkip = 0;

  /** The end of the file: what is still open or unresolved is reported (not after an early stop). */
  end(): void {
    if (this.marks) this.marks[this.lineNo + 1] = this.rep.entries.length;
    if (!this.stoppedEarly) this.finish(this.scan);
  }

  /** The reporter filled up with errors and the analysis stopped before the end. */
  stoppedEarly = false;

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
   */
  fork(src: string, rep: Reporter, options: ForkOptions = {}): Analyzer {
    const { frozen = false, base = 0, maxLayers = MAX_LAYERS, view = false } = options;
    // What the tables hold now is what was defined or first assigned before the next line.
    const line = this.nextLineNo;
    const copy = new Analyzer(src, rep, {
      functions: view
        ? prefixOf(this.functions, (f) => f.line < line)
        : frozen
          ? layerOver(this.functions, maxLayers)
          : new Map(this.functions),
      // A layer over a list reads only the items it had when made: a view as well.
      pending: frozen || view ? this.pending.layer(maxLayers) : this.pending.copy(),
      // `semicolon` is about the line last scanned: every scan sets it before it is read, so a copy starts without.
      scan: {
        inBlockComment: this.scan.inBlockComment,
        blockCommentStart: this.scan.blockCommentStart,
        semicolon: false,
      },
    });
    const blockMap = copy.blocks.copyFrom(this.blocks);
    copy.sem.copyFrom(this.sem, blockMap, (names) =>
      view ? prefixOf(names, (first) => first < line) : frozen ? layerOver(names, maxLayers) : new Map(names),
    );
    for (const name of this.connectors) copy.connectors.add(name);
    copy.blockComment = this.blockComment;
    copy.next = this.next - base;
    // Reading on in the same text (prepare's driver, meet's re-read of the original), the copy knows where the
    // next breaks are: searching again read the whole rest of the program for a CR it has none of, per fork.
    if (src === this.src && base === 0) {
      copy.nextLF = this.nextLF;
      copy.nextCR = this.nextCR;
    }
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

  col(offset: number): number {
    return offset - this.lineStart + 1;
  }

  report(finding: OffsetFinding): void {
    const { rule, start, end, message, token, suggestion, hint } = finding;
    this.rep.at({
      rule,
      line: this.lineNo,
      column: this.col(start),
      endColumn: this.col(end),
      message,
      // A proof's re-analysis never reads it (Reporter.wordless).
      token: this.rep.wordless ? token : abbreviate(token, 80),
      suggestion,
      hint,
    });
  }

  /** As report with the tokens' offsets and text (not through report: one object less per finding). */
  reportTokens(finding: TokenFinding): void {
    const { rule, from, to, message, suggestion, hint } = finding;
    this.rep.at({
      rule,
      line: this.lineNo,
      column: this.col(from.start),
      endColumn: this.col(to.end),
      message,
      token: abbreviate(this.src.slice(from.start, to.end), 80),
      suggestion,
      hint,
    });
  }

  site(t: Token, endToken: Token = t): Site {
    return { line: this.lineNo, column: this.col(t.start), endColumn: this.col(endToken.end), token: t.text };
  }

  // ------------------------------------------------------------- expression host

  noteCall(nameToken: Token, argCount: number): void {
    noteCall(this, nameToken, argCount);
  }

  checkTemplate(token: Token): void {
    checkTemplate(this, token);
  }

  // ------------------------------------------------------------------ end

  private finish(state: ScanState): void {
    if (state.inBlockComment && this.blockComment) {
      const { line, column } = this.blockComment;
      this.rep.at({
        rule: Rule.UnterminatedComment,
        line,
        column,
        endColumn: column + 2,
        message: "unterminated block comment — close it with '*/'",
        token: '/*',
      });
    }
    const top = this.blocks.top;
    if (top?.awaitingBrace) {
      functionMissingBrace(this.rep, top);
    }
    this.blocks.finish();
    resolvePending(this);
  }
}
