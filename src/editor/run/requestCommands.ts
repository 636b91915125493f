/**
 * AVAP: Edit Run Request… — opens the program's `NAME.avap.request.json` beside it, made from a template that
 * asks for each parameter the program reads when there is none yet (an untitled program gets an untitled one,
 * kept for the session). AVAP: Add Test Case from Last Run — the last run's request and response appended as a
 * case to `NAME.avap.test.json` (made when missing), shown at the new case. The file formats and the edits are
 * src/runs's; these commands only open and write.
 */
import * as vscode from 'vscode';
import type { RunResult } from '../../runtime/host';
import { appendCase, caseFromRun, caseName, requestTemplate } from '../../runs';
import type { OutputLog } from '../output/outputLog';
import { baseName, exists, openDocument, requestFileUri, testFileUri, textOf, toUri, type UriLike } from './files';
import { untitledRequests } from './requestSource';

export interface LastRun {
  /** The document that ran (undefined for a chat block). */
  program: vscode.Uri | undefined;
  fields: Record<string, unknown> | undefined;
  result: RunResult;
  source: string;
}

export async function editRequest(uri: UriLike | undefined): Promise<string | undefined> {
  if (uri === undefined) {
    void vscode.window.showInformationMessage(
      'AVAP: Edit Run Request… edits the request of an .avap file — open one first.',
    );
    return undefined;
  }
  const program = toUri(uri);
  const source = (await textOf(program)) ?? '';
  if (program.scheme === 'untitled') {
    const kept = untitledRequests.get(program.toString());
    const open = kept && openDocument(kept);
    const doc =
      open ?? (await vscode.workspace.openTextDocument({ language: 'json', content: requestTemplate(source) }));
    untitledRequests.set(program.toString(), doc.uri);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    return doc.uri.toString();
  }
  const file = requestFileUri(program);
  if (!(await exists(file)))
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(requestTemplate(source)));
  const doc = await vscode.workspace.openTextDocument(file);
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  return file.toString();
}

export async function addCaseFromLastRun(
  last: LastRun | undefined,
  name: string | undefined,
  output: OutputLog,
): Promise<{ testFile: string; name: string } | undefined> {
  if (!last) {
    void vscode.window.showInformationMessage(
      'AVAP: run the file first (AVAP: Run File); its request and response become the case.',
    );
    return undefined;
  }
  if (!last.program || last.program.scheme === 'untitled') {
    void vscode.window.showInformationMessage(
      'AVAP: a test case lives beside its program (NAME.avap.test.json) — save the program as a file, run it, then add the case.',
    );
    return undefined;
  }
  const testFile = testFileUri(last.program);
  const chosen =
    name ??
    (await vscode.window.showInputBox({
      title: 'AVAP: Add Test Case from Last Run',
      prompt: `The case's name in ${baseName(testFile)}`,
      value: caseName(last.fields, last.result),
      ignoreFocusOut: true,
    }));
  if (!chosen?.trim()) return undefined;
  const open = openDocument(testFile);
  const text = open ? open.getText() : await textOf(testFile);
  const added = appendCase(text, caseFromRun(chosen.trim(), last.fields, last.result));
  if (!added.ok) {
    void vscode.window.showErrorMessage(`AVAP: ${baseName(testFile)} was left as it is — ${added.error.message}`);
    return undefined;
  }
  if (open) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(testFile, new vscode.Range(0, 0, open.lineCount, 0), added.value.text);
    if (!(await vscode.workspace.applyEdit(edit)) || !(await open.save())) {
      void vscode.window.showErrorMessage(`AVAP: ${baseName(testFile)} could not be written.`);
      return undefined;
    }
  } else {
    await vscode.workspace.fs.writeFile(testFile, new TextEncoder().encode(added.value.text));
  }
  output.info(`run: added the case "${added.value.name}" to ${baseName(testFile)}`);
  const doc = await vscode.workspace.openTextDocument(testFile);
  const at = new vscode.Position(added.value.at.line, added.value.at.character);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(at, at), preview: false });
  return { testFile: testFile.toString(), name: added.value.name };
}
