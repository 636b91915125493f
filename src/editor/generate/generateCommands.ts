/**
 * AVAP: Generate Code…, AVAP: Regenerate with Trace, and accepting a preview.
 * Generated code is only ever shown and inserted as text; it is never run.
 *
 * Both commands take optional arguments so keybindings and tests can drive
 * them without dialogs: generate `{ request, accept: 'editor' | 'new' | 'none' }`,
 * regenerate `uri` or `{ uri, accept: boolean }`. They resolve with what happened.
 */
import * as vscode from 'vscode';
import { attemptCount, type PipelineErrorCode, type ValidationStatus } from '../../core';
import { isAvapDocument, type DiagnosticsController } from '../diagnostics/diagnosticsController';
import type { OutputLog } from '../output/outputLog';
import type { AssistantService } from '../services/assistantService';
import type { ConfiguredParser } from '../services/configuredParser';
import { LABEL_NO_CONTEXT, LABEL_REPAIRED, lookForPipelineStatus } from '../status/statusLook';
import type { GeneratedDocuments } from './generatedDocuments';
import type { EditorSettings } from '../settings/editorSettings';
import { notifyFailure as showFailure, notifyVerdict } from './notify';
import { inFlight, runWithProgress } from './runWithProgress';
import { AcceptedCodeTracker, type TrackedDocument } from './acceptedCode';
import { COMMANDS } from '../commandIds';

export interface GenerateDeps {
  assistant: AssistantService;
  parser: ConfiguredParser;
  diagnostics: DiagnosticsController;
  generated: GeneratedDocuments;
  output: OutputLog;
  /** The `avap.*` settings as they are now (the failure notifications name the configured model and server). */
  settings: () => EditorSettings;
}

export interface GenerateOutcome {
  status: ValidationStatus | 'error' | 'cancelled';
  code: string;
  previewUri?: string;
  acceptedUri?: string;
  error?: string;
  /** Set when the code shown is the model's answer repaired by the parser's proven fixes (no LLM retry was spent). */
  repairedBy?: 'parser-fixes';
}

export interface RegenerateOutcome {
  status: ValidationStatus | 'already-valid' | 'no-trace' | 'error' | 'cancelled' | 'not-applied';
  code: string;
  applied: boolean;
  error?: string;
}

function statusText(status: ValidationStatus, hasCode: boolean): string {
  return lookForPipelineStatus(status, hasCode)?.label ?? 'AVAP: no code in the answer';
}

