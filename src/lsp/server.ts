/**
 * The AVAP language server (`avap lsp --stdio`), on the official
 * `vscode-languageserver` library: the one editor-free implementation
 * (src/language) served over the Language Server Protocol to any editor —
 * Neovim, Helix, Zed, Emacs, VS Code. Diagnostics come from the parser library
 * in-process, with the rule codes and the parser's proven fixes as quick fixes.
 * Each request is answered from the document's analysis, computed once per
 * version. Nothing a handler does throws out of it: a failure answers "no
 * result" and is logged to the client.
 */
import {
  CodeActionKind,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { PARSER_VERSION } from '../parser';
import { codeActions, FIX_ALL_KIND } from './codeActions';
import { avapDocument } from './documents';
import { FEATURE_CAPABILITIES, registerFeatures } from './features';
import { readServerSettings, type ServerSettings } from './settings';
import { Verdicts } from './verdicts';

export interface ServerInfo {
  readonly name: string;
  readonly version: string;
}

/**
 * Wires the server to an LSP connection (which must then `listen()`); the
 * returned function stops its pending work (on `shutdown`).
 */
export function serveLanguage(connection: Connection, info: ServerInfo): () => void {
  const documents = new TextDocuments(TextDocument);
  let settings: ServerSettings = readServerSettings(undefined);
  let snippets = false;
  let canRefreshHints = false;

  const verdicts = new Verdicts({
    current: (uri) => {
      const doc = avapDocument(documents, uri);
      return doc ? { text: doc.getText(), version: doc.version } : undefined;
    },
    publish: (uri, version, diagnostics) => void connection.sendDiagnostics({ uri, version, diagnostics }),
  });

  /** Runs a handler; a failure is logged and answers `fallback`, never thrown into the connection. */
  function guarded<P, R>(what: string, fallback: R, handler: (params: P) => R | Promise<R>): (params: P) => Promise<R> {
    return async (params) => {
      try {
        return await handler(params);
      } catch (err) {
        connection.console.error(`${what} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        return fallback;
      }
    };
  }

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    settings = readServerSettings(
      (params.initializationOptions as { avap?: unknown } | undefined)?.avap ?? params.initializationOptions,
    );
    canRefreshHints = params.capabilities.workspace?.inlayHint?.refreshSupport === true;
    snippets = params.capabilities.textDocument?.completion?.completionItem?.snippetSupport === true;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
        ...FEATURE_CAPABILITIES,
      },
      serverInfo: { name: info.name, version: `${info.version} (parser ${PARSER_VERSION})` },
    };
  });

  connection.onDidChangeConfiguration((change) => {
    const section = (change.settings as { avap?: unknown } | null | undefined)?.avap;
    if (section !== undefined) settings = readServerSettings(section);
    // Asking the client to refresh is allowed only when it said it can be asked.
    if (canRefreshHints) connection.languages.inlayHint.refresh().catch(() => undefined);
  });

  documents.onDidOpen((event) => verdicts.schedule(event.document.uri));
  documents.onDidChangeContent((event) => verdicts.schedule(event.document.uri));
  documents.onDidClose((event) => {
    verdicts.forget(event.document.uri);
    void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
  });

  connection.onCodeAction(
    guarded('codeAction', [], async (params) => {
      const doc = avapDocument(documents, params.textDocument.uri);
      if (!doc) return [];
      return codeActions(params, doc.getText(), verdicts.get(doc.uri));
    }),
  );

  registerFeatures(connection, { documents, settings: () => settings, snippets: () => snippets, guarded });

  documents.listen(connection);
  return () => verdicts.dispose();
}
