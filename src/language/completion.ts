/** Completion: the catalogue's commands (with a snippet of their parameters) where a statement starts. */
import { completionEntries, type CompletionEntry } from './commandDocs';
import type { AvapDocument } from './document';
import type { Position } from './text';
import { completionSite } from './words';

export type CompletionKind = 'command' | 'function' | 'variable';

export interface CompletionItemSpec extends CompletionEntry {
  readonly kind: CompletionKind;
}

let commandItems: CompletionItemSpec[] | undefined;

export function completion(doc: AvapDocument, p: Position): CompletionItemSpec[] {
  const line = doc.lines.lineText(p.line).slice(0, p.character);
  if (completionSite(line) !== 'statement') return [];
  commandItems ??= completionEntries().map((entry) => ({ ...entry, kind: 'command' as const }));
  return commandItems;
}
