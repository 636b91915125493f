/**
 * Rewriting a curly-brace block into AVAP's closers: `if(…) {` … `} else {` …
 * `}` becomes `if(…)` … `else()` … `end()`, a JavaScript `try {` … `} catch (e)
 * {` … `}` becomes `try()` … `exception(e)` … `end()`, and so on. The opener's
 * line is rewritten when the block opens; its `} else {` and closing `}` are
 * recorded as the analysis meets them; the candidate exists once the block is
 * closed (by its `}`, or by an AVAP closer, when only the opener needs fixing).
 */
import { deleteLine, type Candidate, type FixContext, type FixHint } from './candidates';
import type { OffsetEdit } from './text';
import { closerOf, type Block, type BlockKind } from '../blocks';
import { TokenKind, isPunct, type Token } from '../scanner';

/** What a branch line (`} else {`, `} catch (e) {`) becomes, or undefined when it cannot be rewritten. */
export type BranchRewrite = (words: readonly string[]) => string | undefined;

export class BraceConversion {
  private closeEdit: OffsetEdit | undefined;
  private readonly branchEdits: OffsetEdit[] = [];
  private closedByAvap = false;
  private broken = false;
  private deferred: ((ctx: FixContext) => OffsetEdit[] | undefined) | undefined;

  /**
   * @param header edits of the opener's line
   * @param closer what the closing `}` line becomes ('' deletes that line)
   * @param branch what a `} word … {` line inside the block becomes
   */
  constructor(
    private readonly title: string,
    private readonly header: readonly OffsetEdit[],
    private readonly closer: string,
    private readonly branch: BranchRewrite = () => undefined,
  ) {}

  /** The opener's edits need more of the file than its line (a fresh name): built with the candidate. */
  deferHeader(build: (ctx: FixContext) => OffsetEdit[] | undefined): void {
    this.deferred = build;
  }

  /** The block was closed by end() or endLoop(): only the opener needs rewriting. */
  closedByCloser(): void {
    this.closedByAvap = true;
  }

  /** The `}` (with nothing else that matters on its line) at [start, end) closed the block. */
  closedByBrace(src: string, start: number, end: number): void {
    this.closeEdit = this.closer === '' ? deleteLine(src, start) : { start, end, newText: this.closer };
  }

  /** A `} else {`-like line at [start, end); `words` are its words, braces left out. */
  branchLine(start: number, end: number, words: readonly string[]): void {
    const text = this.branch(words);
    if (text === undefined) this.broken = true;
    else this.branchEdits.push({ start, end, newText: text });
  }

  hint(): FixHint {
    return (ctx): Candidate | undefined => {
      if (this.broken || (!this.closeEdit && !this.closedByAvap)) return undefined;
      const header = this.deferred ? this.deferred(ctx) : this.header;
      if (!header) return undefined;
      const edits = [...header, ...this.branchEdits];
      if (this.closeEdit) edits.push(this.closeEdit);
      return { title: this.title, edits };
    };
  }
}

/** Words of a `} else {`-like line, braces and parentheses left out. */
export function branchWords(t: readonly Token[]): string[] {
  return t.filter((x) => x.kind === TokenKind.Ident).map((x) => x.text);
}

/** `} else {` → `else()`; `} catch (e) {` → `exception(e)`. */
export function braceBranch(kind: BlockKind | 'foreign-try'): BranchRewrite {
  if (kind === 'if') return (words) => (words.length === 1 && words[0] === 'else' ? 'else()' : undefined);
  if (kind === 'try' || kind === 'foreign-try') {
    return (words) => {
      if (words[0] !== 'catch' || words.length > 2) return undefined;
      return `exception(${words[1] ?? ''})`;
    };
  }
  return () => undefined;
}

/** A line that is exactly a brace branch: `} else {`, `} catch (e) {`, `} catch {`. */
export function isBraceBranchLine(t: readonly Token[]): boolean {
  if (!isPunct(t[0], '}') || !isPunct(t[t.length - 1], '{') || t[1]?.kind !== TokenKind.Ident) return false;
  if (t.length === 3) return true;
  return t.length === 6 && isPunct(t[2], '(') && t[3]?.kind === TokenKind.Ident && isPunct(t[4], ')');
}

/** `if(…) {` … `}` (any AVAP opener followed by `{`): drop the brace, close with the block's closer. */
export function braceBodyConversion(block: Block, t: readonly Token[], brace: Token): BraceConversion | undefined {
  const before = t[t.indexOf(brace) - 1];
  if (t[t.length - 1] !== brace || !before || block.kind === 'function' || block.kind === 'brace') return undefined;
  const closer = closerOf(block.kind);
  return new BraceConversion(
    `Drop the braces: close with '${closer}'`,
    [{ start: before.end, end: brace.end, newText: '' }],
    closer,
    braceBranch(block.kind),
  );
}

/** `{` alone on the line after an AVAP opener: drop that line, and close with the opener's closer. */
export function allmanBraceConversion(src: string, under: Block, brace: Token): BraceConversion | undefined {
  if (under.kind === 'function' || under.kind === 'brace' || under.braceBody) return undefined;
  const closer = closerOf(under.kind);
  return new BraceConversion(
    `Drop the braces: close with '${closer}'`,
    [deleteLine(src, brace.start)],
    closer,
    braceBranch(under.kind),
  );
}
