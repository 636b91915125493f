import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  avapApi,
  closeAllEditors,
  openAvap,
  openUntitledAvap,
  parserDiagnostics,
  waitFor,
} from './support/vscodeHelpers';

describe('diagnostics from the real parser service', () => {
  afterEach(closeAllEditors);

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
    assert.deepEqual(
      [unknown.range.start.line, unknown.range.start.character, unknown.range.end.line, unknown.range.end.character],
      [4, 0, 4, 9],
    );
    assert.match(unknown.message, /'getSHA256' not defined/);
    assert.match(unknown.message, /encodeSHA256/);
    const code = unknown.code as { value: string; target: vscode.Uri };
    assert.equal(code.value, 'unknown-command', 'the rule code, not the category');
    assert.equal(code.target.scheme, 'avap-trace');

    assert.equal(loop.range.start.line, 5);
    assert.deepEqual([loop.range.start.character, loop.range.end.character], [0, 21]);
    assert.equal((loop.code as { value: string }).value, 'foreign-loop');

    // The code links to a read-only document with the whole trace in its text form.
    const trace = await vscode.workspace.openTextDocument(code.target);
    assert.match(trace.getText(), /^Line 5: 'getSHA256' not defined — did you mean 'encodeSHA256'\?$/m);
    assert.match(trace.getText(), /^Line 6: unexpected construct 'for i in range\(\.\.\.\)'/m);
    assert.match(trace.getText(), /^ {4}unknown-command: /m, 'each entry names its rule');
  });

  it('applies the parser suggestion as a quick fix, without a model call', async () => {
    const editor = await openUntitledAvap('addParam(password, p)\ngetSHA256(p, h)\naddResult(h)\n');
    await avapApi();
    const [diagnostic] = await waitFor('a diagnostic', () => {
      const found = parserDiagnostics(editor.document.uri);
      return found.length > 0 ? found : undefined;
    });
    assert.ok(diagnostic);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      editor.document.uri,
      diagnostic.range,
    );
    const titles = actions.map((a) => a.title);
    assert.ok(titles.includes("Replace 'getSHA256' with 'encodeSHA256'"), titles.join(' | '));
    assert.ok(
      titles.some((t) => t.startsWith('Regenerate with Trace')),
      titles.join(' | '),
    );
    const fix = actions.find((a) => a.title.startsWith('Replace'));
    assert.ok(fix?.edit && fix.isPreferred);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.equal(editor.document.lineAt(1).text, 'encodeSHA256(p, h)');
    await waitFor('diagnostics to clear after the fix', () =>
      parserDiagnostics(editor.document.uri).length === 0 ? true : undefined,
    );
  });

  it("applies the parser's proven fix as a quick fix: a rewrite with other arguments, and a closer on a new line", async () => {
    const editor = await openUntitledAvap(
      'addParam(password, password)\nhashed = getSHA256(password)\nif(hashed, "x", !=)\n  addResult(hashed)\n',
    );
    await avapApi();
    // The fix of the current version's verdict (a stale verdict offers none): asked again until it is there.
    const fixFor = (code: string, title: (t: string) => boolean) =>
      waitFor(`the fix of ${code}`, async () => {
        const diagnostic = parserDiagnostics(editor.document.uri).find(
          (d) => (d.code as { value: string }).value === code,
        );
        if (!diagnostic) return undefined;
        const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
          'vscode.executeCodeActionProvider',
          editor.document.uri,
          diagnostic.range,
        );
        return actions.find((a) => title(a.title));
      });
    const rewrite = await fixFor('unknown-command', (t) => t === "Rewrite as 'encodeSHA256(password, hashed)'");
    assert.ok(rewrite.edit && rewrite.isPreferred, 'the proven rewrite is offered');
    assert.ok(await vscode.workspace.applyEdit(rewrite.edit));
    assert.equal(editor.document.lineAt(1).text, 'encodeSHA256(password, hashed)');

    const close = await fixFor('unclosed-block', (t) => t.startsWith("Close if() with 'end()'"));
    assert.ok(close.edit, 'the closer is offered');
    assert.ok(await vscode.workspace.applyEdit(close.edit));
    assert.equal(
      editor.document.getText(),
      'addParam(password, password)\nencodeSHA256(password, hashed)\nif(hashed, "x", !=)\n  addResult(hashed)\nend()\n',
    );
    await waitFor('diagnostics to clear after the fixes', () =>
      parserDiagnostics(editor.document.uri).length === 0 ? true : undefined,
    );
  });

  it('follows typing: results keyed to the version, never an older verdict over a newer one', async () => {
    const editor = await openUntitledAvap('addVar(a, 1)\naddResult(a)\n');
    const api = await avapApi();
    await waitFor('valid status', () => (api.statusLook()?.kind === 'valid' ? true : undefined));
    // A burst of edits: broken, then fixed again; only the last version's verdict may stay.
    for (const text of [
      'addVar(a, 1)\ngetSHA256(a, b)\n',
      'addVar(a, 1)\nfor x in y:\n',
      'addVar(a, 1)\naddResult(a)\n',
    ]) {
      await editor.edit((edit) => edit.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), text));
    }
    await waitFor('the final version validated', () => (api.statusLook()?.kind === 'valid' ? true : undefined));
    // A negative check: no late (superseded) verdict may land after the final one. The barrier is an ordered
    // event: one more validation of the same document, asked after every superseded run was started (and
    // aborted, which settles its call), whose verdict is awaited. Once it is in, a late verdict had its chance.
    const barrier = await vscode.commands.executeCommand<{ kind: string } | undefined>(
      'avap.validateDocument',
      editor.document.uri,
    );
    assert.equal(barrier?.kind, 'valid');
    assert.equal(parserDiagnostics(editor.document.uri).length, 0);
    assert.equal(api.statusLook()?.kind, 'valid');

    await editor.edit((edit) => edit.insert(new vscode.Position(editor.document.lineCount, 0), 'getSHA256(a, b)\n'));
    await waitFor('the error of the newest version', () =>
      parserDiagnostics(editor.document.uri).length === 1 ? true : undefined,
    );
    assert.equal(api.statusLook()?.kind, 'invalid');
  });

  it('validates on open and clears diagnostics when the document is closed', async () => {
    const editor = await openAvap('invalid.avap');
    const uri = editor.document.uri;
    await waitFor('diagnostics on open', () => (parserDiagnostics(uri).length > 0 ? true : undefined));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    // The document object stays alive for a while after its editor closes; VS Code closes it then.
    await waitFor(
      'diagnostics cleared on close',
      () => (parserDiagnostics(uri).length === 0 ? true : undefined),
      60_000,
    );
  });

  it('offers hover documentation and completion from the catalogue', async () => {
    const editor = await openUntitledAvap('encodeSHA256(p, h)\n');
    await avapApi();
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      editor.document.uri,
      new vscode.Position(0, 3),
    );
    const text = hovers
      .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : '')))
      .join('\n');
    assert.match(text, /encodeSHA256\(/);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      editor.document.uri,
      new vscode.Position(1, 0),
    );
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(labels.includes('RequestGet') && labels.includes('addVar'));
  });
});
