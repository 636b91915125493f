/**
 * In the real VS Code: Generate at Cursor (a pending
 * change with Accept / Reject, a diff for replacements, squiggles at once,
 * Regenerate with Trace on its lines, a missing model), Fix All Auto-fixable
 * Problems and `source.fixAll.avap` on save, previews and notifications, and
 * the metrics page at sidebar width. Screenshots go to test-output/.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { FixAllOutcome } from '../../src/editor/diagnostics/fixAll';
import type { AtCursorOutcome } from '../../src/editor/generate/generateAtCursor';
import type { GenerateOutcome, RegenerateOutcome } from '../../src/editor/generate/generateCommands';
import {
  avapApi,
  closeAllEditors,
  openUntitledAvap,
  parserDiagnostics,
  setSetting,
  waitFor,
} from './support/vscodeHelpers';
import { captureWorkbench, type WorkbenchFacts } from './support/workbench';
import { fenced, INVALID_CODE, scriptedOllama, scriptReformulate, task, VALID_CODE } from './support/world';

const AROUND = 'addParam(user, u)\n\naddResult(u)\n';
/** Three errors with proven fixes: an invented command, a Python loop, a statement terminator. */
const FIXABLE =
  'addParam(password, p)\ngetSHA256(p, h)\nfor i in range(1, 6):\n    addResult(h)\naddVar(x, 1);\naddResult(x)\n';

const lensTitles = async (uri: vscode.Uri) =>
  ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? []).map(
    (l) => l.command?.title ?? '',
  );

/** Captures until a notification containing `text` is on screen (a progress toast may still be closing): its facts and index. */
async function captureNotification(
  text: string,
  screenshot: string,
): Promise<{ facts: WorkbenchFacts; index: number }> {
  let facts: WorkbenchFacts | undefined;
  for (let attempt = 0; attempt < 6; attempt++) {
    facts = await captureWorkbench({ screenshot, settleMs: 1000 });
    const index = facts.notifications.findIndex((n) => n.includes(text));
    if (index >= 0) return { facts, index };
  }
  assert.fail(`no notification with "${text}": ${JSON.stringify(facts?.notifications)}`);
}

async function clearNotifications(): Promise<void> {
  await vscode.commands.executeCommand('notifications.clearAll');
}

function contributed(): {
  commands: { command: string; title: string; category?: string }[];
  keybindings: { command: string; key: string; mac?: string; when?: string }[];
  menus: Record<string, { command: string; when?: string }[]>;
} {
  const extension = vscode.extensions.getExtension('avap-tools.avap-assistant');
  assert.ok(extension);
  return (extension.packageJSON as { contributes: ReturnType<typeof contributed> }).contributes;
}

