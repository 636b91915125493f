/**
 * The language analysis of each open AVAP document's current version
 * (src/language's AvapDocument: its line map, syntax tree and symbols), made
 * on the first request after an edit and shared by every feature until the
 * next one; dropped when the document closes.
 */
import * as vscode from 'vscode';
import { AvapDocument, type Range } from '../../language';

export class Analyses implements vscode.Disposable {
  private readonly byUri = new Map<string, { version: number; doc: AvapDocument }>();
  private readonly closing = vscode.workspace.onDidCloseTextDocument((d) => this.byUri.delete(d.uri.toString()));

  get(document: vscode.TextDocument): AvapDocument {
    const key = document.uri.toString();
    const known = this.byUri.get(key);
    if (known?.version === document.version) return known.doc;
    const doc = new AvapDocument(document.getText());
    this.byUri.set(key, { version: document.version, doc });
    return doc;
  }

  dispose(): void {
    this.closing.dispose();
    this.byUri.clear();
  }
}

export const toRange = (r: Range): vscode.Range =>
  new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);

export const fromPosition = (p: vscode.Position) => ({ line: p.line, character: p.character });
