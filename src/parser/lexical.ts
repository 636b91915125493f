/**
 * The parser's line scanner and call splitter, for folders that build their own
 * view of a program (src/syntax) without loading the analyzer: a light entry
 * (LAYER_ENTRIES in eslint.config.mjs).
 */
export {
  isOp,
  isPunct,
  newScanState,
  scanLine,
  TokenKind,
  type LexicalProblem,
  type ScanState,
  type Token,
} from './scanner';
export { matchBracket, parseCall, type CallArg } from './calls';
export { firstOf, lastOf, tokenAt } from './cursor';
