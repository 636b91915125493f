/**
 * The VS Code adapter. Only the two things the extension entry needs leave
 * this folder: activation and the API the extension returns — and the types of
 * what its commands answer (generating code resolves to a GenerateOutcome), for
 * whoever runs them. Everything else is reached through
 * commands registered in activate.ts (and, lazily, in assistant/main.ts).
 */
export { activateAvap, deactivateAvap } from './activate';
export type { AvapExtensionApi } from './api';
export type { GenerateOutcome, RegenerateOutcome } from './generate/generateCommands';
export type { AtCursorOutcome } from './generate/generateAtCursor';
export type { FixAllOutcome } from './diagnostics/fixAll';
export type { RunOutcome, TestSummary } from './run/bundleApi';