describe('Generate at Cursor', () => {
  afterEach(async () => {
    await closeAllEditors();
    await clearNotifications();
  });

  it('is "AVAP: Generate at Cursor" on Ctrl+I / Cmd+I in .avap editors and in the editor context menu', () => {
    const c = contributed();
    const command = c.commands.find((x) => x.command === 'avap.generateAtCursor');
    assert.equal(command?.title, 'Generate at Cursor');
    assert.equal(command?.category, 'AVAP');
    const key = c.keybindings.find((k) => k.command === 'avap.generateAtCursor');
    assert.equal(key?.key, 'ctrl+i');
    assert.equal(key?.mac, 'cmd+i');
    assert.match(key?.when ?? '', /editorLangId == avap/);
    assert.ok(c.menus['editor/context']?.some((m) => m.command === 'avap.generateAtCursor'));
  });

  it('valid answer: inserted at the cursor as a pending change, labelled valid, accepted with Accept', async () => {
    const ollama = await scriptedOllama();
    scriptReformulate(ollama);
    const gen = ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    const api = await avapApi();
    const editor = await openUntitledAvap(AROUND);
    editor.selection = new vscode.Selection(1, 0, 1, 0);
    const outcome = await vscode.commands.executeCommand<AtCursorOutcome>('avap.generateAtCursor', {
      request: 'hash the password',
    });
    assert.equal(outcome.status, '');
    assert.equal(outcome.change, 'pending');
    assert.equal(gen.used, 1);
    assert.equal(editor.document.getText(), `addParam(user, u)\n${VALID_CODE}\naddResult(u)\n`);
    assert.deepEqual(outcome.range, { start: { line: 1, character: 0 }, end: { line: 3, character: 12 } });
    const titles = await lensTitles(editor.document.uri);
    assert.ok(
      titles.some((t) => t.includes('AVAP: valid')),
      titles.join(' | '),
    );
    assert.ok(titles.some((t) => t.includes('Accept')) && titles.some((t) => t.includes('Reject')), titles.join(' | '));
    await waitFor('the inserted lines validated', () => (api.statusLook()?.kind === 'valid' ? true : undefined));
    assert.equal(parserDiagnostics(editor.document.uri).length, 0);

    const { facts, index: toast } = await captureNotification(
      'Generated code at the cursor: AVAP: valid',
      'generate-at-cursor-pending',
    );
    assert.ok(
      facts.codeLenses.some((t) => /Accept/.test(t)),
      JSON.stringify(facts.codeLenses),
    );
    assert.equal(facts.notificationSeverities[toast], 'info');

    assert.equal(await vscode.commands.executeCommand<boolean>('avap.acceptPendingChange', editor.document.uri), true);
    assert.equal(editor.document.getText(), `addParam(user, u)\n${VALID_CODE}\naddResult(u)\n`);
    const after = await lensTitles(editor.document.uri);
    assert.ok(!after.some((t) => t.includes('Accept')), after.join(' | '));
  });

  it('invalid answer (after the one retry): inserted with the invalid label and a warning, squiggles at once; Regenerate with Trace corrects its lines; Reject puts back the text', async () => {
    const ollama = await scriptedOllama();
    scriptReformulate(ollama);
    const gen = ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(INVALID_CODE) });
    const api = await avapApi();
    const editor = await openUntitledAvap(AROUND);
    editor.selection = new vscode.Selection(1, 0, 1, 0);
    const outcome = await vscode.commands.executeCommand<AtCursorOutcome>('avap.generateAtCursor', {
      request: 'hash the password',
    });
    assert.equal(outcome.status, 'INVALID_UNRESOLVED');
    assert.equal(gen.used, 2, 'one generation and exactly one retry');
    assert.equal(outcome.change, 'pending');
    assert.ok(editor.document.getText().includes(INVALID_CODE));
    const [squiggle] = await waitFor('squiggles on the inserted lines', () => {
      const found = parserDiagnostics(editor.document.uri);
      return found.length > 0 ? found : undefined;
    });
    assert.equal(squiggle?.range.start.line, 2, 'on the inserted getSHA256 line');
    await waitFor('invalid status', () => (api.statusLook()?.kind === 'invalid' ? true : undefined));
    const titles = await lensTitles(editor.document.uri);
    assert.ok(
      titles.some((t) => t.includes('AVAP: invalid — INVALID_UNRESOLVED')),
      titles.join(' | '),
    );
    assert.ok(
      titles.some((t) => t.includes('Regenerate with Trace')),
      titles.join(' | '),
    );

    const { facts, index: toast } = await captureNotification(
      'Generated code at the cursor: AVAP: invalid',
      'generate-at-cursor-invalid',
    );
    assert.equal(facts.notificationSeverities[toast], 'warning', 'an invalid answer warns');
    assert.ok(facts.squigglyErrors > 0);

    // Regenerate with Trace on the pending lines (as its CodeLens does): only those lines go to the model.
    ollama.reset();
    const fix = ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    const range = new vscode.Range(
      outcome.range!.start.line,
      outcome.range!.start.character,
      outcome.range!.end.line,
      outcome.range!.end.character,
    );
    const regenerated = await vscode.commands.executeCommand<RegenerateOutcome>('avap.regenerateWithTrace', {
      uri: editor.document.uri,
      accept: true,
      range,
    });
    assert.equal(regenerated.status, '');
    assert.equal(regenerated.applied, true);
    assert.equal(fix.used, 1);
    assert.equal(editor.document.getText(), `addParam(user, u)\n${VALID_CODE}\naddResult(u)\n`);
    await waitFor('no squiggles after the correction', () =>
      parserDiagnostics(editor.document.uri).length === 0 ? true : undefined,
    );
    const edited = await lensTitles(editor.document.uri);
    assert.ok(
      edited.some((t) => t.includes('edited')),
      `still pending, marked edited: ${edited.join(' | ')}`,
    );

    assert.equal(await vscode.commands.executeCommand<boolean>('avap.rejectPendingChange', editor.document.uri), true);
    assert.equal(editor.document.getText(), AROUND, 'Reject puts back what was there');
  });

  it("replacing a selection opens a diff beside; Reject restores the selection's text", async () => {
    const ollama = await scriptedOllama();
    scriptReformulate(ollama);
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    await avapApi();
    const editor = await openUntitledAvap(AROUND);
    editor.selection = new vscode.Selection(2, 0, 3, 0);
    const outcome = await vscode.commands.executeCommand<AtCursorOutcome>('avap.generateAtCursor', {
      request: 'return the hash too',
    });
    assert.equal(outcome.status, '');
    assert.equal(outcome.replaced, true);
    assert.equal(editor.document.getText(), `addParam(user, u)\n\n${VALID_CODE}\n`);
    const diff = await waitFor('the diff of the replacement', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find(
          (t) =>
            t.input instanceof vscode.TabInputTextDiff &&
            t.input.modified.toString() === editor.document.uri.toString(),
        ),
    );
    assert.match(diff.label, /before ↔ generated/);
    const titles = await lensTitles(editor.document.uri);
    assert.ok(
      titles.some((t) => t.includes('Show Diff')),
      titles.join(' | '),
    );
    await captureWorkbench({ screenshot: 'generate-at-cursor-replace-diff', settleMs: 1200 });
    assert.equal(await vscode.commands.executeCommand<boolean>('avap.rejectPendingChange', editor.document.uri), true);
    assert.equal(editor.document.getText(), AROUND);
  });

  it('no model pulled: nothing is inserted; an error offers the exact `ollama pull` line', async () => {
    const ollama = await scriptedOllama();
    scriptReformulate(ollama);
    const api = await avapApi();
    await setSetting('ollama.model', 'absent-model:1b');
    try {
      await api.ready();
      const editor = await openUntitledAvap(AROUND);
      editor.selection = new vscode.Selection(1, 0, 1, 0);
      const outcome = await vscode.commands.executeCommand<AtCursorOutcome>('avap.generateAtCursor', {
        request: 'hash the password',
      });
      assert.equal(outcome.status, 'error');
      assert.equal(outcome.change, 'none');
      assert.equal(editor.document.getText(), AROUND);
      const { facts, index: toast } = await captureNotification(
        'generate at cursor failed',
        'generate-at-cursor-no-model',
      );
      assert.equal(facts.notificationSeverities[toast], 'error');
      assert.match(facts.notifications[toast] ?? '', /ollama pull absent-model:1b/);
      assert.match(facts.notifications[toast] ?? '', /Pull Model/, 'the fix is a button');
      assert.equal(
        (facts.notifications[toast] ?? '').split('ollama pull absent-model:1b').length - 1,
        1,
        'the line once, not repeated',
      );
    } finally {
      await setSetting('ollama.model', undefined);
      await api.ready();
    }
  });

  it('cancel: the stalled run is aborted and nothing is inserted', async () => {
    const ollama = await scriptedOllama();
    scriptReformulate(ollama);
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { stall: true });
    await avapApi();
    const editor = await openUntitledAvap(AROUND);
    const running = vscode.commands.executeCommand<AtCursorOutcome>('avap.generateAtCursor', {
      request: 'hash the password',
    });
    await ollama.waitFor((r) => task('generate_code')(r));
    assert.equal(await vscode.commands.executeCommand<number>('avap.cancelGeneration'), 1);
    const outcome = await running;
    assert.equal(outcome.status, 'cancelled');
    assert.equal(outcome.change, 'none');
    assert.equal(editor.document.getText(), AROUND);
  });
});

