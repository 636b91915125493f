/**
 * What the entry registers for the assistant before its bundle is loaded
 * (see ./seam.ts): the ids of the commands the bundle implements, and the
 * chat view. A new assistant command adds its id here (and to package.json).
 */
export const ASSISTANT_COMMANDS = [
  'avap.generateCode',
  'avap.generateAtCursor',
  'avap.acceptPendingChange',
  'avap.rejectPendingChange',
  'avap.ask',
  'avap.regenerateWithTrace',
  'avap.cancelGeneration',
  'avap.acceptGenerated',
  'avap.rateGenerated',
  'avap.showValidationMetrics',
  'avap.openEvaluationReport',
  'avap.setElasticsearchApiKey',
  'avap.checkOllama',
  'avap.clearChat',
] as const;

/** The chat view's title action: forgets the conversation kept for the workspace. */
export const CLEAR_CHAT_COMMAND = 'avap.clearChat';

export type AssistantCommand = (typeof ASSISTANT_COMMANDS)[number];

export const CHAT_VIEW_ID = 'avap.chat';
