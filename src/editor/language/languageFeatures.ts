/**
 * AVAP's language features in VS Code, registered in-process for `avap`
 * documents by the editor features bundle: hover, completion, signature help,
 * the outline, definition, references, highlights, rename, inlay hints,
 * semantic tokens, folding, format document and selection. Registering costs
 * nothing; the implementation (./providers.ts over src/language, the syntax
 * tree and the parser) is a lazy bundle of its own, loaded by the first
 * request, which waits for it once. Why in-process rather than through the
 * language server (`avap lsp --stdio`): measured in ARCHITECTURE.md.
 */
import * as vscode from 'vscode';
import { SEMANTIC_TOKEN_MODIFIERS, SEMANTIC_TOKEN_TYPES } from '../../language/legend';
import { AVAP_LANGUAGE_ID } from '../diagnostics/diagnosticsController';
import { LazyModule } from '../lazy/lazyModule';
import type * as Providers from './providers';
import type { LanguageFeatureOptions, LanguageProviders } from './providers';

const SEMANTIC_LEGEND = new vscode.SemanticTokensLegend([...SEMANTIC_TOKEN_TYPES], [...SEMANTIC_TOKEN_MODIFIERS]);

export interface LanguageFeatureHost extends LanguageFeatureOptions {
  /** Where a failed load of the implementation is reported (the output channel). */
  report(message: string): void;
}

export function registerLanguageFeatures(
  host: LanguageFeatureHost,
  load: () => Promise<typeof Providers> = () => import('./providers.js'),
): vscode.Disposable & { hintsChanged(): void } {
  const selector: vscode.DocumentSelector = { language: AVAP_LANGUAGE_ID };
  const providers = new LazyModule<LanguageProviders>(async () => (await load()).createLanguageProviders(host));
  /** The implementation's answer; undefined (no answer) when it cannot be loaded, which is reported. */
  const ask = async <T>(answer: (p: LanguageProviders) => T): Promise<T | undefined> => {
    let loaded: LanguageProviders;
    try {
      loaded = await providers.load();
    } catch (err) {
      host.report(`language features could not be loaded: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
    return answer(loaded);
  };
  const hintsChanged = new vscode.EventEmitter<void>();
  const L = vscode.languages;
  const disposable = vscode.Disposable.from(
    hintsChanged,
    {
      dispose: () => {
        providers.current?.dispose();
      },
    },
    L.registerHoverProvider(selector, { provideHover: (d, p) => ask((x) => x.hover(d, p)) }),
    L.registerCompletionItemProvider(selector, { provideCompletionItems: (d, p) => ask((x) => x.completion(d, p)) }),
    L.registerSignatureHelpProvider(
      selector,
      { provideSignatureHelp: (d, p) => ask((x) => x.signatureHelp(d, p)) },
      { triggerCharacters: ['(', ','], retriggerCharacters: [','] },
    ),
    L.registerDocumentSymbolProvider(
      selector,
      { provideDocumentSymbols: (d) => ask((x) => x.documentSymbols(d)) },
      { label: 'AVAP' },
    ),
    L.registerDefinitionProvider(selector, { provideDefinition: (d, p) => ask((x) => x.definition(d, p)) }),
    L.registerReferenceProvider(selector, {
      provideReferences: (d, p, context) => ask((x) => x.references(d, p, context.includeDeclaration)),
    }),
    L.registerDocumentHighlightProvider(selector, {
      provideDocumentHighlights: (d, p) => ask((x) => x.highlights(d, p)),
    }),
    L.registerRenameProvider(selector, {
      // A refusal is thrown with its reason, which VS Code shows where F2 was pressed.
      prepareRename: (d, p) => ask((x) => x.prepareRename(d, p)),
      provideRenameEdits: (d, p, newName) => ask((x) => x.rename(d, p, newName)),
    }),
    L.registerInlayHintsProvider(selector, {
      onDidChangeInlayHints: hintsChanged.event,
      provideInlayHints: (d, range) => ask((x) => x.inlayHints(d, range)),
    }),
    L.registerDocumentSemanticTokensProvider(
      selector,
      { provideDocumentSemanticTokens: (d) => ask((x) => x.semanticTokens(d)) },
      SEMANTIC_LEGEND,
    ),
    L.registerFoldingRangeProvider(selector, { provideFoldingRanges: (d) => ask((x) => x.foldingRanges(d)) }),
    L.registerDocumentFormattingEditProvider(selector, {
      provideDocumentFormattingEdits: (d) => ask((x) => x.format(d)),
    }),
    L.registerDocumentRangeFormattingEditProvider(selector, {
      provideDocumentRangeFormattingEdits: (d, range) => ask((x) => x.format(d, range)),
    }),
  );
  return Object.assign(disposable, { hintsChanged: () => hintsChanged.fire() });
}
