/**
 * The assistant stack, editor-free: `createAssistantStack(config, deps)` wires
 * the core's assistant, the quality judge and the training-signal store from
 * one configuration for every front end (editor, REST, evaluation);
 * `runThroughStack` is one run through the judge and the store.
 */
export { createAssistantStack, runThroughStack, type AssistantStack, type StackParts } from './stack';
