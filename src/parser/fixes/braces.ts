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
