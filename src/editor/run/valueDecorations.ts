/**
 * Values in the code (Quokka's live values): after a run, each line that assigned shows what it assigned at its
 * end — short, in the theme's inlay-hint colours, the whole value in a hover. An edit of the document clears
 * them (they describe the text that ran); `avap.run.showValues` turns them off. A hover at a line's end (over
 * its values) shows them whole. The values come from the run's
 * step trace through src/runs/lineValues.ts.
 */
import * as vscode from 'vscode';
import type { LineValue } from '../../runs';

export class ValueDecorations implements vscode.HoverProvider, vscode.Disposable {
  private readonly type = vscode.window.createTextEditorDecorationType({
    after: {
      margin: '0 0 0 2em',
      color: new vscode.ThemeColor('editorInlayHint.foreground'),
      backgroundColor: new vscode.ThemeColor('editorInlayHint.background'),
      fontStyle: 'italic',
    },
    rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
  });
  /** The values shown, by document, with the version they describe. */
  private readonly shown = new Map<string, { version: number; values: LineValue[] }>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.clear(e.document.uri);
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => this.shown.delete(doc.uri.toString())),
      vscode.window.onDidChangeVisibleTextEditors(() => this.paintAll()),
    ];
  }

  /** Shows a run's values on its document (as it was when it ran). */
  show(doc: vscode.TextDocument, values: LineValue[]): void {
    this.shown.set(doc.uri.toString(), { version: doc.version, values });
    this.paintAll();
  }

  clear(uri: vscode.Uri): void {
    if (!this.shown.delete(uri.toString())) return;
    for (const editor of vscode.window.visibleTextEditors)
      if (editor.document.uri.toString() === uri.toString()) editor.setDecorations(this.type, []);
  }

  clearAll(): void {
    this.shown.clear();
    for (const editor of vscode.window.visibleTextEditors) editor.setDecorations(this.type, []);
  }

  /** The lines (1-based) that show values in a document now. */
  lines(uri: vscode.Uri): number[] {
    return (this.shown.get(uri.toString())?.values ?? []).map((v) => v.line);
  }

  private paintAll(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const entry = this.shown.get(editor.document.uri.toString());
      if (!entry) continue;
      if (entry.version !== editor.document.version) {
        this.clear(editor.document.uri);
        continue;
      }
      editor.setDecorations(this.type, this.options(editor.document, entry.values));
    }
  }

  private options(doc: vscode.TextDocument, values: LineValue[]): vscode.DecorationOptions[] {
    return values
      .filter((v) => v.line >= 1 && v.line <= doc.lineCount)
      .map((v) => {
        const line = doc.lineAt(v.line - 1);
        return {
          range: new vscode.Range(line.range.end, line.range.end),
          renderOptions: { after: { contentText: v.text } },
        };
      });
  }

  /** The whole values of a line, for a hover at its end (where they are shown), while they still describe it. */
  provideHover(doc: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const entry = this.shown.get(doc.uri.toString());
    if (!entry || entry.version !== doc.version) return undefined;
    const value = entry.values.find((v) => v.line === position.line + 1);
    const text = doc.lineAt(position.line).text;
    if (!value || position.character < text.trimEnd().length) return undefined;
    const hover = new vscode.MarkdownString();
    hover.appendCodeblock(value.detail, 'text');
    return new vscode.Hover(hover, new vscode.Range(position.line, text.length, position.line, text.length));
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.type.dispose();
  }
}
