/**
 * The VS Code adapter. Only the two things the extension entry needs leave
 * this folder: activation and the API the extension returns. Everything else
 * is reached through commands registered in activate.ts (and, lazily, in assistant/main.ts).
 */
export { activateAvap, deactivateAvap } from './activate';
export type { AvapExtensionApi } from './api';
