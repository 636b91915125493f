/**
 * Running AVAP in the real VS Code: AVAP that runs where developers work. A file runs on the sandboxed runtime and
 * its response is read in the result view; each line shows the value it assigned until an edit clears it; an
 * uncaught error is a diagnostic of its own on its line; the Testing view runs a file's cases and shows a
 * failure as a diff at the line that produced the wrong value; a generated change pending at the cursor and a
 * chat code block run before they are accepted. Assertions are on what the workbench shows (DOM captures, the
 * result view's DOM through its test hooks, diagnostics, code lenses), waited for, never paced by pauses.
 * Screenshots go to test-output/.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AtCursorOutcome } from '../../src/editor/generate/generateAtCursor';
import type { RunOutcome, RunViewProbe, TestSummary } from '../../src/editor/run/bundleApi';
import {
  avapApi,
  chatHooks,
  closeAllEditors,
  openAvap,
  openUntitledAvap,
  parserDiagnostics,
  setSetting,
  waitFor,
  workspaceFile,
} from './support/vscodeHelpers';
import { captureWorkbench, type WorkbenchFacts } from './support/workbench';
import { fenced, scriptedOllama, scriptReformulate, task, VALID_CODE } from './support/world';

const runtimeDiagnostics = (uri: vscode.Uri) =>
  vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'avap-runtime');

const lensTitles = async (uri: vscode.Uri) =>
  ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? []).map(
    (l) => l.command?.title ?? '',
  );

async function runHooks() {
  const api = await avapApi();
  assert.ok(api.testing, 'the runner starts the extension in test mode');
  return api.testing.run;
}

/** The result view once it shows a finished run matching `done`. */
async function resultView(done: (probe: RunViewProbe) => boolean, what: string): Promise<RunViewProbe> {
  const hooks = await runHooks();
  return waitFor(what, async () => {
    const probe = await hooks.probe().catch(() => undefined);
    return probe && !probe.running && done(probe) ? probe : undefined;
  });
}

/** Captures the workbench until `check` holds (the workbench paints what the extension host just did). */
async function captureUntil(
  what: string,
  check: (facts: WorkbenchFacts) => boolean,
  screenshot?: string,
): Promise<WorkbenchFacts> {
  let last: WorkbenchFacts | undefined;
  for (let attempt = 0; attempt < 12; attempt++) {
    last = await captureWorkbench({ settleMs: 300, ...(screenshot ? { screenshot } : {}) });
    if (check(last)) return last;
  }
  const { statusItems: _statusItems, editorTokenColors: _colours, ...facts } = last ?? ({} as WorkbenchFacts);
  assert.fail(`${what}: ${JSON.stringify(facts, null, 1).slice(0, 4000)}`);
}

async function setText(editor: vscode.TextEditor, text: string): Promise<void> {
  const whole = new vscode.Range(0, 0, editor.document.lineCount, 0);
  assert.ok(await editor.edit((e) => e.replace(whole, text)));
}

