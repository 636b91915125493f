/**
 * AVAP: Fix All Auto-fixable Problems and the `source.fixAll.avap` code action
 * (so `"editor.codeActionsOnSave": { "source.fixAll.avap": "explicit" }` works,
 * as with ESLint). A thin adapter: the fixes are computed editor-free by the
 * parser library's fixAll (every proven fix of the trace applied at once,
 * re-validated, as one edit); here the text goes to the parser service and the
 * one edit comes back into the document. Per-diagnostic quick fixes stay
 * (./quickFixes.ts). Part of the editor features bundle: it needs only the parser.
 */
import * as vscode from 'vscode';
import type { ParserPort } from '../../core';
import { fixAll, type FixAllResult } from '../../parser';
import { isAvapDocument, type DiagnosticsController } from './diagnosticsController';
import type { DocumentValidation } from '../status/statusLook';
import { COMMANDS } from '../commandIds';

const FIX_ALL_KIND = vscode.CodeActionKind.SourceFixAll.append('avap');
export const FIX_ALL_TITLE = 'Fix All Auto-fixable Problems';

/** What AVAP: Fix All Auto-fixable Problems did (the command resolves with it). */
export interface FixAllOutcome {
  /** Fixes applied, each with its rule code and the line of its finding. */
  applied: { line: number; code: string; title: string }[];
  /** Why the repair stopped: 'valid', 'no-fixes', 'no-progress', 'rounds', 'unavailable' — or 'changed' when the document moved on meanwhile. */
  stop: FixAllResult['stop'] | 'changed';
  /** The document's state after the edit, re-validated. */
  state?: DocumentValidation;
}

/** The fixes of `doc`'s current text as one workspace edit (undefined when there is nothing to fix). */
async function computeFixAll(
  parser: ParserPort,
  diagnostics: DiagnosticsController,
  doc: vscode.TextDocument,
  signal?: AbortSignal,
): Promise<{ result: FixAllResult; edit?: vscode.WorkspaceEdit }> {
  const text = doc.getText();
  const name = doc.uri.path.split('/').pop() ?? 'document.avap';
  // The verdict the diagnostics hold for this very text spares the first parser call (it matters on save).
  const verdict = diagnostics.verdict(doc.uri);
  const initial =
    verdict?.version === doc.version && verdict.outcome.kind === 'validated' ? verdict.outcome.result : undefined;
  const result = await fixAll(
    text,
    async (source) => {
      const outcome = await parser.validate(source, name, signal);
      return outcome.kind === 'validated' ? outcome.result : undefined;
    },
    initial ? { initial } : {},
  );
  if (!result.edit) return { result };
  const edit = new vscode.WorkspaceEdit();
  edit.replace(
    doc.uri,
    new vscode.Range(doc.positionAt(result.edit.start), doc.positionAt(result.edit.end)),
    result.edit.newText,
  );
  return { result, edit };
}

function summary(applied: FixAllOutcome['applied']): string {
  return `${applied.length} fix${applied.length === 1 ? '' : 'es'}`;
}

/** The source.fixAll.avap action: computed at once when asked for that kind (on save), otherwise when resolved. */
class FixAllCodeActions implements vscode.CodeActionProvider<FixAllAction> {
  constructor(
    private readonly parser: ParserPort,
    private readonly diagnostics: DiagnosticsController,
  ) {}

  async provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
    token: vscode.CancellationToken,
  ): Promise<FixAllAction[]> {
    if (!isAvapDocument(document)) return [];
    const asked = context.only !== undefined && FIX_ALL_KIND.intersects(context.only);
    const verdict = this.diagnostics.verdict(document.uri);
    const fixable =
      verdict?.version === document.version ? verdict.specs.some((s) => s.fix && s.severity === 'error') : undefined;
    // Offered in the Source Action menu only when there is something to fix; on save (asked for the kind) always checked afresh.
    if (!asked && !fixable) return [];
    const action = new FixAllAction(document);
    if (asked) {
      const controller = new AbortController();
      const cancel = token.onCancellationRequested(() => controller.abort());
      try {
        const { result, edit } = await computeFixAll(this.parser, this.diagnostics, document, controller.signal);
        if (!edit || token.isCancellationRequested) return [];
        action.edit = edit;
        action.title = `${FIX_ALL_TITLE} (${summary(result.applied)})`;
      } finally {
        cancel.dispose();
      }
    }
    return [action];
  }

  async resolveCodeAction(action: FixAllAction, token: vscode.CancellationToken): Promise<FixAllAction> {
    if (action.edit) return action;
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    try {
      const { edit } = await computeFixAll(this.parser, this.diagnostics, action.document, controller.signal);
      if (edit && action.document.version === action.version) action.edit = edit;
    } finally {
      cancel.dispose();
    }
    return action;
  }
}

class FixAllAction extends vscode.CodeAction {
  readonly version: number;
  constructor(readonly document: vscode.TextDocument) {
    super(FIX_ALL_TITLE, FIX_ALL_KIND);
    this.version = document.version;
  }
}

export function registerFixAll(parser: ParserPort, diagnostics: DiagnosticsController): vscode.Disposable {
  async function run(uri?: vscode.Uri): Promise<FixAllOutcome | undefined> {
    const doc =
      uri instanceof vscode.Uri
        ? (vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) ??
          (await vscode.workspace.openTextDocument(uri)))
        : vscode.window.activeTextEditor?.document;
    if (!doc || !isAvapDocument(doc)) {
      void vscode.window.showInformationMessage('AVAP: open an .avap document to fix it.');
      return undefined;
    }
    const version = doc.version;
    const { result, edit } = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'AVAP: fixing auto-fixable problems' },
      () => computeFixAll(parser, diagnostics, doc),
    );
    if (result.stop === 'unavailable' && !edit) {
      void vscode.window.showWarningMessage(
        'AVAP: nothing was fixed — the parser is unavailable, so no fix can be proven.',
      );
      return { applied: [], stop: 'unavailable' };
    }
    if (!edit) {
      const state = (await diagnostics.validateNow(doc))?.state;
      void vscode.window.showInformationMessage(
        result.result?.valid
          ? 'AVAP: no problems to fix.'
          : 'AVAP: no auto-fixable problems — the remaining ones need a rewrite (try Regenerate with Trace).',
      );
      return { applied: [], stop: result.stop, ...(state ? { state } : {}) };
    }
    if (doc.version !== version || !(await vscode.workspace.applyEdit(edit))) {
      void vscode.window.showWarningMessage(
        'AVAP: the document changed while the fixes were computed; nothing was applied.',
      );
      return { applied: [], stop: 'changed' };
    }
    const state = (await diagnostics.validateNow(doc))?.state;
    const left = state?.kind === 'invalid' ? ` — ${state.errors} error${state.errors === 1 ? '' : 's'} left` : '';
    void vscode.window.setStatusBarMessage(`AVAP: applied ${summary(result.applied)}${left}`, 5000);
    return { applied: result.applied, stop: result.stop, ...(state ? { state } : {}) };
  }

  return vscode.Disposable.from(
    vscode.commands.registerCommand(COMMANDS.fixAll.id, run),
    vscode.languages.registerCodeActionsProvider({ language: 'avap' }, new FixAllCodeActions(parser, diagnostics), {
      providedCodeActionKinds: [FIX_ALL_KIND],
    }),
  );
}
