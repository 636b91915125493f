/** Hover and completion for AVAP commands, from the parser's catalogue. */
import * as vscode from 'vscode';
import { AVAP_LANGUAGE_ID } from '../diagnostics/diagnosticsController';
import { completionEntries, hoverMarkdown } from '../../language';

export function registerLanguageFeatures(): vscode.Disposable {
  const selector: vscode.DocumentSelector = { language: AVAP_LANGUAGE_ID };
  const hover = vscode.languages.registerHoverProvider(selector, {
    provideHover(document, position) {
      const range = document.getWordRangeAtPosition(position, /[A-Za-z_][A-Za-z0-9_]*/);
      if (!range) return undefined;
      const text = hoverMarkdown(document.getText(range));
      return text ? new vscode.Hover(new vscode.MarkdownString(text), range) : undefined;
    },
  });
  // Built on the first completion request, not at activation.
  let entries: ReturnType<typeof completionEntries> | undefined;
  const completion = vscode.languages.registerCompletionItemProvider(selector, {
    provideCompletionItems(document, position) {
      const before = document.lineAt(position.line).text.slice(0, position.character);
      // Commands start a statement or follow `x = `; not inside an argument list.
      if (!/^\s*(?:[A-Za-z_$][A-Za-z0-9_]*\s*=\s*)?[A-Za-z_]*$/.test(before)) return undefined;
      entries ??= completionEntries();
      return entries.map((entry) => {
        const item = new vscode.CompletionItem(entry.label, vscode.CompletionItemKind.Function);
        item.detail = entry.detail;
        item.documentation = new vscode.MarkdownString(entry.documentation);
        item.insertText = new vscode.SnippetString(entry.snippet);
        item.sortText = entry.sortText;
        return item;
      });
    },
  });
  return vscode.Disposable.from(hover, completion);
}
