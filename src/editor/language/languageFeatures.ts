/**
 * AVAP's language features in VS Code, registered in-process for `avap`
 * documents: thin adapters over the one editor-free implementation
 * (src/language) that the language server (`avap lsp --stdio`) serves to
 * other editors. Why in-process rather than through the server: measured in
 * ARCHITECTURE.md ("The language features: in-process or over LSP").
 */
import * as vscode from 'vscode';
import {
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
  type TextEdit,
} from '../../language';
import { AVAP_LANGUAGE_ID } from '../diagnostics/diagnosticsController';
import { Analyses, fromPosition, toRange } from './analyses';

export interface LanguageFeatureOptions {
  /** `avap.inlayHints.parameterNames` as it is now. */
  parameterNames(): boolean;
}

const COMPLETION_KIND: Record<CompletionKind, vscode.CompletionItemKind> = {
  command: vscode.CompletionItemKind.Function,
  function: vscode.CompletionItemKind.Method,
  variable: vscode.CompletionItemKind.Variable,
};

const SYMBOL_KIND: Record<OutlineKind, vscode.SymbolKind> = {
  function: vscode.SymbolKind.Function,
  endpoint: vscode.SymbolKind.Event,
  block: vscode.SymbolKind.Namespace,
};

export const SEMANTIC_LEGEND = new vscode.SemanticTokensLegend(
  [...SEMANTIC_TOKEN_TYPES],
  [...SEMANTIC_TOKEN_MODIFIERS],
);

function toSymbol(s: OutlineSymbol): vscode.DocumentSymbol {
  const symbol = new vscode.DocumentSymbol(
    s.name,
    s.detail,
    SYMBOL_KIND[s.kind],
    toRange(s.range),
    toRange(s.selectionRange),
  );
  symbol.children = s.children.map(toSymbol);
  return symbol;
}

const toEdits = (edits: readonly TextEdit[]) => edits.map((e) => vscode.TextEdit.replace(toRange(e.range), e.newText));

