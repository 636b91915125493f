/**
 * In the real VS Code (code-server): the language features of
 * src/language registered for `avap`, used as a developer uses them — the
 * Outline view, F12, F2 and typing, pressed and typed in the browser — and
 * through the editor's own commands. Screenshots go to test-output/.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { closeAllEditors, openUntitledAvap, waitFor } from './support/vscodeHelpers';
import { captureWorkbench } from './support/workbench';

const PROGRAM = [
  'function greet(name) {', // 0
  '  addVar(msg, name)', // 1
  '  return(msg)', // 2
  '}', // 3
  'function total(a, b) {', // 4
  '  s = a + b', // 5
  '  return(s)', // 6
  '}', // 7
  'addParam("who", who)', // 8
  'if(who, "", "=")', // 9
  '  addVar(who, "world")', // 10
  'end()', // 11
  'r = greet(who)', // 12
  'registerEndpoint("/hello", "GET", "", "Hello", greet, out)', // 13
  '',
].join('\n');

async function focusEditor(editor: vscode.TextEditor, line: number, character: number): Promise<void> {
  await vscode.window.showTextDocument(editor.document, { preview: false });
  const at = new vscode.Position(line, character);
  editor.selection = new vscode.Selection(at, at);
  await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
}

describe('language features in VS Code', () => {
  afterEach(async () => {
    await closeAllEditors();
  });

  it('the Outline shows the file’s functions and its endpoint', async () => {
    const editor = await openUntitledAvap(PROGRAM);
    const symbols = await waitFor('document symbols', async () => {
      const found = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
        'vscode.executeDocumentSymbolProvider',
        editor.document.uri,
      );
      return found && found.length > 0 ? found : undefined;
    });
    assert.deepEqual(
      symbols.map((s) => [s.name, vscode.SymbolKind[s.kind]]),
      [
        ['greet', 'Function'],
        ['total', 'Function'],
        ['if(who, "", "=")', 'Namespace'],
        ['GET /hello', 'Event'],
      ],
    );
    await vscode.commands.executeCommand('outline.focus');
    let rows: string[] = [];
    for (let attempt = 0; attempt < 8 && !rows.some((r) => r.includes('total')); attempt++)
      rows = (await captureWorkbench({ screenshot: 'language-outline', settleMs: 800 })).outlineRows;
    assert.ok(
      rows.some((r) => r.includes('greet')) && rows.some((r) => r.includes('total')),
      `Outline rows: ${JSON.stringify(rows)}`,
    );
  });

  it('F12 on a call jumps to the function', async () => {
    const editor = await openUntitledAvap(PROGRAM);
    await focusEditor(editor, 12, 6);
    await captureWorkbench({ keys: [{ press: 'F12', waitMs: 400 }] });
    const selection = await waitFor('the jump', () => {
      const s = vscode.window.activeTextEditor?.selection;
      return s && s.active.line === 0 ? s : undefined;
    });
    assert.deepEqual([selection.start.line, selection.start.character], [0, 9], 'at the name in function greet(name)');
  });

  it('F2 renames a variable everywhere (the request parameter keeps its name)', async () => {
    const editor = await openUntitledAvap(PROGRAM);
    await focusEditor(editor, 8, 17);
    await captureWorkbench({
      keys: [
        { press: 'F2', waitMs: 1000 },
        { press: 'Control+a' },
        { type: 'visitor' },
        { press: 'Enter', waitMs: 800 },
      ],
      screenshot: 'language-rename',
    });
    const text = await waitFor('the rename', () => {
      const now = editor.document.getText();
      return now.includes('visitor') ? now : undefined;
    });
    assert.match(text, /addParam\("who", visitor\)/);
    assert.match(text, /if\(visitor, "", "="\)/);
    assert.match(text, /addVar\(visitor, "world"\)/);
    assert.match(text, /r = greet\(visitor\)/);
    assert.doesNotMatch(text, /\bwho\b(?!")/, 'no use of the variable is left behind');
    // A rename that would change meaning is refused with the reason.
    await assert.rejects(
      Promise.resolve(
        vscode.commands.executeCommand(
          'vscode.executeDocumentRenameProvider',
          editor.document.uri,
          new vscode.Position(1, 10),
          'name',
        ),
      ),
      /'name' is already a variable/,
    );
  });

  it('signature help appears while typing inside RequestGet(', async () => {
    const editor = await openUntitledAvap(`${PROGRAM}\n`);
    await focusEditor(editor, 15, 0);
    const facts = await captureWorkbench({
      keys: [{ type: 'RequestGet(', waitMs: 1200 }],
      screenshot: 'language-signature-help',
    });
    const hints = facts.parameterHints;
    assert.match(hints, /RequestGet\(url, querystring, headers, o_result\)/, `widget: ${JSON.stringify(hints)}`);
    const help = await vscode.commands.executeCommand<vscode.SignatureHelp>(
      'vscode.executeSignatureHelpProvider',
      editor.document.uri,
      new vscode.Position(15, 11),
    );
    assert.equal(help?.activeParameter, 0);
    assert.match(
      (help?.signatures[0]?.parameters[0]?.documentation as vscode.MarkdownString).value,
      /`url` \(variable\)/,
    );
  });

  it('Format Document indents a block', async () => {
    const editor = await openUntitledAvap('if(a,b,"=")\naddVar(x,1)\nend()\n');
    await focusEditor(editor, 0, 0);
    await vscode.commands.executeCommand('editor.action.formatDocument');
    const text = await waitFor('the formatting', () => {
      const now = editor.document.getText();
      return now.includes('  addVar') ? now : undefined;
    });
    assert.equal(text, 'if(a, b, "=")\n  addVar(x, 1)\nend()\n');
  });

  it('formats on save with "[avap]": { "editor.formatOnSave": true }, and formats a selection', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'avap-format-')), 'save.avap');
    writeFileSync(file, 'startLoop(i,1,3)\naddVar(x,i)\nendLoop()\n');
    const avap = vscode.workspace.getConfiguration('', { languageId: 'avap' });
    await avap.update('editor.formatOnSave', true, vscode.ConfigurationTarget.Global, true);
    try {
      const editor = await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
      // The formatter loads with the first request; on save VS Code waits for it only 750 ms, so it is loaded first.
      await vscode.commands.executeCommand('vscode.executeFormatDocumentProvider', editor.document.uri, {
        tabSize: 2,
        insertSpaces: true,
      });
      await editor.edit((e) => e.insert(new vscode.Position(3, 0), 'addResult(x)   \n'));
      assert.ok(await editor.document.save());
      assert.equal(readFileSync(file, 'utf8'), 'startLoop(i, 1, 3)\n  addVar(x, i)\nendLoop()\naddResult(x)\n');
    } finally {
      await avap.update('editor.formatOnSave', undefined, vscode.ConfigurationTarget.Global, true);
    }
    const selection = await openUntitledAvap('if(a,b,"=")\naddVar(x,1)\naddVar(y,2)\nend()\n');
    selection.selection = new vscode.Selection(1, 0, 1, 5);
    await vscode.commands.executeCommand('editor.action.formatSelection');
    const text = await waitFor('the selection formatted', () => {
      const now = selection.document.getText();
      return now.includes('  addVar(x, 1)') ? now : undefined;
    });
    assert.equal(text, 'if(a,b,"=")\n  addVar(x, 1)\naddVar(y,2)\nend()\n', 'only the selected line');
  });

  it('serves semantic tokens, inlay hints, folding, references and highlights for avap', async () => {
    const editor = await openUntitledAvap(PROGRAM);
    const uri = editor.document.uri;
    const tokens = await waitFor('semantic tokens', async () =>
      vscode.commands.executeCommand<vscode.SemanticTokens | undefined>('vscode.provideDocumentSemanticTokens', uri),
    );
    assert.ok(tokens.data.length > 0 && tokens.data.length % 5 === 0);
    const hints = await vscode.commands.executeCommand<vscode.InlayHint[]>(
      'vscode.executeInlayHintProvider',
      uri,
      new vscode.Range(0, 0, 14, 0),
    );
    assert.ok(
      hints.some((h) => h.label === ': variable' && h.position.line === 1),
      JSON.stringify(hints),
    );
    const folds = await vscode.commands.executeCommand<vscode.FoldingRange[]>(
      'vscode.executeFoldingRangeProvider',
      uri,
    );
    assert.deepEqual(
      folds.map((f) => [f.start, f.end]),
      [
        [0, 2],
        [4, 6],
        [9, 10],
      ],
    );
    const refs = await vscode.commands.executeCommand<vscode.Location[]>(
      'vscode.executeReferenceProvider',
      uri,
      new vscode.Position(0, 10),
    );
    assert.deepEqual(
      refs.map((l) => l.range.start.line),
      [0, 12, 13],
    );
  });
});
