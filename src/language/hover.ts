/** Hover: a command's signature, parameters and documentation from the catalogue. */
import { hoverMarkdown } from './commandDocs';
import type { AvapDocument } from './document';
import type { Position, Range } from './text';
import { wordAt } from './words';

export interface HoverResult {
  readonly markdown: string;
  readonly range: Range;
}

export function hover(doc: AvapDocument, p: Position): HoverResult | undefined {
  const word = wordAt(doc.lines, p);
  if (!word) return undefined;
  const markdown = hoverMarkdown(word.text);
  return markdown ? { markdown, range: word.range } : undefined;
}
