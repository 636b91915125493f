/**
 * AVAP: Generate at Cursor (Ctrl+I / Cmd+I in .avap editors, and the editor's
 * context menu), as Copilot's and Continue's inline chat: an inline prompt,
 * the whole pipeline (validation, the one retry, the three statuses,
 * cancellation with progress), and the answer's code inserted at the cursor —
 * or in place of the selection — as a *pending change*: highlighted, with
 * CodeLens Accept / Reject (and Show Diff for a replacement, whose diff opens
 * beside), labelled with its verdict. The code is in the document from the
 * start, so the parser's squiggles land on it at once, and Regenerate with
 * Trace works on its lines. Invalid and unvalidated code is inserted too,
 * with the label and a warning that say so. The change can be tried before it
 * is accepted: *Run* runs the file with it (AVAP: Run File), and when the file
 * has test cases (NAME.avap.test.json) they run on it at once — their outcome
 * is a badge of its own beside the parser's verdict, which it never changes.
 *
 * Tests and keybindings drive it without dialogs:
 * `avap.generateAtCursor` `{ request, uri?, decide?: 'accept' | 'reject' }`;
 * `avap.acceptPendingChange` / `avap.rejectPendingChange` `uri?`.
 */
import * as vscode from 'vscode';
import { attemptCount, type ValidationStatus } from '../../core';
import { isAvapDocument } from '../diagnostics/diagnosticsController';
import { testFileOf } from '../../runs/outline';
import type { TestSummary } from '../run/bundleApi';
import { LABEL_NO_CONTEXT, lookForPipelineStatus } from '../status/statusLook';
import { AcceptedCodeTracker, type TrackedDocument } from './acceptedCode';
import { notifyFailure, notifyVerdict } from './notify';
import { PendingRange } from './pendingRange';
import type { GenerateDeps } from './generateCommands';
import { runWithProgress } from './runWithProgress';
import { COMMANDS } from '../commandIds';

/** True while the active editor holds a pending generated change. */
const PENDING_CONTEXT_KEY = 'avap.pendingChange';

/** What Generate at Cursor needs: the Generate commands' dependencies without the parser and diagnostics. */
export type AtCursorDeps = Pick<GenerateDeps, 'assistant' | 'generated' | 'output' | 'settings'>;

/** What Generate at Cursor did (the command resolves with it). */
export interface AtCursorOutcome {
  status: ValidationStatus | 'error' | 'cancelled';
  code: string;
  /** pending: in the document, awaiting Accept/Reject; none: nothing was inserted. */
  change: 'pending' | 'accepted' | 'rejected' | 'none';
  uri?: string;
  /** Where the code sits (0-based), while pending. */
  range?: { start: { line: number; character: number }; end: { line: number; character: number } };
  /** True when it replaced a selection. */
  replaced: boolean;
  error?: string;
}

interface Pending {
  doc: vscode.TextDocument;
  range: PendingRange;
  /** The text it replaced ('' for an insertion). */
  original: string;
  /** True when it replaced a selection (it then has a diff). */
  replaced: boolean;
  code: string;
  status: ValidationStatus;
  generationId: string;
  /** The whole document before the change, for the diff of a replacement. */
  beforeUri: vscode.Uri;
  /** Edited inside since it was inserted (a regenerate of its lines, typing): its verdict is the squiggles'. */
  edited: boolean;
  degraded: boolean;
  /** The file's test cases run on the change: a second badge, separate from the parser's verdict. */
  tests?: { state: 'running' } | { state: 'done'; summary: TestSummary };
}

/** The tests' badge: what the file's cases say about the pending change (never the parser's verdict). */
function testsLabel(tests: NonNullable<Pending['tests']>, edited: boolean): string {
  if (tests.state === 'running') return '$(loading~spin) tests: running…';
  const { total, passed, failed, errored } = tests.summary;
  const since = edited ? ' (before your edit)' : '';
  if (failed === 0 && errored === 0) return `$(pass) tests: ${passed}/${total} passed${since}`;
  const parts = [failed ? `${failed} of ${total} failed` : '', errored ? `${errored} could not run` : ''];
  return `$(error) tests: ${parts.filter(Boolean).join(', ')}${since}`;
}

