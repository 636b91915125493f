/**
 * AVAP: Check Ollama — the thin editor side of the core's `checkOllama`:
 * reads the settings, runs the check with cancellable progress, logs the
 * result, tells the developer (./ollamaCheckMessage.ts) and carries out the
 * action they pick: copy the `ollama pull …` line, run it in a terminal, open
 * the settings, check again. Returns the check (the walkthrough step and the
 * tests read it); never throws.
 */
import * as vscode from 'vscode';
import { checkOllama, type OllamaCheck } from '../../core';
import type { OutputLog } from '../output/outputLog';
import type { EditorSettings } from '../settings/editorSettings';
import {
  CHECK_OLLAMA_ACTIONS,
  checkOllamaMessage,
  editorNeededModels,
  type CheckOllamaAction,
} from './ollamaCheckMessage';
import { COMMANDS } from '../commandIds';

export interface CheckOllamaDeps {
  settings(): EditorSettings;
  output: OutputLog;
}

export function registerCheckOllama(deps: CheckOllamaDeps): vscode.Disposable {
  let terminal: vscode.Terminal | undefined;
  const closed = vscode.window.onDidCloseTerminal((t) => {
    if (t === terminal) terminal = undefined;
  });

  async function run(): Promise<OllamaCheck> {
    const settings = deps.settings();
    const check = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `AVAP: checking Ollama at ${settings.ollama.url}…`,
        cancellable: true,
      },
      (_progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        return checkOllama({
          host: settings.ollama.url,
          models: editorNeededModels(settings),
          signal: controller.signal,
        });
      },
    );
    const message = checkOllamaMessage(check);
    if (message.severity === 'info') deps.output.info(`Ollama check: ${check.summary}`);
    else deps.output.warn(`Ollama check: ${check.summary}`);
    const show =
      message.severity === 'error'
        ? vscode.window.showErrorMessage
        : message.severity === 'warning'
          ? vscode.window.showWarningMessage
          : vscode.window.showInformationMessage;
    // Not awaited: the command answers with the check while the notification waits for the developer.
    void Promise.resolve(show(message.text, ...message.actions)).then((choice) => act(choice, message.shellLine));
    return check;
  }

  async function act(choice: CheckOllamaAction | undefined, shellLine: string | undefined): Promise<void> {
    try {
      if (choice === CHECK_OLLAMA_ACTIONS.copy && shellLine) {
        await vscode.env.clipboard.writeText(shellLine);
        deps.output.info(`copied to the clipboard: ${shellLine}`);
      } else if (choice === CHECK_OLLAMA_ACTIONS.terminal && shellLine) {
        terminal ??= vscode.window.createTerminal({ name: 'AVAP: ollama pull' });
        terminal.show();
        terminal.sendText(shellLine, true);
      } else if (choice === CHECK_OLLAMA_ACTIONS.settings) {
        await vscode.commands.executeCommand('workbench.action.openSettings', 'avap.ollama');
      } else if (choice === CHECK_OLLAMA_ACTIONS.again) {
        await run();
      }
    } catch (err) {
      deps.output.warn(`Ollama check: '${choice}' failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  return vscode.Disposable.from(closed, vscode.commands.registerCommand(COMMANDS.checkOllama.id, run));
}
