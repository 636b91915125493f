/** Small helpers over the real VS Code API for the e2e tests. */
import * as assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import type { AvapExtensionApi } from '../../../src/editor';
import { e2eConfig } from './config';
import { chatView } from './webviews';

export const EXTENSION_ID = 'avap-tools.avap-assistant';

export async function avapApi(): Promise<AvapExtensionApi> {
  const extension = vscode.extensions.getExtension<AvapExtensionApi | undefined>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not loaded`);
  const api = extension.isActive ? extension.exports : await extension.activate();
  assert.ok(api, 'the extension failed to activate (see the AVAP Assistant output)');
  await api.ready();
  return api;
}

/** A file the extension writes: its path is known once the editor features have started, which avapApi() waits for. */
export function extensionFile(api: AvapExtensionApi, which: keyof AvapExtensionApi['files']): string {
  const file = api.files[which]();
  assert.ok(file, `the extension names its ${which} file once its editor features have started`);
  return file;
}

/**
 * The chat view, once the extension is active: its DOM read, clicks and keys in it, by the runner from outside the
 * extension host (support/webviews.ts) — the extension has no test hooks.
 */
export async function chatHooks(): Promise<ReturnType<typeof chatView>> {
  await avapApi();
  return chatView();
}

/** Loads the assistant, which loads on first use (the first of its commands loads it; this one does nothing else). */
export async function loadAssistant(): Promise<void> {
  await vscode.commands.executeCommand('avap.cancelGeneration');
}

export function workspaceFile(name: string): vscode.Uri {
  return vscode.Uri.file(path.join(e2eConfig().workspace, name));
}

export async function openAvap(name: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(workspaceFile(name));
  return vscode.window.showTextDocument(doc, { preview: false });
}

export async function openUntitledAvap(content: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument({ language: 'avap', content });
  return vscode.window.showTextDocument(doc, { preview: false });
}

/** Polls `probe` until it returns a value other than undefined (or times out). */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last !== undefined) return last;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function parserDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'avap-parser');
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('avap').update(key, value, vscode.ConfigurationTarget.Global);
}
