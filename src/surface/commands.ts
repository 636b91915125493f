/**
 * Every command the extension contributes, declared once: its id, its title in the command palette, its icon,
 * where it shows (the palette's `when`, menus with their group, a keybinding) and the bundle that implements it.
 * package.json's `contributes.commands`, `menus` and `keybindings` are generated from this table
 * (`npm run contributes`; a unit test fails when they differ), and the editor registers and invokes each command
 * through `COMMANDS.<name>.id`.
 *
 * `side` is the bundle that implements the command: `editor` commands by the editor features bundle, which starts
 * right after activation; `assistant` commands by the assistant bundle, which loads on first use. Until its
 * bundle has started, a stand-in registered at activation answers for each command. This module is a light
 * entry (the activation bundle carries it): it holds the command table and nothing else.
 */

/** The palette's category of every command: *AVAP: Validate Document*. */
export const COMMAND_CATEGORY = 'AVAP';

/** The menus a command may appear in, in the order package.json lists them. */
export const MENU_IDS = ['commandPalette', 'editor/title', 'view/title', 'editor/context', 'explorer/context'] as const;
export type MenuId = (typeof MENU_IDS)[number];

/** A command's place in one menu. In `commandPalette`, `when` hides it where it does not apply (`false`: always). */
interface MenuPlace {
  when: string;
  group?: string;
}

export interface CommandDeclaration {
  id: `avap.${string}`;
  title: string;
  side: 'editor' | 'assistant';
  /** A product icon, `$(name)`, shown where the command is a button (editor title, view title, code lens). */
  icon?: `$(${string})`;
  menus?: Partial<Record<MenuId, MenuPlace>>;
  keybinding?: { key: string; mac: string; when: string };
}

/** The chat webview view (not a command; `${CHAT_VIEW_ID}.focus` is the workbench's command for it). */
export const CHAT_VIEW_ID = 'avap.chat';

const AVAP_EDITOR = 'editorLangId == avap';
const WRITABLE_AVAP_EDITOR = 'editorLangId == avap && !editorReadonly';

