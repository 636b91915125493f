/**
 * `▶ Run` and `Edit Request` on the first line of an `.avap` file (REST Client's "Send Request" above a
 * request): the cheapest way to run what is on screen. Previews of generated code (their own lenses: the
 * verdict, Accept) and the parser's trace documents get none.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../commandIds';

const RUNNABLE_SCHEMES = new Set(['file', 'untitled', 'vscode-remote', 'vscode-userdata']);

export class RunCodeLens implements vscode.CodeLensProvider, vscode.Disposable {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!RUNNABLE_SCHEMES.has(document.uri.scheme)) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(top, {
        title: '$(play) Run',
        tooltip: 'Run this file on the AVAP runtime with its request (AVAP: Run File)',
        command: COMMANDS.runFile.id,
        arguments: [{ uri: document.uri.toString() }],
      }),
      new vscode.CodeLens(top, {
        title: 'Edit Request',
        tooltip: 'The query, headers, body, fixtures and SQL seed a run sends (NAME.avap.request.json)',
        command: COMMANDS.editRunRequest.id,
        arguments: [{ uri: document.uri.toString() }],
      }),
    ];
  }

  dispose(): void {
    // Nothing held: the lenses are the same for every version of a document.
  }
}
