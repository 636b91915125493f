/**
 * `avap lsp --stdio` driven as an editor drives it: a real child process,
 * JSON-RPC with Content-Length framing over its standard input and output.
 * The program has a function, an if block, an invented command and an
 * unfinished `RequestGet(`; every capability the server announces is asked
 * for and its answer checked.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  CodeActionRequest,
  CompletionRequest,
  DefinitionRequest,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentFormattingRequest,
  DocumentHighlightRequest,
  DocumentRangeFormattingRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  HoverRequest,
  InlayHintRequest,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  SemanticTokensRequest,
  SignatureHelpRequest,
  type CodeAction,
  type CompletionItem,
  type DocumentSymbol,
  type MarkupContent,
  type TextEdit,
} from 'vscode-languageserver/node';
import { childEnv, distFile } from '../../support/dist';
import { startLspSession, type LspSession } from '../../support/lspClient';

const URI = 'file:///work/handler.avap';
const PROGRAM = [
  'function greet(name) {', // 0
  '  addVar(msg, name)', // 1
  '  return(msg)', // 2
  '}', // 3
  'addParam("who", who)', // 4
  'if(who, "", "=")', // 5
  '    addVar(who,"world")', // 6
  'end()', // 7
  'getSHA256(who, hash)', // 8
  'r = greet(who)', // 9
  'RequestGet(', // 10
  '',
].join('\n');

const pos = (line: number, character: number) => ({ line, character });

function apply(text: string, edits: readonly TextEdit[]): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) =>
    lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  let out = text;
  for (const e of [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start)))
    out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}

describe('language server over stdio (avap lsp --stdio)', function () {
  this.timeout(30_000);
  let lsp: LspSession;
  const doc = { textDocument: { uri: URI } };

  before(async () => {
    lsp = await startLspSession();
    await lsp.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: URI, languageId: 'avap', version: 1, text: PROGRAM },
    });
  });

  after(async () => {
    await lsp?.close();
  });

  it('announces every capability, and its name and parser version', () => {
    const c = lsp.initialized.capabilities;
    for (const key of [
      'hoverProvider',
      'completionProvider',
      'signatureHelpProvider',
      'documentSymbolProvider',
      'definitionProvider',
      'referencesProvider',
      'documentHighlightProvider',
      'renameProvider',
      'inlayHintProvider',
      'semanticTokensProvider',
      'foldingRangeProvider',
      'documentFormattingProvider',
      'documentRangeFormattingProvider',
      'codeActionProvider',
    ] as const)
      assert.ok(c[key], `${key} is announced`);
    assert.deepEqual(c.codeActionProvider, { codeActionKinds: ['quickfix', 'source.fixAll.avap'] });
    assert.match(lsp.initialized.serverInfo?.version ?? '', /parser avap-parser\//);
  });

  it('publishes the parser’s diagnostics with rule codes for the document’s version', async () => {
    const published = await lsp.diagnostics(URI, (p) => p.version === 1);
    assert.deepEqual(
      published.diagnostics.map((d) => [d.range.start.line, d.code, d.severity, d.source]),
      [
        [8, 'unknown-command', 1, 'avap-parser'],
        [10, 'arity', 1, 'avap-parser'],
        [10, 'unclosed-call', 1, 'avap-parser'],
      ],
    );
    const message = published.diagnostics[0]?.message;
    assert.match(typeof message === 'string' ? message : JSON.stringify(message), /getSHA256/);
  });

  it('offers the parser’s proven fix as a quick fix, fix-all as a quick fix and as source.fixAll.avap', async () => {
    const { diagnostics } = await lsp.diagnostics(URI, (p) => p.version === 1);
    const actions = (await lsp.connection.sendRequest(CodeActionRequest.type, {
      ...doc,
      range: diagnostics[0]!.range,
      context: { diagnostics: [diagnostics[0]!] },
    })) as CodeAction[];
    const quick = actions.find((a) => a.kind === 'quickfix' && a.isPreferred);
    assert.equal(quick?.title, "Replace 'getSHA256' with 'encodeSHA256'");
    assert.deepEqual(quick?.edit?.changes?.[URI], [
      { range: { start: pos(8, 0), end: pos(8, 9) }, newText: 'encodeSHA256' },
    ]);
    const onSave = (await lsp.connection.sendRequest(CodeActionRequest.type, {
      ...doc,
      range: { start: pos(0, 0), end: pos(0, 0) },
      context: { diagnostics: [], only: ['source.fixAll'] },
    })) as CodeAction[];
    assert.deepEqual(
      onSave.map((a) => a.kind),
      ['source.fixAll.avap'],
    );
    const fixed = apply(PROGRAM, onSave[0]?.edit?.changes?.[URI] ?? []);
    assert.match(fixed, /encodeSHA256\(who, hash\)/);
    assert.match(fixed, /RequestGet\([^\n]*\)/, 'the missing ) is inserted');
    const menu = (await lsp.connection.sendRequest(CodeActionRequest.type, {
      ...doc,
      range: diagnostics[2]!.range,
      context: { diagnostics: [diagnostics[2]!], only: ['quickfix'] },
    })) as CodeAction[];
    assert.ok(menu.some((a) => a.title === 'Fix All Auto-fixable Problems (AVAP)'));
  });

  it('hovers a command with its documentation and completes commands and functions at a statement', async () => {
    const hover = await lsp.connection.sendRequest(HoverRequest.type, { ...doc, position: pos(8, 3) });
    assert.match((hover?.contents as MarkupContent).value, /not an AVAP command — use `encodeSHA256`/);
    const onGreet = await lsp.connection.sendRequest(HoverRequest.type, { ...doc, position: pos(9, 6) });
    assert.match((onGreet?.contents as MarkupContent).value, /function greet\(name\)/);
    const items = (await lsp.connection.sendRequest(CompletionRequest.type, {
      ...doc,
      position: pos(11, 0),
    })) as CompletionItem[];
    const get = items.find((i) => i.label === 'RequestGet');
    assert.equal(get?.insertText, 'RequestGet(${1:url}, ${2:querystring}, ${3:headers}, ${4:o_result})');
    assert.ok(items.some((i) => i.label === 'greet'));
  });

  it('gives signature help inside the unfinished RequestGet(', async () => {
    const help = await lsp.connection.sendRequest(SignatureHelpRequest.type, { ...doc, position: pos(10, 11) });
    assert.equal(help?.signatures[0]?.label, 'RequestGet(url, querystring, headers, o_result)');
    assert.equal(help?.activeParameter, 0);
    assert.deepEqual(help?.signatures[0]?.parameters?.[0]?.label, [11, 14]);
    assert.match((help?.signatures[0]?.parameters?.[3]?.documentation as MarkupContent).value, /\(variable\)/);
  });

  it('lists the function, with its block as a child, in the document’s symbols', async () => {
    const symbols = (await lsp.connection.sendRequest(DocumentSymbolRequest.type, doc)) as DocumentSymbol[];
    assert.deepEqual(
      symbols.map((s) => [s.name, s.kind, s.range.start.line, s.range.end.line]),
      [
        ['greet', 12, 0, 3],
        ['if(who, "", "=")', 3, 5, 7],
      ],
    );
  });

  it('goes to definition, finds references and highlights', async () => {
    const def = await lsp.connection.sendRequest(DefinitionRequest.type, { ...doc, position: pos(9, 6) });
    assert.deepEqual(def, [{ uri: URI, range: { start: pos(0, 9), end: pos(0, 14) } }]);
    const refs = await lsp.connection.sendRequest(ReferencesRequest.type, {
      ...doc,
      position: pos(4, 17),
      context: { includeDeclaration: true },
    });
    assert.deepEqual(
      refs?.map((r) => r.range.start.line),
      [4, 5, 6, 8, 9],
    );
    const marks = await lsp.connection.sendRequest(DocumentHighlightRequest.type, { ...doc, position: pos(1, 10) });
    assert.deepEqual(
      marks?.map((h) => [h.range.start.line, h.kind]),
      [
        [1, 3],
        [2, 2],
      ],
    );
  });

  it('renames a variable everywhere, and refuses a rename that would change meaning with the reason', async () => {
    const target = await lsp.connection.sendRequest(PrepareRenameRequest.type, { ...doc, position: pos(4, 17) });
    assert.deepEqual(target, { range: { start: pos(4, 16), end: pos(4, 19) }, placeholder: 'who' });
    const edit = await lsp.connection.sendRequest(RenameRequest.type, {
      ...doc,
      position: pos(4, 17),
      newName: 'visitor',
    });
    const renamed = apply(PROGRAM, edit?.changes?.[URI] ?? []);
    assert.match(renamed, /addParam\("who", visitor\)/, 'the request parameter keeps its name');
    assert.match(renamed, /r = greet\(visitor\)/);
    await assert.rejects(
      lsp.connection.sendRequest(RenameRequest.type, { ...doc, position: pos(4, 17), newName: 'msg' }),
      /'msg' is already a variable/,
    );
  });

  it('shows inlay hints, semantic tokens and folding ranges', async () => {
    const hints = await lsp.connection.sendRequest(InlayHintRequest.type, {
      ...doc,
      range: { start: pos(0, 0), end: pos(11, 0) },
    });
    // addVar(msg, name): the value `name` is the function's parameter, not the text 'name'.
    assert.ok(hints?.some((h) => h.label === ': variable' && h.position.line === 1));
    const tokens = await lsp.connection.sendRequest(SemanticTokensRequest.type, doc);
    const legend = lsp.initialized.capabilities.semanticTokensProvider?.legend;
    assert.deepEqual(legend?.tokenTypes, ['function', 'variable', 'parameter', 'property', 'operator']);
    assert.ok((tokens?.data.length ?? 0) > 0 && (tokens?.data.length ?? 0) % 5 === 0);
    assert.deepEqual(tokens?.data.slice(0, 5), [0, 9, 5, 0, 1], 'greet: a function, declared');
    const folds = await lsp.connection.sendRequest(FoldingRangeRequest.type, doc);
    assert.deepEqual(
      folds?.map((f) => [f.startLine, f.endLine]),
      [
        [0, 2],
        [5, 6],
      ],
    );
  });

  it('formats the document and a selection', async () => {
    const edits = await lsp.connection.sendRequest(DocumentFormattingRequest.type, {
      ...doc,
      options: { tabSize: 4, insertSpaces: true },
    });
    const formatted = apply(PROGRAM, edits ?? []);
    assert.match(formatted, /\nif\(who, "", "="\)\n {2}addVar\(who, "world"\)\nend\(\)\n/);
    const selection = await lsp.connection.sendRequest(DocumentRangeFormattingRequest.type, {
      ...doc,
      range: { start: pos(6, 0), end: pos(6, 5) },
      options: { tabSize: 4, insertSpaces: true },
    });
    assert.deepEqual(selection, [{ range: { start: pos(6, 0), end: pos(6, 23) }, newText: '  addVar(who, "world")' }]);
  });

  it('follows incremental edits and settings', async () => {
    await lsp.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: URI, version: 2 },
      contentChanges: [
        { range: { start: pos(8, 0), end: pos(8, 9) }, text: 'encodeSHA256' },
        { range: { start: pos(10, 11), end: pos(10, 11) }, text: 'url, , , page)' },
      ],
    });
    const published = await lsp.diagnostics(URI, (p) => p.version === 2);
    assert.deepEqual(published.diagnostics, [], 'valid after the edit');
    await lsp.connection.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { avap: { inlayHints: { parameterNames: true } } },
    });
    const hints = await lsp.connection.sendRequest(InlayHintRequest.type, {
      ...doc,
      range: { start: pos(10, 0), end: pos(10, 40) },
    });
    assert.deepEqual(
      hints?.filter((h) => h.kind === 2).map((h) => h.label),
      ['o_result:'],
      'url already says its parameter’s name',
    );
  });

  it('serves AVAP documents only: another file the client attaches it to gets nothing', async () => {
    const notes = 'file:///work/notes.txt';
    await lsp.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: notes, languageId: 'plaintext', version: 1, text: 'getSHA256(a, b)\nfor i in range(3):\n' },
    });
    const other = 'file:///work/other.avap';
    await lsp.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: other, languageId: 'plaintext', version: 1, text: 'getSHA256(a, b)\n' },
    });
    // Validated in the order opened: once the .avap file's diagnostics are out, the text file had its turn.
    const avap = await lsp.diagnostics(other, (p) => p.version === 1);
    assert.equal(avap.diagnostics[0]?.code, 'unknown-command', 'a .avap file is AVAP whatever the language id');
    assert.deepEqual(lsp.publishedFor(notes), []);
    assert.equal(
      await lsp.connection.sendRequest(HoverRequest.type, { textDocument: { uri: notes }, position: pos(0, 3) }),
      null,
    );
  });

  it('exits 0 after shutdown and exit', async () => {
    const session = await startLspSession();
    assert.equal(await session.close(), 0);
  });

  it('stops on SIGTERM, and when the client’s process is gone', async () => {
    const session = await startLspSession();
    const exited = new Promise<number | null>((resolve) => session.child.once('exit', resolve));
    session.child.kill('SIGTERM');
    assert.equal(await exited, 130, 'a signal interrupts the run, as for every command');

    // A client that dies without a word: its process id, given at initialize, is gone.
    const gone = spawn(process.execPath, ['-e', '']);
    const pid = gone.pid as number;
    await new Promise((resolve) => gone.once('exit', resolve));
    const orphan = await startLspSession({ processId: pid });
    const stopped = new Promise<number | null>((resolve) => orphan.child.once('exit', resolve));
    assert.equal(await stopped, 1, 'the server noticed within its watch period');
  });

  it('reads a message split anywhere, even inside its header, and refuses to start without --stdio', async () => {
    const child = spawn(process.execPath, [distFile('cli.js'), 'lsp', '--stdio'], { env: childEnv() });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { processId: null, rootUri: null, capabilities: {} },
    });
    const message = `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    for (const piece of [message.slice(0, 7), message.slice(7, 30), message.slice(30)]) {
      child.stdin.write(piece);
      await new Promise((r) => setTimeout(r, 20));
    }
    const deadline = Date.now() + 10_000;
    while (!out.includes('"id":1') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.match(out, /^Content-Length: \d+\r\n\r\n\{"jsonrpc":"2.0","id":1,"result":\{"capabilities"/);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin.end();
    assert.equal(await exited, 1, 'the client left without shutdown');

    const bare = spawn(process.execPath, [distFile('cli.js'), 'lsp'], { env: childEnv() });
    let err = '';
    bare.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    assert.equal(await new Promise((resolve) => bare.once('exit', resolve)), 2);
    assert.match(err, /give --stdio/);
  });
});
