/**
 * Quick fixes on parser diagnostics: apply the parser's suggestion (no model
 * call), and "Regenerate with Trace" (which recomputes its context when run).
 */
import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE } from './traceToDiagnostics';
import type { DiagnosticsController } from './diagnosticsController';

export const REGENERATE_COMMAND = 'avap.regenerateWithTrace';

export class ParserQuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly diagnostics: DiagnosticsController) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const ours = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    if (ours.length === 0) return [];
    const verdict = this.diagnostics.verdict(document.uri);
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of ours) {
      const spec = verdict?.specs.find((s) => s.suggestion !== undefined
        && s.line === diagnostic.range.start.line && s.start === diagnostic.range.start.character
        && s.end === diagnostic.range.end.character);
      if (!spec?.suggestion || verdict?.version !== document.version) continue;
      const current = document.getText(diagnostic.range);
      const action = new vscode.CodeAction(`Replace '${current}' with '${spec.suggestion}'`, vscode.CodeActionKind.QuickFix);
      action.diagnostics = [diagnostic];
      action.isPreferred = true;
      action.edit = new vscode.WorkspaceEdit();
      action.edit.replace(document.uri, diagnostic.range, spec.suggestion);
      actions.push(action);
    }
    const regenerate = new vscode.CodeAction('Regenerate with Trace (ask the model to fix this document)', vscode.CodeActionKind.QuickFix);
    regenerate.diagnostics = ours;
    // Only the document: the command reads the current text and trace when it runs.
    regenerate.command = { title: 'Regenerate with Trace', command: REGENERATE_COMMAND, arguments: [document.uri] };
    actions.push(regenerate);
    return actions;
  }
}
