/** AVAP: Validate Document, AVAP: Show Output, AVAP: Reset Parser Circuit. */
import * as vscode from 'vscode';
import type { ParserPort } from '../../core';
import { isAvapDocument, type DiagnosticsController } from '../diagnostics/diagnosticsController';
import type { OutputLog } from '../output/outputLog';
import { COMMANDS } from '../commandIds';

export interface CoreCommandDeps {
  diagnostics: DiagnosticsController;
  parser: ParserPort;
  output: OutputLog;
}

export function registerCoreCommands({ diagnostics, parser, output }: CoreCommandDeps): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(COMMANDS.validateDocument.id, async (uri?: vscode.Uri) => {
      const doc = uri
        ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())
        : vscode.window.activeTextEditor?.document;
      if (!doc || !isAvapDocument(doc)) {
        void vscode.window.showInformationMessage('AVAP: open an .avap document to validate it.');
        return undefined;
      }
      const verdict = await diagnostics.validateNow(doc);
      return verdict?.state;
    }),
    vscode.commands.registerCommand(COMMANDS.showOutput.id, () => output.show()),
    vscode.commands.registerCommand(COMMANDS.resetParserCircuit.id, () => {
      parser.resetCircuit();
      output.info('circuit reset by the user');
      diagnostics.revalidateAll('circuit reset');
    }),
  );
}