export function registerGenerateCommands(deps: GenerateDeps): vscode.Disposable {
  const { generated, output } = deps;

  /** Accepted code per document, until it is saved edited or the document closes. */
  const accepted = new AcceptedCodeTracker((key) => {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    return open ? tracked(open) : undefined;
  });

  function recordOutcome(
    generationId: string | undefined,
    outcome: 'accepted' | 'edited' | 'discarded',
    finalCode?: string,
  ): void {
    if (generationId) void deps.assistant.recordOutcome(generationId, outcome, finalCode);
  }

  /** A failed run's preview: marked failed (no label, no Accept) and its tabs closed. */
  async function discardPreview(uri: vscode.Uri, why: string): Promise<void> {
    generated.update(uri, { failed: why, content: '', status: undefined });
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());
    if (tabs.length) await Promise.resolve(vscode.window.tabGroups.close(tabs)).catch(() => undefined);
  }

  /** An error notification that says what went wrong and offers the fix (start Ollama, pull the model) and Retry. */
  function notifyFailure(
    what: string,
    error: { code: PipelineErrorCode; message: string },
    retry: () => unknown,
  ): void {
    showFailure(what, error, { settings: deps.settings(), output, retry });
  }

  async function accept(previewUri: vscode.Uri): Promise<vscode.Uri | undefined> {
    const entry = generated.get(previewUri);
    // Only a verdict can be accepted: never a draft, never a failed run.
    if (!entry || entry.status === undefined || entry.failed !== undefined) return undefined;
    const into = await place(entry);
    if (into) {
      recordOutcome(entry.generationId, 'accepted', entry.content);
      if (entry.generationId)
        accepted.accept(into.toString(), { generationId: entry.generationId, code: entry.content });
    }
    return into;
  }

  async function place(entry: NonNullable<ReturnType<GeneratedDocuments['get']>>): Promise<vscode.Uri | undefined> {
    const target = entry.target;
    if (target) {
      const doc = await vscode.workspace.openTextDocument(target.uri);
      if (doc.version !== target.version) {
        void vscode.window.showWarningMessage(
          'AVAP: the document changed since the code was generated; nothing was replaced.',
        );
        return undefined;
      }
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, target.range, entry.content);
      if (!(await vscode.workspace.applyEdit(edit))) return undefined;
      await vscode.window.showTextDocument(doc, { preview: false });
      return doc.uri;
    }
    const doc = await vscode.workspace.openTextDocument({ language: 'avap', content: entry.content });
    await vscode.window.showTextDocument(doc, { preview: false });
    return doc.uri;
  }

  /** Thumbs on a preview: recorded on the generation's training signal, shown on the preview's label. */
  async function rate(previewUri: vscode.Uri, vote: 'up' | 'down'): Promise<boolean> {
    if (!(previewUri instanceof vscode.Uri) || (vote !== 'up' && vote !== 'down')) return false;
    const entry = generated.get(previewUri);
    if (!entry?.generationId) return false;
    const recorded = await deps.assistant.recordFeedback(entry.generationId, vote);
    if (recorded) generated.update(previewUri, { vote });
    else
      void vscode.window.showWarningMessage(
        'AVAP: the rating was not recorded (training signals are off, or the store cannot be written — see the output).',
      );
    return recorded;
  }

  const tracked = (doc: vscode.TextDocument): TrackedDocument => ({
    key: doc.uri.toString(),
    isUntitled: doc.isUntitled,
    text: doc.getText(),
  });

  function onSaved(doc: vscode.TextDocument): void {
    const edited = accepted.saved(tracked(doc));
    if (!edited) return;
    recordOutcome(edited.generationId, 'edited', edited.text);
    output.info(`generate: accepted code of ${edited.generationId} was edited before saving`);
  }

  async function generate(args?: {
    request?: string;
    accept?: 'editor' | 'new' | 'none';
  }): Promise<GenerateOutcome | undefined> {
    const request =
      args?.request ??
      (await vscode.window.showInputBox({
        title: 'AVAP: Generate Code',
        prompt: 'Describe the endpoint logic to generate',
        placeHolder: 'e.g. return the SHA-256 of the "password" parameter',
        ignoreFocusOut: true,
      }));
    if (!request?.trim()) return undefined;
    const active = vscode.window.activeTextEditor;
    const target =
      args?.accept === 'new' ||
      !active ||
      !isAvapDocument(active.document) ||
      active.document.uri.scheme === 'avap-generated'
        ? undefined
        : { uri: active.document.uri, range: active.selection, version: active.document.version };
    // The preview opens with the first streamed piece: a run that fails before producing anything shows none.
    let previewUri: vscode.Uri | undefined;
    let showing: Thenable<unknown> = Promise.resolve();
    const preview = (): vscode.Uri => {
      if (previewUri) return previewUri;
      previewUri = generated.create('generated', { content: '', request, target });
      // Beside the editor being worked in; with no editor open, in the active group (not beside an empty one).
      const viewColumn = vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
      showing = vscode.window
        .showTextDocument(previewUri, { preview: true, viewColumn, preserveFocus: true })
        .then(undefined, () => undefined);
      return previewUri;
    };
    output.info(`generate: ${request}`);
    const result = await runWithProgress(
      deps.assistant,
      'AVAP: generating code',
      { query: request, forceType: 'CODE_GENERATION' },
      (text) => {
        generated.update(preview(), { content: text });
      },
    );
    await showing;
    if (result.validationStatus === undefined) {
      const error = result.error ?? { code: 'llm-failed' as const, message: 'the generation produced no answer' };
      if (previewUri) await discardPreview(previewUri, error.message);
      output.info(
        `generate: ${error.code === 'cancelled' ? 'cancelled' : `failed (${error.code}): ${error.message}`} — nothing was validated`,
      );
      if (error.code === 'cancelled') return { status: 'cancelled', code: '' };
      notifyFailure('code generation failed', error, () =>
        generate({ request, ...(args?.accept ? { accept: args.accept } : {}) }),
      );
      return { status: 'error', code: '', error: error.message };
    }
    const uri = preview();
    const repairedBy = result.validationStatus === '' ? result.repair?.by : undefined;
    generated.update(uri, {
      content: result.code || result.text,
      status: result.validationStatus,
      generationId: result.generationId,
      ...(repairedBy ? { repairedBy } : {}),
    });
    await showing;
    const outcome: GenerateOutcome = {
      status: result.validationStatus,
      code: result.code,
      previewUri: uri.toString(),
      ...(repairedBy ? { repairedBy } : {}),
    };
    const context = result.retrieval?.status === 'degraded' ? ` — ${LABEL_NO_CONTEXT}` : '';
    const repaired = repairedBy ? ` — ${LABEL_REPAIRED}` : '';
    const label = `${statusText(result.validationStatus, result.code !== '')}${repaired}${context}`;
    output.info(`generate: ${attemptCount(result)} attempt(s), ${label}`);
    if (result.error) {
      // The retry could not be generated: the invalid first answer stands, flagged as such.
      outcome.error = result.error.message;
      void vscode.window
        .showWarningMessage(
          `AVAP: the corrective retry failed (${result.error.message}); the code shown is the invalid first attempt.`,
          'Show Output',
        )
        .then((c) => c && output.show());
    }
    if (args?.accept === 'editor' || args?.accept === 'new') {
      outcome.acceptedUri = (await accept(uri))?.toString();
    } else if (args?.accept !== 'none') {
      void notifyVerdict(
        result.validationStatus,
        `Generated code: ${label}`,
        target ? 'Accept into Editor' : 'Open as New Document',
        'Discard',
      ).then(async (choice) => {
        if (choice === 'Discard') recordOutcome(result.generationId, 'discarded');
        else if (choice) await accept(uri);
      });
    }
    return outcome;
  }

  async function regenerate(
    arg?: vscode.Uri | { uri?: vscode.Uri | string; accept?: boolean; range?: vscode.Range },
  ): Promise<RegenerateOutcome | undefined> {
    const given = arg instanceof vscode.Uri ? arg : typeof arg?.uri === 'string' ? vscode.Uri.parse(arg.uri) : arg?.uri;
    const autoAccept = !(arg instanceof vscode.Uri) && arg?.accept === true;
    const editor = given
      ? vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === given.toString())
      : vscode.window.activeTextEditor;
    const doc = editor?.document ?? (given ? await vscode.workspace.openTextDocument(given) : undefined);
    if (!doc || !isAvapDocument(doc)) {
      void vscode.window.showInformationMessage('AVAP: open an .avap document to regenerate it.');
      return undefined;
    }
    // Context is computed now: the current text (or selection) and a fresh trace.
    // A given range (the lines of a pending Generate at Cursor change), else the selection, else the document.
    const givenRange =
      !(arg instanceof vscode.Uri) && arg?.range instanceof vscode.Range && !arg.range.isEmpty ? arg.range : undefined;
    const selection = givenRange ?? (editor && !editor.selection.isEmpty ? editor.selection : undefined);
    const range = selection ?? new vscode.Range(0, 0, doc.lineCount, 0);
    const code = doc.getText(range);
    const version = doc.version;
    const name = doc.uri.path.split('/').pop() ?? 'document.avap';
    const outcome = await deps.parser.validate(code, name);
    if (outcome.kind === 'unavailable') {
      void vscode.window.showWarningMessage(
        `AVAP: cannot regenerate with a trace — the parser is unavailable (${outcome.detail}).`,
      );
      return { status: 'no-trace', code, applied: false, error: outcome.detail };
    }
    if (outcome.result.valid) {
      void vscode.window.showInformationMessage('AVAP: the parser accepts this code; nothing to correct.');
      return { status: 'already-valid', code, applied: false };
    }
    output.info(
      `regenerate with trace: ${name}, ${outcome.result.trace.length} trace entr${outcome.result.trace.length === 1 ? 'y' : 'ies'}`,
    );
    const target = { uri: doc.uri, range: doc.validateRange(range), version };
    const correctedUri = generated.create('corrected', { content: '', request: `correct ${name}`, target });
    const result = await runWithProgress(
      deps.assistant,
      'AVAP: regenerating with the parser trace',
      {
        query: `Correct the AVAP code of ${name} so that the parser accepts it.`,
        forceType: 'CODE_GENERATION',
        correction: { code, trace: outcome.result.trace },
        filename: name,
      },
      (text) => generated.update(correctedUri, { content: text }),
    );
    if (result.validationStatus === undefined) {
      const error = result.error ?? { code: 'llm-failed' as const, message: 'the correction produced no answer' };
      generated.update(correctedUri, { failed: error.message, content: '' });
      if (error.code === 'cancelled') return { status: 'cancelled', code, applied: false };
      notifyFailure('regenerate with trace failed', error, () => regenerate(arg));
      return { status: 'error', code, applied: false, error: error.message };
    }
    const corrected = result.code.endsWith('\n') || !code.endsWith('\n') ? result.code : `${result.code}\n`;
    const repairedBy = result.validationStatus === '' ? result.repair?.by : undefined;
    generated.update(correctedUri, {
      content: corrected,
      status: result.validationStatus,
      generationId: result.generationId,
      ...(repairedBy ? { repairedBy } : {}),
    });
    const originalUri = generated.create('original', { content: code, status: '', request: '' });
    const label = `${statusText(result.validationStatus, corrected !== '')}${repairedBy ? ` — ${LABEL_REPAIRED}` : ''}`;
    await vscode.commands.executeCommand('vscode.diff', originalUri, correctedUri, `${name} ↔ corrected (${label})`, {
      preview: true,
    });
    const applied = autoAccept
      ? (await accept(correctedUri)) !== undefined
      : await notifyVerdict(
          result.validationStatus,
          `Corrected code: ${label}. Replace the ${selection ? 'selection' : 'document'}?`,
          'Accept',
          'Discard',
        ).then(async (choice) => {
          if (choice === 'Discard') recordOutcome(result.generationId, 'discarded');
          return choice === 'Accept' && (await accept(correctedUri)) !== undefined;
        });
    return { status: applied || !autoAccept ? result.validationStatus : 'not-applied', code: corrected, applied };
  }

  return vscode.Disposable.from(
    vscode.commands.registerCommand(COMMANDS.generateCode.id, generate),
    vscode.commands.registerCommand(COMMANDS.regenerateWithTrace.id, regenerate),
    vscode.commands.registerCommand(COMMANDS.acceptGenerated.id, async (uri: unknown) =>
      uri instanceof vscode.Uri ? (await accept(uri))?.toString() : undefined,
    ),
    vscode.commands.registerCommand(COMMANDS.rateGenerated.id, (uri: vscode.Uri, vote: 'up' | 'down') =>
      rate(uri, vote),
    ),
    vscode.workspace.onDidSaveTextDocument(onSaved),
    vscode.workspace.onDidCloseTextDocument((doc) => accepted.closed(tracked(doc))),
    vscode.commands.registerCommand(COMMANDS.cancelGeneration.id, () => {
      const count = inFlight.size;
      for (const controller of inFlight) controller.abort();
      if (count > 0) output.info(`cancelled ${count} generation(s)`);
      return count;
    }),
  );
}
