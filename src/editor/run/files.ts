/**
 * A program's files as the editor sees them: an open document's text (unsaved edits included) before the file
 * on disk, the test and request files beside a program, and the reader that resolves a file a case names
 * relative to the file that names it. Through vscode.workspace.fs, so remote workspaces work alike.
 */
import * as vscode from 'vscode';
import { fail, ok } from '../../result';
import type { ReadBeside } from '../../runs';
import { programOf, requestFileOf, testFileOf } from '../../runs/outline';

/** `vscode.Uri` or its string form (commands receive either). */
export type UriLike = vscode.Uri | string;

export function toUri(value: UriLike): vscode.Uri {
  return typeof value === 'string' ? vscode.Uri.parse(value) : value;
}

export function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
}

/** The text of a document as the developer sees it: the open editor's, else the file's; undefined when neither. */
export async function textOf(uri: vscode.Uri): Promise<string | undefined> {
  const open = openDocument(uri);
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

export async function exists(uri: vscode.Uri): Promise<boolean> {
  if (openDocument(uri)) return true;
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

export const testFileUri = (program: vscode.Uri) => program.with({ path: testFileOf(program.path) });
export const requestFileUri = (program: vscode.Uri) => program.with({ path: requestFileOf(program.path) });

export function programUri(file: vscode.Uri): vscode.Uri | undefined {
  const path = programOf(file.path);
  return path === undefined ? undefined : file.with({ path });
}

/** A file's name, for labels: `age-check.avap`. */
export function baseName(uri: vscode.Uri): string {
  return uri.path.split('/').pop() ?? uri.toString();
}

/** Reads the files a request or test file names, relative to it. */
export function readBeside(file: vscode.Uri): ReadBeside {
  const folder = vscode.Uri.joinPath(file, '..');
  return async (relative) => {
    const target = relative.startsWith('/') ? file.with({ path: relative }) : vscode.Uri.joinPath(folder, relative);
    const text = await textOf(target);
    return text === undefined ? fail('unreadable', `no file ${target.fsPath}`) : ok(text);
  };
}
