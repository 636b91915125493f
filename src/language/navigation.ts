/**
 * Go to definition, find references and document highlights for user
 * functions and variables (./symbols.ts decides what each name is). A
 * variable's definitions are all its assignments (the namespace is flat); a
 * word that is text where it stands (no variable of that name is set yet)
 * belongs to no variable, and the cursor on it finds nothing.
 */
import type { AvapDocument } from './document';
import type { Occurrence } from './symbols';
import type { Position, Range } from './text';

export interface HighlightSpec {
  readonly range: Range;
  readonly kind: 'read' | 'write';
}

/** The symbol under the cursor: a function, or a variable where the name stands for it. */
function symbolAt(doc: AvapDocument, p: Position): Occurrence | undefined {
  const o = doc.symbols.at(doc.offsetAt(p));
  return o && o.role !== 'text' ? o : undefined;
}

/** Every occurrence that is the same symbol as `o` (definitions, references, and words that are it on a loop's later passes). */
export function sameSymbol(doc: AvapDocument, o: Occurrence): Occurrence[] {
  return doc.symbols.occurrences.filter((x) => x.name === o.name && x.symbol === o.symbol && x.role !== 'text');
}

export function definition(doc: AvapDocument, p: Position): Range[] {
  const o = symbolAt(doc, p);
  if (!o) return [];
  if (o.symbol === 'function') {
    const fn = doc.symbols.functions.get(o.name);
    return fn ? [doc.rangeOf(fn.nameSpan)] : [];
  }
  return (doc.symbols.definitions.get(o.name) ?? []).map((d) => doc.rangeOf(d));
}

export function references(doc: AvapDocument, p: Position, includeDeclaration: boolean): Range[] {
  const o = symbolAt(doc, p);
  if (!o) return [];
  return sameSymbol(doc, o)
    .filter((x) => includeDeclaration || x.role !== 'definition')
    .map((x) => doc.rangeOf(x));
}

export function highlights(doc: AvapDocument, p: Position): HighlightSpec[] {
  const o = symbolAt(doc, p);
  if (!o) return [];
  return sameSymbol(doc, o).map((x) => ({
    range: doc.rangeOf(x),
    kind: x.role === 'definition' ? ('write' as const) : ('read' as const),
  }));
}
