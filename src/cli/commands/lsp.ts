/**
 * `lsp --stdio` — the AVAP language server (src/lsp) on standard input and
 * output, for any editor that speaks the Language Server Protocol. Standard
 * output carries only the protocol's messages; logs go to the client
 * (window/logMessage) or standard error.
 */
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { startStdioServer } from '../../lsp';
import { version as PACKAGE_VERSION } from '../../../package.json';
import { UsageError, type CliCommand, type CliIO } from '../command';
import { EXIT_INTERRUPTED } from '../lifecycle';

const USAGE = `Usage: node dist/cli.js lsp --stdio
  Runs the AVAP language server over standard input and output (JSON-RPC, Content-Length framing):
  diagnostics with rule codes, quick fixes and source.fixAll.avap, hover, completion, signature help,
  document symbols, go to definition, references, highlights, rename, inlay hints, semantic tokens,
  folding ranges and formatting. Settings: initializationOptions or workspace/didChangeConfiguration
  { "avap": { "inlayHints": { "parameterNames": true } } }.
  --stdio   talk over standard input and output (the only transport)
Exit codes: 0 after the client's shutdown and exit, 1 when the client left without them (its input closed or
its process died), 130 on SIGINT/SIGTERM.`;

async function run(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({ args, options: { stdio: { type: 'boolean', default: false } }, strict: true });
  if (!values.stdio) throw new UsageError('give --stdio (the server talks over standard input and output)');
  if (!io.stdin) throw new UsageError('standard input is not available to this command');
  // Standard output is the protocol's: only the server writes there, through the command's own writer.
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      io.stdout(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      callback();
    },
  });
  const code = await startStdioServer({
    input: io.stdin,
    output,
    info: { name: 'avap-lsp', version: PACKAGE_VERSION },
    signal: io.signal,
  });
  // A signal is an interrupted run, as for every command.
  return io.signal.aborted ? EXIT_INTERRUPTED : code;
}

export const lspCommand: CliCommand = {
  name: 'lsp',
  summary: 'run the AVAP language server over stdio (LSP) for any editor',
  usage: USAGE,
  run,
};