describe('Fix All Auto-fixable Problems', () => {
  afterEach(async () => {
    await closeAllEditors();
    await clearNotifications();
  });

  it('applies every proven fix in one edit and re-validates; the per-diagnostic quick fixes stay', async () => {
    const c = contributed();
    assert.equal(c.commands.find((x) => x.command === 'avap.fixAll')?.title, 'Fix All Auto-fixable Problems');
    const api = await avapApi();
    // A file of its own (a new untitled document can take the name of one the tests above just closed).
    const file = vscode.Uri.file(path.join(mkdtempSync(path.join(tmpdir(), 'avap-e2e-fixall-')), 'fixable.avap'));
    // Written through the editor's file service, so it knows the file as it is on disk.
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(FIXABLE));
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file), {
      preview: false,
    });
    const uri = editor.document.uri;
    await waitFor('three errors', () => (parserDiagnostics(uri).length >= 3 ? true : undefined)).catch((err: Error) => {
      throw new Error(
        `${err.message}: ${JSON.stringify(parserDiagnostics(uri).map((d) => d.message))} ${JSON.stringify(api.statusLook())}`,
      );
    });
    const quick = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      new vscode.Range(1, 0, 1, 9),
      vscode.CodeActionKind.QuickFix.value,
    );
    const quickTitles = quick.map((a) => a.title);
    assert.ok(quickTitles.includes("Replace 'getSHA256' with 'encodeSHA256'"), quickTitles.join(' | '));
    assert.ok(quickTitles.includes('Fix All Auto-fixable Problems (AVAP)'), quickTitles.join(' | '));
    const source = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      new vscode.Range(0, 0, 0, 0),
      'source.fixAll.avap',
    );
    assert.equal(source.length, 1);
    assert.match(source[0]?.title ?? '', /^Fix All Auto-fixable Problems \(3 fixes\)$/);
    assert.equal(source[0]?.kind?.value, 'source.fixAll.avap');
    await captureWorkbench({ screenshot: 'fix-all-before', settleMs: 800 });

    const outcome = await vscode.commands.executeCommand<FixAllOutcome>('avap.fixAll');
    assert.equal(outcome.stop, 'valid');
    assert.equal(outcome.state?.kind, 'valid');
    assert.equal(outcome.applied.length, 3, JSON.stringify(outcome.applied));
    const fixed = editor.document.getText();
    assert.match(fixed, /^addParam\(password, p\)\nencodeSHA256\(p, h\)\nstartLoop\(i, 1, 5\)\n/);
    assert.doesNotMatch(fixed, /;/);
    await waitFor('no squiggles', () => (parserDiagnostics(uri).length === 0 ? true : undefined));
    await waitFor('valid status', () => (api.statusLook()?.kind === 'valid' ? true : undefined));
    await captureWorkbench({ screenshot: 'fix-all-after', settleMs: 800 });
    // One edit: one undo takes all of it back.
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), FIXABLE);
  });

  it('"editor.codeActionsOnSave": {"source.fixAll.avap": "explicit"} fixes a file when it is saved', async () => {
    await avapApi();
    const dir = mkdtempSync(path.join(tmpdir(), 'avap-e2e-fixall-'));
    const file = path.join(dir, 'save.avap');
    await vscode.workspace.fs.writeFile(vscode.Uri.file(file), new TextEncoder().encode(FIXABLE));
    const config = vscode.workspace.getConfiguration('editor', { languageId: 'avap' });
    await config.update(
      'codeActionsOnSave',
      { 'source.fixAll.avap': 'explicit' },
      vscode.ConfigurationTarget.Global,
      true,
    );
    try {
      const doc = await vscode.workspace.openTextDocument(file);
      const editor = await vscode.window.showTextDocument(doc);
      await waitFor('errors', () => (parserDiagnostics(doc.uri).length >= 3 ? true : undefined));
      await editor.edit((e) => e.insert(new vscode.Position(doc.lineCount - 1, 0), '// saved\n'));
      // As the developer saves: File: Save on the active editor (explicit, so the 'explicit' actions run).
      await vscode.commands.executeCommand('workbench.action.files.save');
      await waitFor('the file saved', () => (doc.isDirty ? undefined : true)).catch((err: Error) => {
        throw new Error(`${err.message}: still dirty, text ${JSON.stringify(doc.getText())}`);
      });
      const saved = readFileSync(file, 'utf8');
      assert.match(saved, /encodeSHA256\(p, h\)/, saved);
      assert.match(saved, /startLoop\(i, 1, 5\)/, saved);
      assert.match(saved, /\/\/ saved/);
      await waitFor('no squiggles after save', () => (parserDiagnostics(doc.uri).length === 0 ? true : undefined));
    } finally {
      await config.update('codeActionsOnSave', undefined, vscode.ConfigurationTarget.Global, true);
    }
  });
});

