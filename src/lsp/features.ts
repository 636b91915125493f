/**
 * The language features over LSP: each request is one call into src/language
 * on the document's analysis for its version (kept while the version lasts),
 * its answer already in the protocol's shapes (0-based UTF-16 positions).
 */
import {
  CompletionItemKind,
  InsertTextFormat,
  MarkupKind,
  type CompletionItem,
  type Connection,
  type ServerCapabilities,
  type TextDocuments,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { AvapDocument, completion, hover, type CompletionKind } from '../language';
import type { ServerSettings } from './settings';

export const FEATURE_CAPABILITIES: ServerCapabilities = {
  hoverProvider: true,
  completionProvider: { triggerCharacters: [] },
};

export interface FeatureHost {
  readonly documents: TextDocuments<TextDocument>;
  settings(): ServerSettings;
  readonly guarded: <P, R>(
    what: string,
    fallback: R,
    handler: (params: P) => R | Promise<R>,
  ) => (params: P) => Promise<R>;
}

const COMPLETION_KIND: Record<CompletionKind, CompletionItemKind> = {
  command: CompletionItemKind.Function,
  function: CompletionItemKind.Method,
  variable: CompletionItemKind.Variable,
};

/** The analysis of each open document's current version. */
class Analyses {
  private readonly byUri = new Map<string, { version: number; doc: AvapDocument }>();

  constructor(private readonly documents: TextDocuments<TextDocument>) {
    documents.onDidClose((event) => this.byUri.delete(event.document.uri));
  }

  get(uri: string): AvapDocument | undefined {
    const doc = this.documents.get(uri);
    if (!doc) return undefined;
    const known = this.byUri.get(uri);
    if (known?.version === doc.version) return known.doc;
    const analysis = new AvapDocument(doc.getText());
    this.byUri.set(uri, { version: doc.version, doc: analysis });
    return analysis;
  }
}

export function registerFeatures(connection: Connection, host: FeatureHost): void {
  const analyses = new Analyses(host.documents);
  const { guarded } = host;

  connection.onHover(
    guarded('hover', null, (params) => {
      const doc = analyses.get(params.textDocument.uri);
      const found = doc && hover(doc, params.position);
      return found ? { contents: { kind: MarkupKind.Markdown, value: found.markdown }, range: found.range } : null;
    }),
  );

  connection.onCompletion(
    guarded('completion', [] as CompletionItem[], (params) => {
      const doc = analyses.get(params.textDocument.uri);
      if (!doc) return [];
      return completion(doc, params.position).map((entry): CompletionItem => ({
        label: entry.label,
        kind: COMPLETION_KIND[entry.kind],
        detail: entry.detail,
        documentation: { kind: MarkupKind.Markdown, value: entry.documentation },
        insertText: entry.snippet,
        insertTextFormat: InsertTextFormat.Snippet,
        sortText: entry.sortText,
      }));
    }),
  );
}
