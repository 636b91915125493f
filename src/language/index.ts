/**
 * Language intelligence for AVAP, editor-free: what an editor asks about a
 * document (diagnostics from the parser's trace, hover, completion, …),
 * computed from the parser, its catalogue and the syntax tree, in positions an
 * editor uses (0-based lines, UTF-16 characters). The VS Code adapter
 * (src/editor/language) and the language server (src/lsp) both serve it.
 */
export * from './text';
export * from './diagnostics';
export * from './commandDocs';
export { AvapDocument } from './document';
export { wordAt, completionSite } from './words';
export { hover, type HoverResult } from './hover';
export { completion, type CompletionItemSpec, type CompletionKind } from './completion';
