/** The AVAP language server: src/language over the Language Server Protocol (`avap lsp --stdio`). */
export { startStdioServer } from './stdio';
