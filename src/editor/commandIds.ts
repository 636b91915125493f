/**
 * Every command the extension contributes, in one table: its id
 * and the bundle that implements it. `editor` commands by the editor features
 * bundle (features/main.ts and what it registers), which starts right after
 * activation; `assistant` commands by the assistant bundle (assistant/main.ts
 * and what it registers), which loads on first use. Until its bundle has
 * started, a stand-in registered at activation answers for each command
 * (lazy/lazyBundle.ts). A unit test keeps this table and package.json's
 * `contributes.commands` equal.
 *
 * A new command: add a row here, its `contributes.commands` entry in
 * package.json, and register it with `COMMANDS.<name>.id` on its side.
 */
export const COMMANDS = {
  validateDocument: { id: 'avap.validateDocument', side: 'editor' },
  showOutput: { id: 'avap.showOutput', side: 'editor' },
  resetParserCircuit: { id: 'avap.resetParserCircuit', side: 'editor' },
  fixAll: { id: 'avap.fixAll', side: 'editor' },
  openExample: { id: 'avap.openExample', side: 'editor' },
  openWalkthrough: { id: 'avap.openWalkthrough', side: 'editor' },
  runFile: { id: 'avap.runFile', side: 'editor' },
  editRunRequest: { id: 'avap.editRunRequest', side: 'editor' },
  addTestCaseFromLastRun: { id: 'avap.addTestCaseFromLastRun', side: 'editor' },
  testFile: { id: 'avap.testFile', side: 'editor' },
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
export type EditorCommand = Extract<Row, { side: 'editor' }>['id'];

const rows: readonly Row[] = Object.values(COMMANDS);

/**
 * Every contributed command id.
 * @internal
 */
export const COMMAND_IDS: readonly CommandId[] = rows.map((row) => row.id);

/** The ids the editor features bundle implements (activation registers stand-ins for them until it has started). */
export const EDITOR_COMMANDS: readonly EditorCommand[] = rows.flatMap((row) => (row.side === 'editor' ? [row.id] : []));

/** The ids the assistant bundle implements (activation registers stand-ins for them until it loads). */
export const ASSISTANT_COMMANDS: readonly AssistantCommand[] = rows.flatMap((row) =>
  row.side === 'assistant' ? [row.id] : [],
);

/** The chat webview view (not a command; `${CHAT_VIEW_ID}.focus` is the workbench's command for it). */
export const CHAT_VIEW_ID = 'avap.chat';