export function registerLanguageFeatures(
  options: LanguageFeatureOptions,
): vscode.Disposable & { hintsChanged(): void } {
  const selector: vscode.DocumentSelector = { language: AVAP_LANGUAGE_ID };
  const analyses = new Analyses();
  const hintsChanged = new vscode.EventEmitter<void>();
  const L = vscode.languages;
  const disposable = vscode.Disposable.from(
    analyses,
    hintsChanged,
    L.registerHoverProvider(selector, {
      provideHover(document, position) {
        const found = hover(analyses.get(document), fromPosition(position));
        return found ? new vscode.Hover(new vscode.MarkdownString(found.markdown), toRange(found.range)) : undefined;
      },
    }),
    L.registerCompletionItemProvider(selector, {
      provideCompletionItems(document, position) {
        return completion(analyses.get(document), fromPosition(position)).map((entry) => {
          const item = new vscode.CompletionItem(entry.label, COMPLETION_KIND[entry.kind]);
          item.detail = entry.detail;
          item.documentation = new vscode.MarkdownString(entry.documentation);
          item.insertText = new vscode.SnippetString(entry.snippet);
          item.sortText = entry.sortText;
          return item;
        });
      },
    }),
    L.registerSignatureHelpProvider(
      selector,
      {
        provideSignatureHelp(document, position) {
          const help = signatureHelp(analyses.get(document), fromPosition(position));
          if (!help) return undefined;
          const result = new vscode.SignatureHelp();
          result.signatures = help.signatures.map((s) => {
            const info = new vscode.SignatureInformation(s.label, new vscode.MarkdownString(s.documentation));
            info.parameters = s.parameters.map(
              (p) =>
                new vscode.ParameterInformation([p.label[0], p.label[1]], new vscode.MarkdownString(p.documentation)),
            );
            return info;
          });
          result.activeSignature = help.activeSignature;
          result.activeParameter = help.activeParameter;
          return result;
        },
      },
      { triggerCharacters: ['(', ','], retriggerCharacters: [','] },
    ),
    L.registerDocumentSymbolProvider(
      selector,
      { provideDocumentSymbols: (document) => documentSymbols(analyses.get(document)).map(toSymbol) },
      { label: 'AVAP' },
    ),
    L.registerDefinitionProvider(selector, {
      provideDefinition: (document, position) =>
        definition(analyses.get(document), fromPosition(position)).map(
          (r) => new vscode.Location(document.uri, toRange(r)),
        ),
    }),
    L.registerReferenceProvider(selector, {
      provideReferences: (document, position, context) =>
        references(analyses.get(document), fromPosition(position), context.includeDeclaration).map(
          (r) => new vscode.Location(document.uri, toRange(r)),
        ),
    }),
    L.registerDocumentHighlightProvider(selector, {
      provideDocumentHighlights: (document, position) =>
        highlights(analyses.get(document), fromPosition(position)).map(
          (h) =>
            new vscode.DocumentHighlight(
              toRange(h.range),
              h.kind === 'write' ? vscode.DocumentHighlightKind.Write : vscode.DocumentHighlightKind.Read,
            ),
        ),
    }),
    L.registerRenameProvider(selector, {
      prepareRename(document, position) {
        const target = prepareRename(analyses.get(document), fromPosition(position));
        // VS Code shows a thrown error's message where F2 was pressed.
        if (!target.ok) throw new Error(target.error.message);
        return { range: toRange(target.value.range), placeholder: target.value.placeholder };
      },
      provideRenameEdits(document, position, newName) {
        const edits = rename(analyses.get(document), fromPosition(position), newName);
        if (!edits.ok) throw new Error(edits.error.message);
        const edit = new vscode.WorkspaceEdit();
        for (const e of edits.value) edit.replace(document.uri, toRange(e.range), e.newText);
        return edit;
      },
    }),
    L.registerInlayHintsProvider(selector, {
      onDidChangeInlayHints: hintsChanged.event,
      provideInlayHints(document, range) {
        return inlayHints(
          analyses.get(document),
          { start: fromPosition(range.start), end: fromPosition(range.end) },
          { parameterNames: options.parameterNames() },
        ).map((h) => {
          const hint = new vscode.InlayHint(
            new vscode.Position(h.position.line, h.position.character),
            h.label,
            h.kind === 'parameter' ? vscode.InlayHintKind.Parameter : vscode.InlayHintKind.Type,
          );
          hint.tooltip = h.tooltip;
          hint.paddingLeft = h.paddingLeft === true;
          hint.paddingRight = h.paddingRight === true;
          return hint;
        });
      },
    }),
    L.registerDocumentSemanticTokensProvider(
      selector,
      {
        provideDocumentSemanticTokens: (document) =>
          new vscode.SemanticTokens(Uint32Array.from(semanticTokens(analyses.get(document)))),
      },
      SEMANTIC_LEGEND,
    ),
    L.registerFoldingRangeProvider(selector, {
      provideFoldingRanges: (document) =>
        foldingRanges(analyses.get(document)).map(
          (f) =>
            new vscode.FoldingRange(
              f.startLine,
              f.endLine,
              f.kind === 'comment' ? vscode.FoldingRangeKind.Comment : undefined,
            ),
        ),
    }),
    L.registerDocumentFormattingEditProvider(selector, {
      provideDocumentFormattingEdits: (document) => toEdits(formatEdits(analyses.get(document))),
    }),
    L.registerDocumentRangeFormattingEditProvider(selector, {
      provideDocumentRangeFormattingEdits: (document, range) =>
        toEdits(
          formatEdits(analyses.get(document), { start: fromPosition(range.start), end: fromPosition(range.end) }),
        ),
    }),
  );
  return Object.assign(disposable, { hintsChanged: () => hintsChanged.fire() });
}
