/**
 * Quick fixes on parser diagnostics: apply the parser's proven fix (its text
 * edits, no model call) — or, from a service that sends no fixes, the
 * suggestion where the diagnostic's rule offers one — and "Regenerate with
 * Trace" (which recomputes its context when run). A diagnostic is matched to
 * its trace entry by rule code and range, never by its message.
 */
import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE, replacementFix } from '../../language/diagnostics';
import type { DiagnosticsController } from './diagnosticsController';
import { FIX_ALL_TITLE } from './fixAll';
import { COMMANDS } from '../commandIds';

function codeValue(diagnostic: vscode.Diagnostic): string | number | undefined {
  const code = diagnostic.code;
  return typeof code === 'object' ? code.value : code;
}

export class ParserQuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly diagnostics: DiagnosticsController) {}

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const ours = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    if (ours.length === 0) return [];
    const verdict = this.diagnostics.verdict(document.uri);
    // A verdict for another version of the text would put the edit in the wrong place.
    const specs = verdict?.version === document.version ? verdict.specs : [];
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of ours) {
      const code = codeValue(diagnostic);
      const spec = specs.find(
        (s) =>
          s.code === code &&
          s.line === diagnostic.range.start.line &&
          s.start === diagnostic.range.start.character &&
          s.end === diagnostic.range.end.character,
      );
      if (!spec) continue;
      const edit = new vscode.WorkspaceEdit();
      let title: string;
      if (spec.fix) {
        title = spec.fix.title;
        for (const e of spec.fix.edits)
          edit.replace(document.uri, new vscode.Range(e.line, e.character, e.endLine, e.endCharacter), e.newText);
      } else {
        const fix = replacementFix(spec, document.getText(diagnostic.range));
        if (!fix) continue;
        title = fix.title;
        edit.replace(document.uri, diagnostic.range, fix.replacement);
      }
      const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
      action.diagnostics = [diagnostic];
      action.isPreferred = true;
      action.edit = edit;
      actions.push(action);
    }
    // As ESLint does: with more than one proven fix in the document, all of them in one step.
    if (specs.filter((s) => s.fix && s.severity === 'error').length > 1) {
      const all = new vscode.CodeAction(`${FIX_ALL_TITLE} (AVAP)`, vscode.CodeActionKind.QuickFix);
      all.diagnostics = ours;
      all.command = { title: FIX_ALL_TITLE, command: COMMANDS.fixAll.id, arguments: [document.uri] };
      actions.push(all);
    }
    const regenerate = new vscode.CodeAction(
      'Regenerate with Trace (ask the model to fix this document)',
      vscode.CodeActionKind.QuickFix,
    );
    regenerate.diagnostics = ours;
    // Only the document: the command reads the current text and trace when it runs.
    regenerate.command = {
      title: 'Regenerate with Trace',
      command: COMMANDS.regenerateWithTrace.id,
      arguments: [document.uri],
    };
    actions.push(regenerate);
    return actions;
  }
}
