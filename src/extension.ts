/** Entry point: everything lives in src/editor; this file only hands over. */
import type * as vscode from 'vscode';
import { type AvapExtensionApi, activateAvap, deactivateAvap } from './editor';

export function activate(context: vscode.ExtensionContext): Promise<AvapExtensionApi | undefined> {
  return activateAvap(context);
}

export function deactivate(): Promise<void> {
  return deactivateAvap();
}
