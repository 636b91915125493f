/**
 * The parser's line scanner and call splitter, for folders that build their own
 * view of a program (src/syntax) without loading the analyzer: a light entry
 * (LAYER_ENTRIES in eslint.config.mjs).
 */
export {
  isOp,
  isPunct,
  isWord,
  newScanState,
  scanLine,
  TokenKind,
  type LexicalProblem,
  type LexicalSink,
  type ScanState,
  type Token,
} from './scanner';
export { isIdentifier, matchBracket, parseCall, type CallArg, type ParsedCall } from './calls';
export { firstOf, lastOf, tokenAt } from './cursor';