export const COMMANDS = {
  validateDocument: {
    id: 'avap.validateDocument',
    title: 'Validate Document',
    side: 'editor',
    icon: '$(check)',
    menus: { commandPalette: { when: AVAP_EDITOR }, 'editor/title': { when: AVAP_EDITOR, group: 'navigation@2' } },
  },
  showOutput: { id: 'avap.showOutput', title: 'Show Output', side: 'editor' },
  resetParserCircuit: { id: 'avap.resetParserCircuit', title: 'Reset Parser Circuit', side: 'editor' },
  generateCode: { id: 'avap.generateCode', title: 'Generate Code…', side: 'assistant', icon: '$(sparkle)' },
  generateAtCursor: {
    id: 'avap.generateAtCursor',
    title: 'Generate at Cursor',
    side: 'assistant',
    icon: '$(sparkle)',
    menus: {
      commandPalette: { when: WRITABLE_AVAP_EDITOR },
      'editor/context': { when: WRITABLE_AVAP_EDITOR, group: '1_avap@1' },
    },
    keybinding: { key: 'ctrl+i', mac: 'cmd+i', when: `editorTextFocus && ${WRITABLE_AVAP_EDITOR}` },
  },
  acceptPendingChange: {
    id: 'avap.acceptPendingChange',
    title: 'Accept Generated Change',
    side: 'assistant',
    icon: '$(check)',
    menus: { commandPalette: { when: 'avap.pendingChange' } },
  },
  rejectPendingChange: {
    id: 'avap.rejectPendingChange',
    title: 'Reject Generated Change',
    side: 'assistant',
    icon: '$(discard)',
    menus: { commandPalette: { when: 'avap.pendingChange' } },
  },
  fixAll: {
    id: 'avap.fixAll',
    title: 'Fix All Auto-fixable Problems',
    side: 'editor',
    menus: {
      commandPalette: { when: WRITABLE_AVAP_EDITOR },
      'editor/context': { when: WRITABLE_AVAP_EDITOR, group: '1_avap@2' },
    },
  },
  ask: { id: 'avap.ask', title: 'Ask…', side: 'assistant', icon: '$(comment-discussion)' },
  regenerateWithTrace: {
    id: 'avap.regenerateWithTrace',
    title: 'Regenerate with Trace',
    side: 'assistant',
    menus: {
      commandPalette: { when: AVAP_EDITOR },
      'editor/context': { when: WRITABLE_AVAP_EDITOR, group: '1_avap@3' },
    },
  },
  cancelGeneration: { id: 'avap.cancelGeneration', title: 'Cancel Generation', side: 'assistant' },
  showValidationMetrics: { id: 'avap.showValidationMetrics', title: 'Show Validation Metrics', side: 'assistant' },
  openEvaluationReport: {
    id: 'avap.openEvaluationReport',
    title: 'Open Evaluation Report…',
    side: 'assistant',
    menus: { 'explorer/context': { when: 'resourceFilename == report.json', group: 'navigation@90' } },
  },
  setElasticsearchApiKey: { id: 'avap.setElasticsearchApiKey', title: 'Set Elasticsearch API Key', side: 'assistant' },
  clearChat: {
    id: 'avap.clearChat',
    title: 'Clear Chat',
    side: 'assistant',
    icon: '$(clear-all)',
    menus: { 'view/title': { when: `view == ${CHAT_VIEW_ID}`, group: 'navigation' } },
  },
  // The code lens's actions on generated code: they take the document they act on, so the palette hides them.
  acceptGenerated: {
    id: 'avap.acceptGenerated',
    title: 'Accept Generated Code',
    side: 'assistant',
    menus: { commandPalette: { when: 'false' } },
  },
  rateGenerated: {
    id: 'avap.rateGenerated',
    title: 'Rate Generated Code',
    side: 'assistant',
    menus: { commandPalette: { when: 'false' } },
  },
  checkOllama: { id: 'avap.checkOllama', title: 'Check Ollama', side: 'assistant', icon: '$(pulse)' },
  openExample: { id: 'avap.openExample', title: 'Open an Example…', side: 'editor' },
  openWalkthrough: { id: 'avap.openWalkthrough', title: 'Get Started', side: 'editor' },
  // Running AVAP in the editor: the runtime's sandbox, its result view, the Testing view.
  runFile: {
    id: 'avap.runFile',
    title: 'Run File',
    side: 'editor',
    icon: '$(play)',
    menus: { commandPalette: { when: AVAP_EDITOR }, 'editor/title': { when: AVAP_EDITOR, group: 'navigation@1' } },
    keybinding: { key: 'ctrl+alt+r', mac: 'cmd+alt+r', when: `editorTextFocus && ${AVAP_EDITOR}` },
  },
  editRunRequest: {
    id: 'avap.editRunRequest',
    title: 'Edit Run Request…',
    side: 'editor',
    icon: '$(edit)',
    menus: { commandPalette: { when: AVAP_EDITOR } },
  },
  addTestCaseFromLastRun: { id: 'avap.addTestCaseFromLastRun', title: 'Add Test Case from Last Run', side: 'editor' },
  testFile: {
    id: 'avap.testFile',
    title: "Run the File's Test Cases",
    side: 'editor',
    icon: '$(beaker)',
    menus: { commandPalette: { when: AVAP_EDITOR } },
  },
} as const satisfies Record<string, CommandDeclaration>;

type Row = (typeof COMMANDS)[keyof typeof COMMANDS];

export type CommandId = Row['id'];
export type AssistantCommand = Extract<Row, { side: 'assistant' }>['id'];
export type EditorCommand = Extract<Row, { side: 'editor' }>['id'];

/** The declarations in their order (package.json's order). */
export const COMMAND_LIST: readonly CommandDeclaration[] = Object.values(COMMANDS);

/**
 * Every contributed command id.
 * @internal
 */
export const COMMAND_IDS: readonly CommandId[] = Object.values(COMMANDS).map((row: Row) => row.id);

/** The ids the editor features bundle implements (activation registers stand-ins for them until it has started). */
export const EDITOR_COMMANDS: readonly EditorCommand[] = Object.values(COMMANDS).flatMap((row: Row) =>
  row.side === 'editor' ? [row.id] : [],
);

/** The ids the assistant bundle implements (activation registers stand-ins for them until it loads). */
export const ASSISTANT_COMMANDS: readonly AssistantCommand[] = Object.values(COMMANDS).flatMap((row: Row) =>
  row.side === 'assistant' ? [row.id] : [],
);
