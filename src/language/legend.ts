/**
 * The semantic token legend (./semanticTokens.ts): its types and modifiers, in
 * the order the encoded tokens index them. A light entry (LAYER_ENTRIES): an
 * editor registers its provider with the legend before it loads the features.
 */
export const SEMANTIC_TOKEN_TYPES = ['function', 'variable', 'parameter', 'property', 'operator'] as const;
export const SEMANTIC_TOKEN_MODIFIERS = ['declaration', 'defaultLibrary'] as const;

export type SemanticTokenType = (typeof SEMANTIC_TOKEN_TYPES)[number];
export type SemanticTokenModifier = (typeof SEMANTIC_TOKEN_MODIFIERS)[number];
