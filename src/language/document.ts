/**
 * One version of an AVAP document and what is known about it, each computed
 * on first use and kept: the line map, the syntax tree (src/syntax), the names
 * it defines and uses (./symbols.ts). The editor adapter and the language
 * server keep one per open document version, so every request after the
 * first reads what is there.
 */
import { parseSyntax, parseSyntaxFrom, type SyntaxTree } from '../syntax';
import { SymbolIndex } from './symbols';
import { LineMap, type Position, type Range } from './text';

export class AvapDocument {
  private linesCache: LineMap | undefined;
  private treeCache: SyntaxTree | undefined;
  private indexCache: SymbolIndex | undefined;

  /**
   * `variantOf`: a document this text is a variant of, looked at once beside it (a rename's result): its tree
   * reuses that document's lines and stays out of the syntax tree cache.
   */
  constructor(
    readonly text: string,
    private readonly options: { readonly variantOf?: AvapDocument } = {},
  ) {}

  /** The line map; its line starts are the syntax tree's (counted the same way), not counted again. */
  get lines(): LineMap {
    return (this.linesCache ??= new LineMap(this.text, this.tree.lineStarts));
  }

  get tree(): SyntaxTree {
    const basis = this.options.variantOf;
    return (this.treeCache ??= basis ? parseSyntaxFrom(basis.tree, this.text) : parseSyntax(this.text));
  }

  get symbols(): SymbolIndex {
    return (this.indexCache ??= new SymbolIndex(this.tree));
  }

  offsetAt(p: Position): number {
    return this.lines.offsetAt(p);
  }

  rangeOf(span: { readonly start: number; readonly end: number }): Range {
    return this.lines.rangeOf(span.start, span.end);
  }
}
