/**
 * Completion: where a statement starts (or after `x = `), the catalogue's
 * commands and the document's functions, each with a snippet of its
 * parameters; inside an argument or an expression, the variables assigned
 * before the cursor and the functions.
 */
import { completionEntries, type CompletionEntry } from './commandDocs';
import type { AvapDocument } from './document';
import type { Position } from './text';
import { completionSite } from './words';

export type CompletionKind = 'command' | 'function' | 'variable';

export interface CompletionItemSpec extends CompletionEntry {
  readonly kind: CompletionKind;
}

let commandItems: CompletionItemSpec[] | undefined;

function functionItems(doc: AvapDocument): CompletionItemSpec[] {
  return [...doc.symbols.functions.values()].map((fn) => ({
    kind: 'function' as const,
    label: fn.name,
    detail: `function ${fn.name}(${fn.params.map((p) => p.text).join(', ')})`,
    documentation: `User function, defined on line ${fn.line + 1}.`,
    snippet: `${fn.name}(${fn.params.map((p, i) => `\${${i + 1}:${p.text}}`).join(', ')})`,
    sortText: `0_${fn.name}`,
  }));
}

function variableItems(doc: AvapDocument, offset: number): CompletionItemSpec[] {
  const out: CompletionItemSpec[] = [];
  for (const [name, defs] of doc.symbols.definitions) {
    const first = defs[0];
    if (!first || first.start >= offset) continue;
    out.push({
      kind: 'variable',
      label: name,
      detail: `variable, assigned on line ${first.line + 1}`,
      documentation: `A word that names a variable stands for its value in a command's argument, quoted or not.`,
      snippet: name,
      sortText: `1_${name}`,
    });
  }
  return out;
}

export function completion(doc: AvapDocument, p: Position): CompletionItemSpec[] {
  const line = doc.lines.lineText(p.line).slice(0, p.character);
  if (completionSite(line) === 'statement') {
    commandItems ??= completionEntries().map((entry) => ({ ...entry, kind: 'command' as const }));
    return [...functionItems(doc), ...commandItems];
  }
  return [...variableItems(doc, doc.offsetAt(p)), ...functionItems(doc)];
}
