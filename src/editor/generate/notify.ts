/**
 * The notifications of generated code: a valid answer informs, an invalid or
 * unvalidated one warns (its label says which), a failed run is an error that
 * offers the fix — start Ollama, or run the exact `ollama pull <model>` line —
 * as buttons (./failureFix.ts decides which, by error code).
 */
import * as vscode from 'vscode';
import type { PipelineErrorCode, ValidationStatus } from '../../core';
import type { OutputLog } from '../output/outputLog';
import type { EditorSettings } from '../settings/editorSettings';
import { failureFix, type FailureAction } from './failureFix';

/** Shows the verdict on generated code with its buttons: information when valid, a warning otherwise. */
export function notifyVerdict<T extends string>(
  status: ValidationStatus,
  message: string,
  ...buttons: T[]
): Thenable<T | undefined> {
  return status === ''
    ? vscode.window.showInformationMessage(message, ...buttons)
    : vscode.window.showWarningMessage(message, ...buttons);
}

/** What a failure notification needs of the editor: the settings its fix names, the log, the command to run again. */
interface FailureContext {
  /** The settings of the run that failed (the fix names their model and Ollama URL). */
  settings: EditorSettings;
  output: OutputLog;
  /** Runs the failed command again (the Retry button). */
  retry: () => unknown;
}

/** Runs a failure action; a terminal action opens a terminal named Ollama with the command typed in and run. */
async function runAction(action: FailureAction, context: FailureContext): Promise<void> {
  const { output, retry } = context;
  switch (action.kind) {
    case 'terminal': {
      const terminal = vscode.window.createTerminal({ name: 'Ollama' });
      terminal.show();
      terminal.sendText(action.command, true);
      output.info(`ran in a terminal: ${action.command}`);
      return;
    }
    case 'copy':
      await vscode.env.clipboard.writeText(action.text);
      void vscode.window.setStatusBarMessage(`Copied: ${action.text}`, 4000);
      return;
    case 'retry':
      void retry();
      return;
    case 'output':
      output.show();
  }
}

/** An error notification that says what went wrong, how to fix it, and offers the fix as a button. */
export function notifyFailure(
  what: string,
  error: { code: PipelineErrorCode; message: string },
  context: FailureContext,
): void {
  const { settings } = context;
  const fix = failureFix(error.code, settings.ollama.model, settings.ollama.url);
  const labels = fix.actions.map((a) => a.label);
  // The hint completes the message, decided by the error's code: the core's model-missing message already ends
  // with its `ollama pull` line (src/core/llm/ollamaLlm.ts), so that hint would only repeat it.
  const hint = fix.hint && error.code !== 'model-missing' ? ` ${fix.hint}` : '';
  void vscode.window.showErrorMessage(`AVAP: ${what} — ${error.message}${hint}`, ...labels).then(async (choice) => {
    const action = fix.actions.find((a) => a.label === choice);
    if (action) await runAction(action, context);
  });
}