describe('running AVAP in the editor', function () {
  this.timeout(180_000);

  before(async () => {
    await avapApi();
    await closeAllEditors();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  after(async () => {
    await closeAllEditors();
  });

  it('Run File: ▶ Run on the first line, the response in the result view, every line clickable to the file', async () => {
    const editor = await openAvap('run/age-check.avap');
    const titles = await lensTitles(editor.document.uri);
    assert.ok(titles.includes('$(play) Run'), titles.join(' | '));
    assert.ok(titles.includes('Edit Request'), titles.join(' | '));

    const outcome = await vscode.commands.executeCommand<RunOutcome>('avap.runFile');
    assert.equal(outcome.status, 200);
    assert.deepEqual(outcome.result, { verdict: 'adult' });
    assert.equal(outcome.request, 'GET ?age=30', 'the request file beside the program');

    const view = await resultView((p) => p.status.startsWith('200'), 'the response in the result view');
    assert.equal(view.title, 'age-check.avap');
    assert.equal(view.status, '200 OK');
    assert.equal(view.request, 'GET ?age=30');
    assert.match(view.body, /"verdict"\s*:\s*"adult"/);
    assert.ok(view.folds >= 1, 'the response folds');
    assert.deepEqual(view.logs, ['2✓ addParam', '3✓ if', '8✓ addResult']);
    assert.ok(
      view.portability.some((n) => n.includes('addparam-numeric-text')),
      view.portability.join('\n'),
    );
    assert.deepEqual(view.steps, [
      '2 | addParam | years = 30',
      '3 | if | ',
      '4 | addVar | verdict = "adult"',
      '8 | addResult | ',
    ]);
    const facts = await captureUntil(
      'the result view beside the file',
      (f) => f.editorTabs.some((t) => t.includes('AVAP Run')),
      'run-result-view',
    );
    assert.ok(
      facts.editorTabs.some((t) => t.includes('age-check.avap')),
      facts.editorTabs.join(' | '),
    );

    // A step's line number opens the program at that line.
    assert.equal(await (await runHooks()).click('4'), true);
    await waitFor('the program at line 4', () => {
      const active = vscode.window.activeTextEditor;
      return active?.document.uri.toString() === editor.document.uri.toString() && active.selection.start.line === 3
        ? true
        : undefined;
    });
  });

  it('a run never blocks the editor and can be cancelled from the result view', async () => {
    await setSetting('run.timeout', 120);
    await setSetting('run.maxSteps', 1_000_000_000);
    try {
      const editor = await openUntitledAvap('startLoop(i, 1, 1000000000)\n  addVar(x, i)\nendLoop()\naddResult(x)\n');
      const running = vscode.commands.executeCommand<RunOutcome>('avap.runFile', {
        uri: editor.document.uri.toString(),
      });
      const hooks = await runHooks();
      await waitFor('the run going on in the result view', async () => {
        const probe = await hooks.probe().catch(() => undefined);
        return probe?.running ? true : undefined;
      });
      // The extension host answers while the program loops in a worker.
      const titles = await lensTitles(editor.document.uri);
      assert.ok(titles.includes('$(play) Run'), titles.join(' | '));
      assert.equal(await hooks.click('Cancel'), true);
      const outcome = await running;
      assert.equal(outcome.error?.code, 'cancelled');
      assert.equal(outcome.status, 500);
      const view = await resultView((p) => p.status.startsWith('500'), 'the cancelled run');
      assert.match(view.error, /cancelled/);
    } finally {
      await setSetting('run.timeout', undefined);
      await setSetting('run.maxSteps', undefined);
    }
  });

  it("Edit Run Request… makes the request file beside the program, asking for each parameter it reads; an untitled copy of a shipped example runs with the example's request", async () => {
    const editor = await openAvap('run/hash.avap');
    await setText(editor, '// Hashes the "password" request parameter.\naddParam(password, p)\n');
    const file = await vscode.commands.executeCommand<string>('avap.editRunRequest', {
      uri: editor.document.uri.toString(),
    });
    assert.equal(vscode.Uri.parse(file).path, editor.document.uri.path.replace(/\.avap$/, '.avap.request.json'));
    const opened = await waitFor('the request file in an editor', () =>
      vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === file),
    );
    assert.deepEqual(JSON.parse(opened.document.getText()), {
      request: { method: 'GET', query: { password: '' }, headers: {}, body: null },
      fixtures: [],
      sql: '',
    });
    await vscode.workspace.fs.delete(vscode.Uri.parse(file));
    await setText(editor, '// Hashes the "password" request parameter.\n\n');
    await editor.document.save();

    const shipped = vscode.Uri.joinPath(
      vscode.extensions.getExtension('avap-tools.avap-assistant')?.extensionUri ?? vscode.Uri.file('/'),
      'examples',
      'age-check.avap',
    );
    const copy = await openUntitledAvap(new TextDecoder().decode(await vscode.workspace.fs.readFile(shipped)));
    const outcome = await vscode.commands.executeCommand<RunOutcome>('avap.runFile', {
      uri: copy.document.uri.toString(),
    });
    assert.equal(outcome.request, 'GET ?age=30', "the shipped example's request file");
    assert.deepEqual(outcome.result, { verdict: 'adult' });
  });

  it("a run's database: the request file's SQL seeds an embedded PostgreSQL, fresh for the run, in the runtime's workers", async () => {
    await openAvap('run/users.avap');
    const outcome = await vscode.commands.executeCommand<RunOutcome>('avap.runFile');
    assert.equal(outcome.error, undefined, JSON.stringify(outcome.error));
    assert.equal(outcome.request, 'GET + SQL seed');
    assert.deepEqual(outcome.result, {
      rows: [
        { id: 1, name: 'Ana' },
        { id: 2, name: 'Luis' },
      ],
    });
    const view = await resultView((p) => p.title === 'users.avap', 'the rows in the result view');
    assert.match(view.body, /"name"\s*:\s*"Luis"/);
  });

  it('values in the code after a run (the branch taken), a hover for the whole value; an edit clears them; a setting turns them off', async () => {
    const editor = await openAvap('run/age-check.avap');
    const outcome = await vscode.commands.executeCommand<RunOutcome>('avap.runFile', {
      uri: editor.document.uri.toString(),
    });
    assert.deepEqual(outcome.valueLines, [2, 4], 'addParam and the branch taken; not the else branch');
    const shown = await captureUntil(
      'the values at the ends of the lines',
      (f) => f.afterDecorations.includes('years = 30') && f.afterDecorations.includes('verdict = "adult"'),
      'run-values-in-code',
    );
    assert.ok(!shown.afterDecorations.includes('verdict = "minor"'), shown.afterDecorations.join(' | '));
    const hoverText = async () =>
      (
        await vscode.commands.executeCommand<vscode.Hover[]>(
          'vscode.executeHoverProvider',
          editor.document.uri,
          editor.document.lineAt(3).range.end,
        )
      )
        .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)))
        .join('\n');
    assert.match(await hoverText(), /Line 4 assigned:\s+verdict = "adult"/);

    await editor.edit((e) => e.insert(new vscode.Position(7, 0), ' '));
    await captureUntil('the values gone after an edit', (f) => !f.afterDecorations.some((t) => t.includes('verdict')));
    assert.doesNotMatch(await hoverText(), /assigned/, 'no hover for values that are gone');
    await editor.edit((e) => e.delete(new vscode.Range(7, 0, 7, 1)));
    await editor.document.save();

    await setSetting('run.showValues', false);
    try {
      const quiet = await vscode.commands.executeCommand<RunOutcome>('avap.runFile', {
        uri: editor.document.uri.toString(),
      });
      assert.deepEqual(quiet.valueLines, [], 'avap.run.showValues off: no values');
      await captureUntil('no values when they are off', (f) => !f.afterDecorations.some((t) => t.includes('verdict')));
    } finally {
      await setSetting('run.showValues', undefined);
    }
  });

  it('an uncaught run-time error: a diagnostic of its own (avap-runtime) on its line, apart from the parser; the next edit clears it', async () => {
    const editor = await openAvap('run/pick-item.avap');
    const api = await avapApi();
    await waitFor('the parser has judged the file valid', () =>
      api.statusLook()?.kind === 'valid' ? true : undefined,
    );
    const outcome = await vscode.commands.executeCommand<RunOutcome>('avap.runFile');
    assert.equal(outcome.status, 500);
    assert.equal(outcome.error?.code, 'index-error');
    assert.equal(outcome.error?.line, 4);
    const [diagnostic, ...more] = await waitFor('the run-time diagnostic', () => {
      const found = runtimeDiagnostics(editor.document.uri);
      return found.length ? found : undefined;
    });
    assert.equal(more.length, 0);
    assert.equal(diagnostic?.range.start.line, 3);
    assert.equal(diagnostic?.code, 'index-error');
    assert.equal(diagnostic?.severity, vscode.DiagnosticSeverity.Error);
    assert.match(diagnostic?.message ?? '', /itemFromList: list index out of range/);
    assert.equal(parserDiagnostics(editor.document.uri).length, 0, 'the parser still finds the code well formed');
    assert.equal(api.statusLook()?.kind, 'valid', 'a run-time error does not change the parser verdict');
    const view = await resultView((p) => p.status.startsWith('500'), 'the error in the result view');
    assert.match(view.error, /line 4/);
    assert.match(view.error, /index-error/);
    await captureUntil('the error squiggle', (f) => f.squigglyErrors > 0, 'run-runtime-error');

    await editor.edit((e) => e.insert(new vscode.Position(0, 0), ' '));
    await waitFor('the run-time diagnostic cleared by the edit', () =>
      runtimeDiagnostics(editor.document.uri).length === 0 ? true : undefined,
    );
    await editor.edit((e) => e.delete(new vscode.Range(0, 0, 0, 1)));
    await editor.document.save();
  });

  it("the Testing view: a file's cases, a failing one with its diff at the line that produced the wrong value, gutter icons", async () => {
    const program = workspaceFile('run/age-check.avap');
    // The Testing view as a list, so each case is a row; the program on screen, where the failure is peeked at.
    await vscode.commands.executeCommand('workbench.view.testing.focus');
    await vscode.commands.executeCommand('testing.viewAsList');
    await openAvap('run/age-check.avap');
    const summary = await vscode.commands.executeCommand<TestSummary>('avap.testFile', { uri: program.toString() });
    assert.deepEqual(summary, { total: 2, passed: 1, failed: 1, errored: 0 });
    const rows = await captureUntil(
      'the cases in the Testing view',
      (f) =>
        f.testingRows.some((r) => r.includes('thirty is an adult')) &&
        f.testingRows.some((r) => r.includes('seventeen is an adult')),
      'run-testing-view',
    );
    assert.match(
      rows.testingRows.find((r) => r.includes('seventeen is an adult')) ?? '',
      /Failed/,
      rows.testingRows.join(' | '),
    );
    assert.match(
      rows.testingRows.find((r) => r.includes('thirty is an adult')) ?? '',
      /Passed/,
      rows.testingRows.join(' | '),
    );

    // The failure is shown on the program at line 6 — addVar(verdict, "minor"), which set the wrong value — and
    // peeked at there (Testing: Peek Output): a diff of the expected fields against the actual ones.
    await captureUntil('the failure inline on the program', (f) => f.testingGlyphs.some((g) => g.includes('failed')));
    await vscode.commands.executeCommand('testing.openOutputPeek');
    const peek = await captureUntil(
      'the failure peek with its diff',
      (f) => f.testingPeek.some((p) => p.diffEditors > 0),
      'run-testing-diff',
    );
    const shown = peek.testingPeek.find((p) => p.diffEditors > 0);
    assert.match(shown?.text ?? '', /result\.verdict: expected "adult", got "minor"/);
    assert.match(shown?.text ?? '', /seventeen is an adult/);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), program.toString());
    assert.equal(vscode.window.activeTextEditor?.selection.start.line, 5, 'the peek is on line 6');
    await vscode.commands.executeCommand('closeReferenceSearch');
    const glyphs = await captureUntil('the outcome in the gutter', (f) => f.testingGlyphs.length > 0);
    assert.ok(
      glyphs.testingGlyphs.some((g) => /failed/.test(g)),
      glyphs.testingGlyphs.join(' '),
    );
  });

  it('Add Test Case from Last Run: the request and response become a case, which passes', async () => {
    const editor = await openAvap('run/age-check.avap');
    await vscode.commands.executeCommand<RunOutcome>('avap.runFile', { uri: editor.document.uri.toString() });
    const added = await vscode.commands.executeCommand<{ testFile: string; name: string }>(
      'avap.addTestCaseFromLastRun',
      { uri: editor.document.uri.toString(), name: 'thirty, from the last run' },
    );
    assert.equal(added.name, 'thirty, from the last run');
    const testFile = vscode.workspace.textDocuments.find((d) => d.uri.toString() === added.testFile);
    assert.ok(testFile);
    const cases = (JSON.parse(testFile.getText()) as { cases: { name: string; expect: unknown }[] }).cases;
    assert.equal(cases.length, 3);
    assert.deepEqual(cases[2], {
      name: 'thirty, from the last run',
      request: { method: 'GET', query: { age: '30' } },
      expect: { status: 200, result: { verdict: 'adult' }, error: false },
    });
    const summary = await vscode.commands.executeCommand<TestSummary>('avap.testFile', {
      uri: editor.document.uri.toString(),
    });
    assert.deepEqual(summary, { total: 3, passed: 2, failed: 1, errored: 0 });
  });

  it("a generated change pending at the cursor: Run beside Accept, and the file's tests as a badge of their own beside the valid verdict", async () => {
    const ollama = await scriptedOllama();
    scriptReformulate(ollama);
    ollama.on(
      { endpoint: 'chat', when: task('generate_code') },
      { content: fenced('addParam(password, p)\nencodeSHA256(p, h)\naddResult(h)') },
    );
    const editor = await openAvap('run/hash.avap');
    editor.selection = new vscode.Selection(1, 0, 1, 0);
    const outcome = await vscode.commands.executeCommand<AtCursorOutcome>('avap.generateAtCursor', {
      request: 'hash the password',
    });
    try {
      assert.equal(outcome.status, '');
      assert.equal(outcome.change, 'pending');
      const titles = await waitFor("the tests' badge", async () => {
        const t = await lensTitles(editor.document.uri);
        return t.some((x) => x.startsWith('$(error) tests:') || x.startsWith('$(pass) tests:')) ? t : undefined;
      });
      assert.ok(
        titles.some((t) => t.includes('AVAP: valid')),
        titles.join(' | '),
      );
      assert.ok(titles.includes('$(error) tests: 1 of 2 failed'), titles.join(' | '));
      assert.ok(titles.includes('$(play) Run') && titles.some((t) => t.includes('Accept')), titles.join(' | '));
      const api = await avapApi();
      await waitFor('the verdict of the parser stays valid', () =>
        api.statusLook()?.kind === 'valid' ? true : undefined,
      );
      await captureUntil(
        'the badges on screen',
        (f) =>
          f.codeLenses.some((t) => t.includes('tests: 1 of 2 failed')) &&
          f.codeLenses.some((t) => /AVAP: valid/.test(t)),
        'run-pending-change-tests',
      );

      // Run beside Accept: the file runs with the change in it, before it is accepted.
      const run = await vscode.commands.executeCommand<RunOutcome>('avap.runFile', {
        uri: editor.document.uri.toString(),
      });
      assert.equal(run.status, 200);
      assert.ok(typeof run.result.h === 'string', JSON.stringify(run.result));
      assert.equal(editor.document.getText().includes('encodeSHA256(p, h)'), true, 'still pending, not reverted');
    } finally {
      await vscode.commands.executeCommand('avap.rejectPendingChange', editor.document.uri);
    }
    assert.equal(editor.document.getText(), '// Hashes the "password" request parameter.\n\n');
    await editor.document.save();
  });

  it('a chat code block runs before it is inserted: Run beside Insert, its response in the result view', async () => {
    const ollama = await scriptedOllama();
    ollama.on({ endpoint: 'chat', when: task('classify') }, { content: '{"type":"CODE_GENERATION"}' });
    scriptReformulate(ollama);
    ollama.on({ endpoint: 'chat', when: task('relevance') }, { content: 'YES' });
    ollama.on({ endpoint: 'chat', when: task('generate_code') }, { content: fenced(VALID_CODE) });
    await openAvap('run/age-check.avap');
    const result = await (await avapApi()).chat.ask('hash the password parameter');
    assert.equal(result.validationStatus, '');
    const hooks = await chatHooks();
    const block = await waitFor('the final block', async () => {
      const probe = await hooks.probe();
      return probe.lastAnswerFinal && probe.blocks.length ? probe.blocks[0] : undefined;
    });
    assert.deepEqual(block?.actions.slice(0, 2), ['Insert at Cursor', 'Run']);
    assert.equal(await hooks.click('Run', 0), true);
    const view = await resultView((p) => p.title === 'chat block 1', "the block's run in the result view");
    assert.equal(view.status, '200 OK');
    assert.equal(view.request, 'GET ?age=30', 'with the request of the .avap file the developer was in');
    assert.match(view.body, /"h"/);
  });
});