/** The label of a pending change, as the preview's: its verdict, never "valid" for code the parser did not accept. */
function verdictLabel(p: Pick<Pending, 'status' | 'edited' | 'degraded'>): string {
  if (p.edited) return "$(edit) AVAP: generated code, edited — the squiggles show the parser's verdict";
  const look = lookForPipelineStatus(p.status, true);
  const label = look ? `$(${look.icon}) ${look.label}${p.status ? ` — ${p.status}` : ''}` : 'AVAP: generated code';
  return p.degraded ? `${label} — ${LABEL_NO_CONTEXT}` : label;
}

/** The code as it goes into the line at `at`: the indentation of the line carried on, line breaks around it where needed. */
function shapeInsertion(
  doc: vscode.TextDocument,
  at: vscode.Position,
  code: string,
): { prefix: string; body: string; suffix: string } {
  const line = doc.lineAt(at.line).text;
  const before = line.slice(0, at.character);
  const after = line.slice(at.character);
  const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
  const indent = /^\s*$/.test(before) ? before : (/^\s*/.exec(line)?.[0] ?? '');
  const lines = code.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
  const prefix = /^\s*$/.test(before) ? '' : `${eol}${indent}`;
  const body = lines.map((l, i) => (i === 0 || l === '' ? l : `${indent}${l}`)).join(eol);
  const suffix = after.trim() !== '' ? `${eol}${/^\s*$/.test(before) ? before : indent}` : '';
  return { prefix, body, suffix };
}

