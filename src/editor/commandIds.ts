/**
 * The command table, as the editor uses it: every command is declared once, editor-free, in
 * src/surface/commands.ts (its id, title, icon, menus, keybinding and the bundle that implements it), and
 * package.json's contributions are generated from it. Register and invoke each command with `COMMANDS.<name>.id`.
 */
export {
  ASSISTANT_COMMANDS,
  CHAT_VIEW_ID,
  /** @internal */ COMMAND_IDS,
  COMMANDS,
  EDITOR_COMMANDS,
} from '../surface/commands';
