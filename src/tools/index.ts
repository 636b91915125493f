/**
 * The language-model tools (`avap_validate`, `avap_search_docs`), editor-free:
 * their definitions and input contracts (definitions.ts), their execution
 * (execute.ts) and the package.json contribution generated from them
 * (packageContribution.ts; `npm run contributes` writes it with the rest of the manifest).
 */
export * from './definitions';
export * from './execute';
export * from './packageContribution';