export function registerGenerateAtCursor(deps: AtCursorDeps): vscode.Disposable {
  const { assistant, generated, output } = deps;
  const pending = new Map<string, Pending>();
  const lensChanged = new vscode.EventEmitter<void>();
  const highlight = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  const tracked = (doc: vscode.TextDocument): TrackedDocument => ({
    key: doc.uri.toString(),
    isUntitled: doc.isUntitled,
    text: doc.getText(),
  });
  const accepted = new AcceptedCodeTracker((key) => {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    return open ? tracked(open) : undefined;
  });

  const rangeOf = (p: Pending) => new vscode.Range(p.doc.positionAt(p.range.start), p.doc.positionAt(p.range.end));

  function refresh(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const p = pending.get(editor.document.uri.toString());
      editor.setDecorations(highlight, p && p.range.end > p.range.start ? [rangeOf(p)] : []);
    }
    const active = vscode.window.activeTextEditor?.document.uri.toString();
    void vscode.commands.executeCommand('setContext', PENDING_CONTEXT_KEY, active !== undefined && pending.has(active));
    lensChanged.fire();
  }

  function record(generationId: string, outcome: 'accepted' | 'edited' | 'discarded', finalCode?: string): void {
    if (generationId) void assistant.recordOutcome(generationId, outcome, finalCode);
  }

  function find(uri?: unknown): Pending | undefined {
    const key =
      uri instanceof vscode.Uri
        ? uri.toString()
        : typeof uri === 'string'
          ? uri
          : vscode.window.activeTextEditor?.document.uri.toString();
    return key ? pending.get(key) : undefined;
  }

  async function closeDiff(p: Pending): Promise<void> {
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter(
        (t) => t.input instanceof vscode.TabInputTextDiff && t.input.original.toString() === p.beforeUri.toString(),
      );
    if (tabs.length) await Promise.resolve(vscode.window.tabGroups.close(tabs)).catch(() => undefined);
  }

  async function acceptPending(uri?: unknown): Promise<boolean> {
    const p = find(uri);
    if (!p) return false;
    pending.delete(p.doc.uri.toString());
    const code = p.doc.getText(rangeOf(p));
    record(p.generationId, p.edited ? 'edited' : 'accepted', code);
    if (p.generationId) accepted.accept(p.doc.uri.toString(), { generationId: p.generationId, code });
    output.info(`generate at cursor: accepted ${p.generationId || 'the change'}${p.edited ? ' (edited)' : ''}`);
    await closeDiff(p);
    refresh();
    return true;
  }

  async function rejectPending(uri?: unknown): Promise<boolean> {
    const p = find(uri);
    if (!p) return false;
    pending.delete(p.doc.uri.toString());
    const edit = new vscode.WorkspaceEdit();
    edit.replace(p.doc.uri, rangeOf(p), p.original);
    const reverted = await vscode.workspace.applyEdit(edit);
    record(p.generationId, 'discarded');
    output.info(
      `generate at cursor: rejected ${p.generationId || 'the change'}${reverted ? '' : ' (the document could not be reverted)'}`,
    );
    await closeDiff(p);
    refresh();
    return reverted;
  }

  async function generateAtCursor(args?: {
    request?: string;
    uri?: vscode.Uri | string;
    decide?: 'accept' | 'reject';
  }): Promise<AtCursorOutcome | undefined> {
    const wanted = args?.uri === undefined ? undefined : typeof args.uri === 'string' ? args.uri : args.uri.toString();
    const editor = wanted
      ? vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === wanted)
      : vscode.window.activeTextEditor;
    if (!editor || !isAvapDocument(editor.document) || editor.document.uri.scheme === 'avap-generated') {
      void vscode.window.showInformationMessage(
        'AVAP: Generate at Cursor works in an .avap editor — open one, or use AVAP: Generate Code… for a new document.',
      );
      return undefined;
    }
    const doc = editor.document;
    if (pending.has(doc.uri.toString())) {
      void vscode.window
        .showWarningMessage(
          'AVAP: this document has a generated change pending — accept or reject it first.',
          'Accept',
          'Reject',
        )
        .then((c) => {
          if (c === 'Accept') void acceptPending(doc.uri);
          else if (c === 'Reject') void rejectPending(doc.uri);
        });
      return undefined;
    }
    const selection = editor.selection;
    const replacing = !selection.isEmpty;
    const selected = doc.getText(selection);
    const request =
      args?.request ??
      (await vscode.window.showInputBox({
        title: 'AVAP: Generate at Cursor',
        prompt: replacing ? 'Describe how to rewrite the selected code' : 'Describe the code to insert at the cursor',
        placeHolder: replacing
          ? 'e.g. also return the hash in a "hash" field'
          : 'e.g. read the "user" parameter and return it upper-cased',
        ignoreFocusOut: true,
      }));
    if (!request?.trim()) return undefined;
    const version = doc.version;
    const query = replacing
      ? `${request.trim()}\n\nRewrite this AVAP code; the answer replaces it:\n\`\`\`avap\n${selected.replace(/\s+$/, '')}\n\`\`\``
      : request.trim();
    output.info(`generate at cursor: ${request.trim()}`);
    const name = doc.uri.path.split('/').pop() ?? 'document.avap';
    const result = await runWithProgress(
      assistant,
      'AVAP: generating at the cursor',
      { query, forceType: 'CODE_GENERATION', filename: name },
      () => undefined,
    );
    const base = { replaced: replacing, uri: doc.uri.toString() };
    if (result.validationStatus === undefined) {
      const error = result.error ?? { code: 'llm-failed' as const, message: 'the generation produced no answer' };
      output.info(
        `generate at cursor: ${error.code === 'cancelled' ? 'cancelled' : `failed (${error.code}): ${error.message}`} — nothing was inserted`,
      );
      if (error.code === 'cancelled') return { ...base, status: 'cancelled', code: '', change: 'none' };
      notifyFailure('generate at cursor failed', error, {
        settings: deps.settings(),
        output,
        retry: () => generateAtCursor(args),
      });
      return { ...base, status: 'error', code: '', change: 'none', error: error.message };
    }
    const status = result.validationStatus;
    if (result.code.trim() === '') {
      void vscode.window
        .showWarningMessage('AVAP: the answer has no code; nothing was inserted.', 'Show Output')
        .then((c) => c && output.show());
      return { ...base, status, code: '', change: 'none' };
    }
    if (doc.isClosed || doc.version !== version) {
      void vscode.window.showWarningMessage(
        'AVAP: the document changed while the code was generated; nothing was inserted. Run Generate at Cursor again.',
      );
      return { ...base, status, code: result.code, change: 'none' };
    }
    // The document before the change, for the diff of a replacement.
    const beforeUri = generated.create('original', { content: doc.getText(), status: '', request: '' });
    const at = selection.start;
    const shaped = replacing
      ? {
          prefix: '',
          body:
            result.code.replace(/\n+$/, '') +
            (selected.endsWith('\n') ? (doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n') : ''),
          suffix: '',
        }
      : shapeInsertion(doc, at, result.code);
    const startOffset = doc.offsetAt(at) + shaped.prefix.length;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, selection, shaped.prefix + shaped.body + shaped.suffix);
    if (!(await vscode.workspace.applyEdit(edit))) {
      void vscode.window.showWarningMessage(
        'AVAP: the generated code could not be inserted (the document is read-only?).',
      );
      return { ...base, status, code: result.code, change: 'none' };
    }
    // A selection of whole lines and its replacement both end with a line break: the pending range and what
    // Reject puts back leave that break out alike, so Reject restores the text exactly.
    const trailing = /\r?\n$/.exec(shaped.body)?.[0] ?? '';
    const codeLength = shaped.body.length - trailing.length;
    const original = trailing && selected.endsWith(trailing) ? selected.slice(0, -trailing.length) : selected;
    const p: Pending = {
      doc,
      range: new PendingRange(startOffset, startOffset + codeLength),
      original,
      replaced: replacing,
      code: result.code,
      status,
      generationId: result.generationId,
      beforeUri,
      edited: false,
      degraded: result.retrieval?.status === 'degraded',
    };
    pending.set(doc.uri.toString(), p);
    void testPending(p);
    const end = doc.positionAt(p.range.end);
    editor.selection = new vscode.Selection(end, end);
    editor.revealRange(rangeOf(p), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    refresh();
    const label = verdictLabel(p).replace(/^\$\([^)]*\) /, '');
    output.info(
      `generate at cursor: ${attemptCount(result)} attempt(s), ${label}, ${replacing ? 'replacing the selection' : 'inserted'} — pending`,
    );
    if (replacing) {
      await vscode.commands.executeCommand(
        'vscode.diff',
        beforeUri,
        doc.uri,
        `${name}: before ↔ generated (${label})`,
        { preview: true, preserveFocus: true, viewColumn: vscode.ViewColumn.Beside },
      );
    }
    const outcome: AtCursorOutcome = {
      ...base,
      status,
      code: result.code,
      change: 'pending',
      range: {
        start: { line: rangeOf(p).start.line, character: rangeOf(p).start.character },
        end: { line: end.line, character: end.character },
      },
      ...(result.error ? { error: result.error.message } : {}),
    };
    if (args?.decide === 'accept') outcome.change = (await acceptPending(doc.uri)) ? 'accepted' : outcome.change;
    else if (args?.decide === 'reject') outcome.change = (await rejectPending(doc.uri)) ? 'rejected' : outcome.change;
    else {
      const retryNote = result.error ? ` (the corrective retry failed: ${result.error.message})` : '';
      void notifyVerdict(
        status,
        `Generated code at the cursor: ${label}${retryNote}. Keep it?`,
        'Accept',
        'Reject',
      ).then((choice) => {
        if (choice === 'Accept') void acceptPending(doc.uri);
        else if (choice === 'Reject') void rejectPending(doc.uri);
      });
    }
    return outcome;
  }

  /** Runs the file's test cases on the pending change, when it has a test file; the badge follows. */
  async function testPending(p: Pending): Promise<void> {
    const tests = p.doc.uri.with({ path: testFileOf(p.doc.uri.path) });
    if (p.doc.uri.scheme === 'untitled') return;
    try {
      await vscode.workspace.fs.stat(tests);
    } catch {
      return;
    }
    const key = p.doc.uri.toString();
    p.tests = { state: 'running' };
    lensChanged.fire();
    const summary = await Promise.resolve(
      vscode.commands.executeCommand<TestSummary | undefined>(COMMANDS.testFile.id, { uri: key }),
    ).catch(() => undefined);
    if (pending.get(key) !== p) return;
    if (summary) p.tests = { state: 'done', summary };
    else delete p.tests;
    output.info(
      `generate at cursor: the file's tests on the pending change — ${summary ? testsLabel({ state: 'done', summary }, false).replace(/^\$\([^)]*\) /, '') : 'could not run'}`,
    );
    lensChanged.fire();
  }

  const lenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: lensChanged.event,
    provideCodeLenses(document) {
      const p = pending.get(document.uri.toString());
      if (!p || p.doc !== document) return [];
      const top = new vscode.Range(rangeOf(p).start, rangeOf(p).start);
      const list = [
        new vscode.CodeLens(top, { title: verdictLabel(p), command: '' }),
        ...(p.tests
          ? [
              new vscode.CodeLens(top, {
                title: testsLabel(p.tests, p.edited),
                tooltip: "The file's test cases (NAME.avap.test.json) run on the file with this change in it",
                command: 'workbench.view.testing.focus',
              }),
            ]
          : []),
        new vscode.CodeLens(top, {
          title: '$(play) Run',
          tooltip: 'Run the file with this change in it, before accepting it (AVAP: Run File)',
          command: COMMANDS.runFile.id,
          arguments: [{ uri: document.uri.toString() }],
        }),
        new vscode.CodeLens(top, {
          title: '$(check) Accept',
          tooltip: 'Keep the generated code',
          command: COMMANDS.acceptPendingChange.id,
          arguments: [document.uri],
        }),
        new vscode.CodeLens(top, {
          title: '$(discard) Reject',
          tooltip: 'Put back what was there before',
          command: COMMANDS.rejectPendingChange.id,
          arguments: [document.uri],
        }),
      ];
      if (p.replaced) {
        list.push(
          new vscode.CodeLens(top, {
            title: '$(diff) Show Diff',
            command: 'vscode.diff',
            arguments: [p.beforeUri, document.uri, `${document.uri.path.split('/').pop() ?? ''}: before ↔ generated`],
          }),
        );
      }
      if (p.status === 'INVALID_UNRESOLVED' || p.edited) {
        list.push(
          new vscode.CodeLens(top, {
            title: '$(sparkle) Regenerate with Trace',
            tooltip: "Ask the model to correct these lines with the parser's trace",
            command: COMMANDS.regenerateWithTrace.id,
            arguments: [{ uri: document.uri, range: rangeOf(p) }],
          }),
        );
      }
      return list;
    },
  };

  return vscode.Disposable.from(
    highlight,
    lensChanged,
    vscode.languages.registerCodeLensProvider({ language: 'avap' }, lenses),
    vscode.commands.registerCommand(COMMANDS.generateAtCursor.id, generateAtCursor),
    vscode.commands.registerCommand(COMMANDS.acceptPendingChange.id, acceptPending),
    vscode.commands.registerCommand(COMMANDS.rejectPendingChange.id, rejectPending),
    vscode.workspace.onDidChangeTextDocument((event) => {
      const p = pending.get(event.document.uri.toString());
      if (!p || event.contentChanges.length === 0) return;
      for (const change of event.contentChanges) {
        const inside =
          change.rangeOffset >= p.range.start &&
          change.rangeOffset + change.rangeLength <= p.range.end &&
          !(change.rangeLength === 0 && (change.rangeOffset === p.range.start || change.rangeOffset === p.range.end));
        if (
          !p.range.follow({ offset: change.rangeOffset, length: change.rangeLength, newLength: change.text.length })
        ) {
          // Edited across its edge: no longer one piece to accept or reject; it stays in the document as it is.
          pending.delete(event.document.uri.toString());
          record(p.generationId, 'edited', event.document.getText());
          output.info('generate at cursor: the pending change was edited across its edge — kept as edited');
          break;
        }
        if (inside) p.edited = true;
      }
      refresh();
    }),
    vscode.window.onDidChangeActiveTextEditor(refresh),
    vscode.window.onDidChangeVisibleTextEditors(refresh),
    vscode.workspace.onDidCloseTextDocument((doc) => {
      accepted.closed(tracked(doc));
      if (pending.delete(doc.uri.toString())) refresh();
    }),
    vscode.workspace.onDidSaveTextDocument((doc) => {
      const edited = accepted.saved(tracked(doc));
      if (!edited) return;
      record(edited.generationId, 'edited', edited.text);
      output.info(`generate at cursor: accepted code of ${edited.generationId} was edited before saving`);
    }),
  );
}
