/**
 * An LSP client as an editor is one: `node dist/cli.js lsp --stdio` as a real
 * child process, JSON-RPC with Content-Length framing over its standard input
 * and output (vscode-jsonrpc's stream reader and writer), the initialize
 * handshake, and the server's notifications kept for the test to wait on.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  createProtocolConnection,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver/node';
import { childEnv, distFile } from './dist';

export interface LspSession {
  readonly connection: ProtocolConnection;
  readonly child: ChildProcessWithoutNullStreams;
  readonly initialized: InitializeResult;
  /** What the server wrote to standard error. */
  stderr(): string;
  /** The next diagnostics published for `uri` that satisfy `accept` (those already received count). */
  diagnostics(uri: string, accept?: (params: PublishDiagnosticsParams) => boolean): Promise<PublishDiagnosticsParams>;
  /** Every publication received so far for `uri`. */
  publishedFor(uri: string): PublishDiagnosticsParams[];
  /** Ends the server with shutdown and exit; resolves with its exit code. */
  close(): Promise<number | null>;
}

const CLIENT_CAPABILITIES: ClientCapabilities = {
  textDocument: {
    synchronization: { dynamicRegistration: false },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    completion: { completionItem: { snippetSupport: true } },
    signatureHelp: {
      signatureInformation: { parameterInformation: { labelOffsetSupport: true }, activeParameterSupport: true },
    },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    codeAction: {
      codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source', 'source.fixAll'] } },
    },
    rename: { prepareSupport: true },
    publishDiagnostics: { versionSupport: true },
    foldingRange: { lineFoldingOnly: true },
    semanticTokens: {
      requests: { full: true },
      tokenTypes: [],
      tokenModifiers: [],
      formats: ['relative'],
    },
    inlayHint: {},
  },
  workspace: { configuration: false },
};

export async function startLspSession(
  options: { initializationOptions?: unknown; capabilities?: ClientCapabilities; processId?: number } = {},
): Promise<LspSession> {
  const child = spawn(process.execPath, [distFile('cli.js'), 'lsp', '--stdio'], {
    env: childEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const published: PublishDiagnosticsParams[] = [];
  const waiters: {
    uri: string;
    accept: (p: PublishDiagnosticsParams) => boolean;
    resolve: (p: PublishDiagnosticsParams) => void;
  }[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    published.push(params);
    for (const waiter of [...waiters]) {
      if (waiter.uri === params.uri && waiter.accept(params)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(params);
      }
    }
  });
  connection.listen();
  const initialized = await connection.sendRequest(InitializeRequest.type, {
    processId: options.processId ?? process.pid,
    rootUri: null,
    capabilities: options.capabilities ?? CLIENT_CAPABILITIES,
    initializationOptions: options.initializationOptions,
  });
  await connection.sendNotification(InitializedNotification.type, {});
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    connection,
    child,
    initialized,
    stderr: () => stderr,
    diagnostics: (uri, accept = () => true) => {
      const seen = [...published].reverse().find((p) => p.uri === uri && accept(p));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ uri, accept, resolve }));
    },
    publishedFor: (uri) => published.filter((p) => p.uri === uri),
    close: async () => {
      if (child.exitCode !== null) return child.exitCode;
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      try {
        await connection.sendRequest('shutdown');
        await connection.sendNotification('exit');
      } catch {
        // The server is gone already: its exit code says how.
      }
      const code = await exited;
      clearTimeout(killer);
      connection.dispose();
      return code;
    },
  };
}
