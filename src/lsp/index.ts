/** The AVAP language server: src/language over the Language Server Protocol (`avap lsp --stdio`). */
export { serveLanguage, type ServerInfo } from './server';
export { startStdioServer, type StdioServerOptions } from './stdio';
