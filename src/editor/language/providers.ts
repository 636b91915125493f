/**
 * The language features' implementation in VS Code — a lazy bundle
 * (dist/language-features.js), loaded by the first request of an `avap`
 * document (./languageFeatures.ts registers the providers): thin conversions
 * between the editor's types and the one editor-free implementation
 * (src/language) that the language server (`avap lsp --stdio`) serves to other
 * editors.
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
  semanticTokens,
  signatureHelp,
  type CompletionKind,
  type OutlineKind,
  type OutlineSymbol,
  type TextEdit,
} from '../../language';
import { Analyses, fromPosition, toRange } from './analyses';

export interface LanguageFeatureOptions {
  /** `avap.inlayHints.parameterNames` as it is now. */
  parameterNames(): boolean;
}

type Pos = vscode.Position;
type Doc = vscode.TextDocument;

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

/** What each provider answers, for the editor features' registrations to call once this bundle is loaded. */
export interface LanguageProviders extends vscode.Disposable {
  hover(d: Doc, p: Pos): vscode.Hover | undefined;
  completion(d: Doc, p: Pos): vscode.CompletionItem[];
  signatureHelp(d: Doc, p: Pos): vscode.SignatureHelp | undefined;
  documentSymbols(d: Doc): vscode.DocumentSymbol[];
  definition(d: Doc, p: Pos): vscode.Location[];
  references(d: Doc, p: Pos, includeDeclaration: boolean): vscode.Location[];
  highlights(d: Doc, p: Pos): vscode.DocumentHighlight[];
  prepareRename(d: Doc, p: Pos): { range: vscode.Range; placeholder: string };
  rename(d: Doc, p: Pos, newName: string): vscode.WorkspaceEdit;
  inlayHints(d: Doc, range: vscode.Range): vscode.InlayHint[];
  semanticTokens(d: Doc): vscode.SemanticTokens;
  foldingRanges(d: Doc): vscode.FoldingRange[];
  format(d: Doc, range?: vscode.Range): vscode.TextEdit[];
}

export function createLanguageProviders(options: LanguageFeatureOptions): LanguageProviders {
  const analyses = new Analyses();
  return {
    dispose: () => analyses.dispose(),
    hover(document, position) {
      const found = hover(analyses.get(document), fromPosition(position));
      return found ? new vscode.Hover(new vscode.MarkdownString(found.markdown), toRange(found.range)) : undefined;
    },
    completion(document, position) {
      return completion(analyses.get(document), fromPosition(position)).map((entry) => {
        const item = new vscode.CompletionItem(entry.label, COMPLETION_KIND[entry.kind]);
        item.detail = entry.detail;
        item.documentation = new vscode.MarkdownString(entry.documentation);
        item.insertText = new vscode.SnippetString(entry.snippet);
        item.sortText = entry.sortText;
        return item;
      });
    },
    signatureHelp(document, position) {
      const help = signatureHelp(analyses.get(document), fromPosition(position));
      if (!help) return undefined;
      const result = new vscode.SignatureHelp();
      result.signatures = help.signatures.map((s) => {
        const info = new vscode.SignatureInformation(s.label, new vscode.MarkdownString(s.documentation));
        info.parameters = s.parameters.map(
          (p) => new vscode.ParameterInformation([p.label[0], p.label[1]], new vscode.MarkdownString(p.documentation)),
        );
        return info;
      });
      result.activeSignature = help.activeSignature;
      result.activeParameter = help.activeParameter;
      return result;
    },
    documentSymbols: (document) => documentSymbols(analyses.get(document)).map(toSymbol),
    definition: (document, position) =>
      definition(analyses.get(document), fromPosition(position)).map(
        (r) => new vscode.Location(document.uri, toRange(r)),
      ),
    references: (document, position, includeDeclaration) =>
      references(analyses.get(document), fromPosition(position), includeDeclaration).map(
        (r) => new vscode.Location(document.uri, toRange(r)),
      ),
    highlights: (document, position) =>
      highlights(analyses.get(document), fromPosition(position)).map(
        (h) =>
          new vscode.DocumentHighlight(
            toRange(h.range),
            h.kind === 'write' ? vscode.DocumentHighlightKind.Write : vscode.DocumentHighlightKind.Read,
          ),
      ),
    prepareRename(document, position) {
      const target = prepareRename(analyses.get(document), fromPosition(position));
      // VS Code shows a thrown error's message where F2 was pressed.
      if (!target.ok) throw new Error(target.error.message);
      return { range: toRange(target.value.range), placeholder: target.value.placeholder };
    },
    rename(document, position, newName) {
      const edits = rename(analyses.get(document), fromPosition(position), newName);
      if (!edits.ok) throw new Error(edits.error.message);
      const edit = new vscode.WorkspaceEdit();
      for (const e of edits.value) edit.replace(document.uri, toRange(e.range), e.newText);
      return edit;
    },
    inlayHints(document, range) {
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
    semanticTokens: (document) => new vscode.SemanticTokens(Uint32Array.from(semanticTokens(analyses.get(document)))),
    foldingRanges: (document) =>
      foldingRanges(analyses.get(document)).map(
        (f) =>
          new vscode.FoldingRange(
            f.startLine,
            f.endLine,
            f.kind === 'comment' ? vscode.FoldingRangeKind.Comment : undefined,
          ),
      ),
    format: (document, range) =>
      toEdits(
        formatEdits(
          analyses.get(document),
          range ? { start: fromPosition(range.start), end: fromPosition(range.end) } : undefined,
        ),
      ),
  };
}
