/** What the language benchmark loads, bundled as the server and the editor run it (bench/language/index.ts builds it). */
export * from '../../src/language';
export { validateAvap } from '../../src/parser';
export { parseSyntax, parseSyntaxFresh } from '../../src/syntax';
export { verdictOf } from '../../src/lsp/verdicts';
