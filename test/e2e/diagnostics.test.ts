import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { avapApi, closeAllEditors, openAvap, parserDiagnostics, waitFor } from './support/vscodeHelpers';

describe('diagnostics from the real parser service', () => {
  after(closeAllEditors);

  it('activates on an .avap file and reports the parser trace as diagnostics', async () => {
    const editor = await openAvap('invalid.avap');
    assert.equal(editor.document.languageId, 'avap');
    const api = await avapApi();
    assert.match(api.parserAddress() ?? '', /^127\.0\.0\.1:\d+$/);

    const diagnostics = await waitFor('parser diagnostics', () => {
      const found = parserDiagnostics(editor.document.uri);
      return found.length >= 2 ? found : undefined;
    });
    const [unknown, loop] = diagnostics;
    assert.ok(unknown && loop);
    // Line 5: getSHA256(secret, digest) — the invented command, columns 1..10.
    assert.equal(unknown.source, 'avap-parser');
    assert.equal(unknown.severity, vscode.DiagnosticSeverity.Error);
    assert.deepEqual([unknown.range.start.line, unknown.range.start.character, unknown.range.end.line, unknown.range.end.character], [4, 0, 4, 9]);
    assert.match(unknown.message, /'getSHA256' not defined/);
    assert.match(unknown.message, /encodeSHA256/);
    const code = unknown.code as { value: string; target: vscode.Uri };
    assert.equal(code.value, 'unknown_token');
    assert.equal(code.target.scheme, 'avap-trace');

    assert.equal(loop.range.start.line, 5);
    assert.equal((loop.code as { value: string }).value, 'unexpected_construct');
  });
});
