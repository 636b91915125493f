/**
 * Language intelligence for AVAP, editor-free: everything an editor asks
 * about a document — diagnostics from the parser's trace, hover, completion,
 * signature help, the outline, definitions, references, highlights, rename,
 * inlay hints, semantic tokens, folding, formatting — computed from the
 * parser, its catalogue and the syntax tree (src/syntax), in the positions
 * editors use (0-based lines, UTF-16 characters). The VS Code adapter
 * (src/editor/language) and the language server (src/lsp) both serve it.
 *
 *   const doc = new AvapDocument(text);   // one per document version
 *   definition(doc, { line: 3, character: 7 });
 */
export * from './text';
export * from './diagnostics';
export * from './commandDocs';
export { AvapDocument } from './document';
export {
  /** @internal */ wordAt,
  /** @internal */ completionSite,
  /** @internal */ argumentWord,
  /** @internal */ NOT_A_VARIABLE,
} from './words';
export {
  /** @internal */ SymbolIndex,
  type Occurrence,
  type OccurrenceRole,
  type FunctionInfo,
  type EndpointInfo,
} from './symbols';
export { hover, type HoverResult } from './hover';
export { completion, type CompletionItemSpec, type CompletionKind } from './completion';
export {
  /** @internal */ commandSignatures,
  /** @internal */ functionSignature,
  type ParameterInfo,
  type ReferenceKind,
  type SignatureInfo,
} from './signatures';
export { signatureHelp, type SignatureHelpResult } from './signatureHelp';
export { definition, references, highlights, type HighlightSpec } from './navigation';
export { prepareRename, rename, type RenameRefusal, type RenameTarget } from './rename';
export { inlayHints, type InlayHintOptions, type InlayHintSpec } from './inlayHints';
export {
  semanticTokens,
  /** @internal */ semanticTokenSpecs,
  /** @internal */ encodeSemanticTokens,
  SEMANTIC_TOKEN_MODIFIERS,
  SEMANTIC_TOKEN_TYPES,
  type SemanticTokenSpec,
} from './semanticTokens';
export { documentSymbols, foldingRanges, type FoldSpec, type OutlineKind, type OutlineSymbol } from './outline';
export { formatDocument, formatEdits, /** @internal */ formatLines, /** @internal */ INDENT } from './format';
