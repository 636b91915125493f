/**
 * What the entry registers for the assistant before its bundle is loaded
 * (see ./seam.ts): the ids of the commands the bundle implements, and the
 * chat view. Both come from the one command table, ../commandIds.ts: a new
 * assistant command is a row there with `side: 'assistant'` (and an entry in package.json).
 */
export { ASSISTANT_COMMANDS, CHAT_VIEW_ID } from '../commandIds';
