/**
 * Which open documents the server serves: AVAP ones — the client says `avap`
 * as the language, or the file ends in `.avap`. An editor that can only attach
 * the server to a wider language (Zed's Plain Text, say) gets nothing for its
 * other files: no diagnostics, no answers.
 */
import type { TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';

function isAvap(doc: Pick<TextDocument, 'uri' | 'languageId'>): boolean {
  return doc.languageId.toLowerCase() === 'avap' || /\.avap$/i.test(doc.uri);
}

/** The open AVAP document at `uri`, if there is one. */
export function avapDocument(documents: TextDocuments<TextDocument>, uri: string): TextDocument | undefined {
  const doc = documents.get(uri);
  return doc && isAvap(doc) ? doc : undefined;
}
