/**
 * One pipeline run with a cancellable progress notification: the
 * notification's Cancel and AVAP: Cancel Generation abort it, which reaches
 * Ollama and the gRPC call. Shared by Generate Code…, Generate at Cursor and
 * Regenerate with Trace.
 */
import * as vscode from 'vscode';
import type { PipelineRequest, PipelineResult } from '../../core';
import type { AssistantService } from '../services/assistantService';

/** Generations in flight; AVAP: Cancel Generation aborts them (as does the notification's Cancel). */
export const inFlight = new Set<AbortController>();

export async function runWithProgress(
  assistant: AssistantService,
  title: string,
  request: PipelineRequest,
  onPiece: (text: string) => void,
): Promise<PipelineResult> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      inFlight.add(controller);
      const cancel = token.onCancellationRequested(() => controller.abort());
      let text = '';
      let attempt = 1;
      try {
        return await assistant.run(request, {
          signal: controller.signal,
          onMessage: (message) => {
            if (message.is_final) return;
            if ((message.attempt ?? 1) !== attempt) {
              attempt = message.attempt ?? 1;
              text = '';
              progress.report({ message: `attempt ${attempt}: correcting with the parser trace…` });
            }
            // A replacing draft holds the whole answer as repaired by the parser's fixes.
            text = message.replace ? message.text : text + message.text;
            onPiece(text);
            progress.report({ message: `attempt ${attempt}: ${text.length} characters` });
          },
        });
      } finally {
        cancel.dispose();
        inFlight.delete(controller);
      }
    },
  );
}
