/**
 * A run that ended on an uncaught error leaves a diagnostic of its own source, `avap-runtime`, on the line that
 * failed — beside the parser's (`avap-parser`), never mixed with them: the parser says the code is well formed,
 * this says what it did. The next edit of the document clears it (it describes the text that ran), as does the
 * next run.
 */
import * as vscode from 'vscode';
import type { RunError } from '../../runtime/host';
import { errorText } from '../../runs';

const RUNTIME_SOURCE = 'avap-runtime';

export class RuntimeDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(RUNTIME_SOURCE);
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0 && this.collection.has(e.document.uri)) this.collection.delete(e.document.uri);
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => this.collection.delete(doc.uri)),
    ];
  }

  /** The run's uncaught error on its line, or nothing (a run that completed, a stop with no line). */
  set(doc: vscode.TextDocument, error: RunError | undefined): void {
    if (!error || error.line < 1 || error.line > doc.lineCount) {
      this.collection.delete(doc.uri);
      return;
    }
    const line = doc.lineAt(error.line - 1);
    const range = new vscode.Range(
      error.line - 1,
      line.firstNonWhitespaceCharacterIndex,
      error.line - 1,
      line.text.length,
    );
    const diagnostic = new vscode.Diagnostic(
      range,
      `${errorText(error)} (uncaught at run time)`,
      vscode.DiagnosticSeverity.Error,
    );
    diagnostic.source = RUNTIME_SOURCE;
    diagnostic.code = error.code;
    this.collection.set(doc.uri, [diagnostic]);
  }

  clear(uri: vscode.Uri): void {
    this.collection.delete(uri);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
  }
}
