/**
 * One version of an AVAP document and what is known about it, each computed
 * on first use and kept: the line map, the syntax tree (src/syntax), the names
 * it defines and uses (./symbols.ts). The editor adapter and the language
 * server keep one per open document version, so every request after the
 * first reads what is there.
 */
import { parseSyntax, type SyntaxTree } from '../syntax';
import { SymbolIndex } from './symbols';
import { LineMap, type Position, type Range } from './text';

export class AvapDocument {
  readonly lines: LineMap;
  private treeCache: SyntaxTree | undefined;
  private indexCache: SymbolIndex | undefined;

  constructor(readonly text: string) {
    this.lines = new LineMap(text);
  }

  get tree(): SyntaxTree {
    return (this.treeCache ??= parseSyntax(this.text));
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
