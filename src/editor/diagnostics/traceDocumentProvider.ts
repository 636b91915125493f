/** Serves the read-only `avap-trace:` documents that diagnostic codes link to. */
import * as vscode from 'vscode';
import type { DiagnosticsController } from './diagnosticsController';
import { renderTraceDocument, sourceUriFromTraceQuery, TRACE_SCHEME } from './traceDocument';
import { traceUriFor } from './diagnosticsController';

export class TraceDocumentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly diagnostics: DiagnosticsController) {
    this.subscription = diagnostics.onDidChange((uri) => this.changed.fire(traceUriFor(uri)));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const source = vscode.Uri.parse(sourceUriFromTraceQuery(uri.query));
    const label = vscode.workspace.asRelativePath(source, false);
    return renderTraceDocument(label, this.diagnostics.result(source));
  }

  static register(diagnostics: DiagnosticsController): vscode.Disposable {
    const provider = new TraceDocumentProvider(diagnostics);
    const registration = vscode.workspace.registerTextDocumentContentProvider(TRACE_SCHEME, provider);
    return vscode.Disposable.from(registration, provider);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
