/**
 * The language features over LSP: each request is one call into src/language
 * on the document's analysis for its version (kept while the version lasts),
 * its answer already in the protocol's shapes (0-based UTF-16 positions). A
 * refused rename answers an error with the reason, which clients show.
 */
import {
  CompletionItemKind,
  DocumentHighlightKind,
  InlayHintKind,
  InsertTextFormat,
  LSPErrorCodes,
  MarkupKind,
  ResponseError,
  SymbolKind,
  type CompletionItem,
  type Connection,
  type DocumentSymbol,
  type ServerCapabilities,
  type TextDocuments,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  AvapDocument,
  completion,
  definition,
  documentSymbols,
  foldingRanges,
  formatEdits,
  highlights,
  hover,
  inlayHints,
  prepareRename,
  references,
  rename,
  SEMANTIC_TOKEN_MODIFIERS,
  SEMANTIC_TOKEN_TYPES,
  semanticTokens,
  signatureHelp,
  type CompletionKind,
  type OutlineKind,
  type OutlineSymbol,
} from '../language';
import { avapDocument } from './documents';
import type { ServerSettings } from './settings';

export const FEATURE_CAPABILITIES: ServerCapabilities = {
  hoverProvider: true,
  completionProvider: { triggerCharacters: [] },
  signatureHelpProvider: { triggerCharacters: ['(', ','], retriggerCharacters: [','] },
  documentSymbolProvider: { label: 'AVAP' },
  definitionProvider: true,
  referencesProvider: true,
  documentHighlightProvider: true,
  renameProvider: { prepareProvider: true },
  inlayHintProvider: true,
  semanticTokensProvider: {
    legend: { tokenTypes: [...SEMANTIC_TOKEN_TYPES], tokenModifiers: [...SEMANTIC_TOKEN_MODIFIERS] },
    full: true,
  },
  foldingRangeProvider: true,
  documentFormattingProvider: true,
  documentRangeFormattingProvider: true,
};

export interface FeatureHost {
  readonly documents: TextDocuments<TextDocument>;
  settings(): ServerSettings;
  /** The client inserts snippets (`${1:name}`) from completion items. */
  snippets(): boolean;
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

const SYMBOL_KIND: Record<OutlineKind, SymbolKind> = {
  function: SymbolKind.Function,
  endpoint: SymbolKind.Event,
  block: SymbolKind.Namespace,
};

function toDocumentSymbol(s: OutlineSymbol): DocumentSymbol {
  return {
    name: s.name,
    detail: s.detail,
    kind: SYMBOL_KIND[s.kind],
    range: s.range,
    selectionRange: s.selectionRange,
    children: s.children.map(toDocumentSymbol),
  };
}

/** The analysis of each open document's current version. */
class Analyses {
  private readonly byUri = new Map<string, { version: number; doc: AvapDocument }>();

  constructor(private readonly documents: TextDocuments<TextDocument>) {
    documents.onDidClose((event) => this.byUri.delete(event.document.uri));
  }

