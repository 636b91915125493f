/**
 * What **AVAP: Check Ollama** tells the developer, from the core's check:
 * how loud (information / warning / error), the text, and the actions it
 * offers. Pure (no `vscode`), so it is unit-tested as is.
 */
import { neededModels, type NeededModel, type OllamaCheck } from '../../core';
import type { EditorSettings } from '../settings/editorSettings';

export const CHECK_OLLAMA_ACTIONS = {
  copy: 'Copy Pull Command',
  terminal: 'Run in Terminal',
  settings: 'Open Settings',
  again: 'Check Again',
} as const;

export type CheckOllamaAction = (typeof CHECK_OLLAMA_ACTIONS)[keyof typeof CHECK_OLLAMA_ACTIONS];

export interface CheckOllamaMessage {
  severity: 'info' | 'warning' | 'error';
  text: string;
  actions: CheckOllamaAction[];
  /** The shell line the copy and terminal actions use (the pull lines joined with &&), when models are missing. */
  shellLine?: string;
}

/** The models the editor's settings need: generation, conversational, embedding, and the judge (the generation model) when it is on. */
export function editorNeededModels(settings: Pick<EditorSettings, 'ollama' | 'quality'>): NeededModel[] {
  return neededModels({
    model: settings.ollama.model,
    conversationalModel: settings.ollama.conversationalModel,
    embeddingModel: settings.ollama.embeddingModel,
    ...(settings.quality.judge ? { judgeModel: settings.ollama.model } : {}),
  });
}

export function checkOllamaMessage(check: OllamaCheck): CheckOllamaMessage {
  switch (check.status) {
    case 'ready':
      return { severity: 'info', text: `AVAP: ${check.summary}`, actions: [] };
    case 'models-missing': {
      const shellLine = check.pullCommands.join(' && ');
      return {
        severity: 'warning',
        text: `AVAP: ${check.summary}`,
        actions: [CHECK_OLLAMA_ACTIONS.copy, CHECK_OLLAMA_ACTIONS.terminal],
        shellLine,
      };
    }
    case 'unreachable':
      if (check.error?.code === 'cancelled') return { severity: 'info', text: `AVAP: ${check.summary}`, actions: [] };
      return {
        severity: 'error',
        text: `AVAP: ${check.summary} Start Ollama (\`ollama serve\`) or set avap.ollama.url, then check again.`,
        actions: [CHECK_OLLAMA_ACTIONS.again, CHECK_OLLAMA_ACTIONS.settings],
      };
  }
}