describe('previews, notifications and the metrics page', () => {
  afterEach(async () => {
    await closeAllEditors();
    await clearNotifications();
  });

  it('with no editor open, the preview opens in the active group (not beside an empty one); an invalid answer warns', async () => {
    const ollama = await scriptedOllama();
    scriptReformulate(ollama);
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(INVALID_CODE) });
    await avapApi();
    await closeAllEditors();
    await vscode.commands.executeCommand('workbench.action.closeEditorsAndGroup');
    assert.equal(vscode.window.tabGroups.all.length, 1);
    const outcome = await vscode.commands.executeCommand<GenerateOutcome>('avap.generateCode', {
      request: 'hash the password',
    });
    assert.equal(outcome.status, 'INVALID_UNRESOLVED');
    assert.equal(vscode.window.tabGroups.all.length, 1, 'no second group');
    const tab = vscode.window.tabGroups.activeTabGroup.tabs.find(
      (t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === outcome.previewUri,
    );
    assert.ok(tab, 'the preview is in the active group');
    const { facts, index: toast } = await captureNotification(
      'Generated code: AVAP: invalid',
      'preview-active-group-invalid-warning',
    );
    assert.equal(facts.notificationSeverities[toast], 'warning');
  });

  it('the metrics page reads at sidebar width: rows that wrap, no label cut short', async () => {
    await avapApi();
    const panel = await vscode.commands.executeCommand<vscode.WebviewPanel>('avap.showValidationMetrics');
    const html = panel.webview.html;
    assert.match(html, /<div class="bar invalid"><span class="label" title="[^"]+">[^<…]+<\/span><svg class="track"/);
    assert.doesNotMatch(html, /gen\. \(/, 'no abbreviated notes');
    assert.doesNotMatch(html, /…<\/text>/);
    // The editor at about a side bar's width: the window narrowed and the side bar closed.
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    try {
      await captureWorkbench({
        screenshot: 'metrics-sidebar-width',
        settleMs: 1200,
        viewport: { width: 420, height: 900 },
      });
    } finally {
      await vscode.commands.executeCommand('workbench.action.toggleSidebarVisibility');
    }
    await captureWorkbench({ screenshot: 'metrics-wide', settleMs: 800 });
    panel.dispose();
  });
});