  get(uri: string): AvapDocument | undefined {
    const doc = avapDocument(this.documents, uri);
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
  const docOf = (params: { textDocument: { uri: string } }) => analyses.get(params.textDocument.uri);

  connection.onHover(
    guarded('hover', null, (params) => {
      const doc = docOf(params);
      const found = doc && hover(doc, params.position);
      return found ? { contents: { kind: MarkupKind.Markdown, value: found.markdown }, range: found.range } : null;
    }),
  );

  connection.onCompletion(
    guarded('completion', [] as CompletionItem[], (params) => {
      const doc = docOf(params);
      if (!doc) return [];
      const snippets = host.snippets();
      return completion(doc, params.position).map((entry): CompletionItem => ({
        label: entry.label,
        kind: COMPLETION_KIND[entry.kind],
        detail: entry.detail,
        documentation: { kind: MarkupKind.Markdown, value: entry.documentation },
        insertText: snippets ? entry.snippet : entry.label,
        insertTextFormat: snippets ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
        sortText: entry.sortText,
      }));
    }),
  );

  connection.onSignatureHelp(
    guarded('signatureHelp', null, (params) => {
      const doc = docOf(params);
      const help = doc && signatureHelp(doc, params.position);
      if (!help) return null;
      return {
        signatures: help.signatures.map((s) => ({
          label: s.label,
          documentation: { kind: MarkupKind.Markdown, value: s.documentation },
          parameters: s.parameters.map((p) => ({
            label: [p.label[0], p.label[1]] as [number, number],
            documentation: { kind: MarkupKind.Markdown, value: p.documentation },
          })),
        })),
        activeSignature: help.activeSignature,
        activeParameter: help.activeParameter,
      };
    }),
  );

  connection.onDocumentSymbol(
    guarded('documentSymbol', [] as DocumentSymbol[], (params) => {
      const doc = docOf(params);
      return doc ? documentSymbols(doc).map(toDocumentSymbol) : [];
    }),
  );

  connection.onDefinition(
    guarded('definition', [], (params) => {
      const doc = docOf(params);
      return doc ? definition(doc, params.position).map((range) => ({ uri: params.textDocument.uri, range })) : [];
    }),
  );

  connection.onReferences(
    guarded('references', [], (params) => {
      const doc = docOf(params);
      return doc
        ? references(doc, params.position, params.context.includeDeclaration).map((range) => ({
            uri: params.textDocument.uri,
            range,
          }))
        : [];
    }),
  );

  connection.onDocumentHighlight(
    guarded('documentHighlight', [], (params) => {
      const doc = docOf(params);
      return doc
        ? highlights(doc, params.position).map((h) => ({
            range: h.range,
            kind: h.kind === 'write' ? DocumentHighlightKind.Write : DocumentHighlightKind.Read,
          }))
        : [];
    }),
  );

  connection.onPrepareRename(
    guarded('prepareRename', null, (params) => {
      const doc = docOf(params);
      if (!doc) return null;
      const target = prepareRename(doc, params.position);
      if (!target.ok) return new ResponseError(LSPErrorCodes.RequestFailed, target.error.message);
      return { range: target.value.range, placeholder: target.value.placeholder };
    }),
  );

  connection.onRenameRequest(
    guarded('rename', null, (params) => {
      const doc = docOf(params);
      if (!doc) return null;
      const edits = rename(doc, params.position, params.newName);
      if (!edits.ok) return new ResponseError(LSPErrorCodes.RequestFailed, edits.error.message);
      return { changes: { [params.textDocument.uri]: edits.value } };
    }),
  );

  connection.languages.inlayHint.on(
    guarded('inlayHint', [], (params) => {
      const doc = docOf(params);
      if (!doc) return [];
      return inlayHints(doc, params.range, { parameterNames: host.settings().inlayHints.parameterNames }).map((h) => ({
        position: h.position,
        label: h.label,
        kind: h.kind === 'parameter' ? InlayHintKind.Parameter : InlayHintKind.Type,
        tooltip: h.tooltip,
        ...(h.paddingLeft ? { paddingLeft: true } : {}),
        ...(h.paddingRight ? { paddingRight: true } : {}),
      }));
    }),
  );

  connection.languages.semanticTokens.on(
    guarded('semanticTokens', { data: [] as number[] }, (params) => {
      const doc = docOf(params);
      return { data: doc ? semanticTokens(doc) : [] };
    }),
  );

  connection.onFoldingRanges(
    guarded('foldingRange', [], (params) => {
      const doc = docOf(params);
      return doc ? foldingRanges(doc) : [];
    }),
  );

  connection.onDocumentFormatting(
    guarded('formatting', [], (params) => {
      const doc = docOf(params);
      return doc ? formatEdits(doc) : [];
    }),
  );

  connection.onDocumentRangeFormatting(
    guarded('rangeFormatting', [], (params) => {
      const doc = docOf(params);
      return doc ? formatEdits(doc, params.range) : [];
    }),
  );
}
