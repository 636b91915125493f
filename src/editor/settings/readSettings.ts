/** Reads the `avap.*` settings from the editor's configuration. */
import * as vscode from 'vscode';
import { readEditorSettings, type SettingsRead } from './editorSettings';

export function readSettings(): SettingsRead {
  const config = vscode.workspace.getConfiguration('avap');
  return readEditorSettings((key) => config.get(key));
}
