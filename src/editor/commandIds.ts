/**
 * Every command the extension contributes, in one table (issue 14.3): its id
 * and the bundle that implements it. `entry` commands are registered on
 * activation (commands/coreCommands.ts); `assistant` commands by the lazy
 * assistant bundle (assistant/main.ts and what it registers), and until it
 * loads by the stand-ins of assistant/seam.ts. A unit test keeps this table
 * and package.json's `contributes.commands` equal.
 *
 * A new command: add a row here, its `contributes.commands` entry in
 * package.json, and register it with `COMMANDS.<name>.id` on its side.
 */
export const COMMANDS = {
  validateDocument: { id: 'avap.validateDocument', side: 'entry' },
  showOutput: { id: 'avap.showOutput', side: 'entry' },
  resetParserCircuit: { id: 'avap.resetParserCircuit', side: 'entry' },
  fixAll: { id: 'avap.fixAll', side: 'entry' },
  openExample: { id: 'avap.openExample', side: 'entry' },
  openWalkthrough: { id: 'avap.openWalkthrough', side: 'entry' },
  generateCode: { id: 'avap.generateCode', side: 'assistant' },
  generateAtCursor: { id: 'avap.generateAtCursor', side: 'assistant' },
  acceptPendingChange: { id: 'avap.acceptPendingChange', side: 'assistant' },
  rejectPendingChange: { id: 'avap.rejectPendingChange', side: 'assistant' },
  ask: { id: 'avap.ask', side: 'assistant' },
  regenerateWithTrace: { id: 'avap.regenerateWithTrace', side: 'assistant' },
  cancelGeneration: { id: 'avap.cancelGeneration', side: 'assistant' },
  acceptGenerated: { id: 'avap.acceptGenerated', side: 'assistant' },
  rateGenerated: { id: 'avap.rateGenerated', side: 'assistant' },
  showValidationMetrics: { id: 'avap.showValidationMetrics', side: 'assistant' },
  openEvaluationReport: { id: 'avap.openEvaluationReport', side: 'assistant' },
  setElasticsearchApiKey: { id: 'avap.setElasticsearchApiKey', side: 'assistant' },
  checkOllama: { id: 'avap.checkOllama', side: 'assistant' },
  clearChat: { id: 'avap.clearChat', side: 'assistant' },
} as const;

type Row = (typeof COMMANDS)[keyof typeof COMMANDS];

export type CommandId = Row['id'];
export type AssistantCommand = Extract<Row, { side: 'assistant' }>['id'];

const rows: readonly Row[] = Object.values(COMMANDS);

/** Every contributed command id. */
export const COMMAND_IDS: readonly CommandId[] = rows.map((row) => row.id);

/** The ids the assistant bundle implements (the entry registers stand-ins for them until it loads). */
export const ASSISTANT_COMMANDS: readonly AssistantCommand[] = rows.flatMap((row) => (row.side === 'assistant' ? [row.id] : []));

/** The chat webview view (not a command; `${CHAT_VIEW_ID}.focus` is the workbench's command for it). */
export const CHAT_VIEW_ID = 'avap.chat';
