/**
 * The runner bundle (dist/runner.js), loaded on the first run: AVAP: Run File and what shows its outcome — the
 * result view, values in the code, the `avap-runtime` diagnostic — the Testing view's runs, Edit Run Request…
 * and Add Test Case from Last Run. Runs go to the sandbox's worker pool (src/runtime/host, started here on first
 * use), off the extension host's thread, within the `avap.run.*` budgets, cancellable from the progress
 * notification or the result view; the editor never waits on one.
 */
import * as vscode from 'vscode';
import type { RunResult } from '../../runtime/host';
import { allowList, lineValues, runViewModel } from '../../runs';
import { SETTINGS } from '../../surface';
import type { RunArgs, RunnerHost, Runner, RunOutcome } from './bundleApi';
import { baseName, openDocument, toUri } from './files';
import { addCaseFromLastRun, editRequest, type LastRun } from './requestCommands';
import { requestFor } from './requestSource';
import { ResultView } from './resultView';
import { EditorRunPool } from './runPool';
import { RuntimeDiagnostics } from './runtimeDiagnostics';
import { runTestRequest } from './testRunner';
import { ValueDecorations } from './valueDecorations';

/** Steps a run records for the view and the values (the rest are counted; a loop's first passes are shown). */
const RUN_TRACE_STEPS = 10_000;
/** A run still going after this long gets a progress notification with Cancel. */
const PROGRESS_AFTER_MS = 500;

export function startRunner(host: RunnerHost): Runner {
  const { context, output } = host;
  const pool = new EditorRunPool(context.globalStorageUri.fsPath, (line) => output.info(line));
  const view = new ResultView({
    extensionUri: context.extensionUri,
    output,
    testHooks: context.extensionMode === vscode.ExtensionMode.Test,
  });
  const values = new ValueDecorations();
  const diagnostics = new RuntimeDiagnostics();
  const lastRuns = new Map<string, LastRun>();
  let lastKey: string | undefined;
  const subscriptions = [
    view,
    values,
    vscode.languages.registerHoverProvider({ language: 'avap' }, values),
    diagnostics,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SETTINGS.run.showValues.key) && !host.settings().run.showValues) values.clearAll();
    }),
  ];

  /** The document a command is about: the one named, else the active editor's AVAP document. */
  function target(uri: RunArgs['uri']): vscode.TextDocument | undefined {
    if (uri !== undefined) return openDocument(toUri(uri));
    const doc = vscode.window.activeTextEditor?.document;
    return doc && doc.languageId === 'avap' ? doc : undefined;
  }

  async function documentFor(uri: RunArgs['uri']): Promise<vscode.TextDocument | undefined> {
    const open = target(uri);
    if (open || uri === undefined) return open;
    try {
      return await vscode.workspace.openTextDocument(toUri(uri));
    } catch {
      return undefined;
    }
  }

  async function runFile(args: RunArgs = {}): Promise<RunOutcome | undefined> {
    const doc = args.source === undefined ? await documentFor(args.uri) : undefined;
    if (args.source === undefined && !doc) {
      void vscode.window.showInformationMessage('AVAP: Run File runs an .avap file — open one first.');
      return undefined;
    }
    const source = args.source ?? doc?.getText() ?? '';
    const requestDoc = doc ?? (args.requestFrom !== undefined ? await documentFor(args.requestFrom) : undefined);
    const requestUri = doc?.uri ?? (args.requestFrom !== undefined ? toUri(args.requestFrom) : undefined);
    const request = await requestFor(requestDoc, requestUri, context.extensionUri);
    if (!request.ok) {
      output.warn(`run: ${baseName(request.error.file)}: ${request.error.message} — nothing was run`);
      void vscode.window
        .showErrorMessage(
          `AVAP: the request file ${baseName(request.error.file)} does not read: ${request.error.message}. Nothing was run.`,
          'Open Request File',
        )
        .then((choice) => choice && vscode.window.showTextDocument(request.error.file));
      return undefined;
    }
    const settings = host.settings().run;
    const allow = allowList(settings);
    if (!allow.ok) {
      void vscode.window
        .showErrorMessage(`AVAP: avap.run.allowHttp: ${allow.error.message}`, 'Open Settings')
        .then(
          (choice) =>
            choice && vscode.commands.executeCommand('workbench.action.openSettings', SETTINGS.run.allowHttp.key),
        );
      return undefined;
    }
    const made = pool.get(settings);
    if (!made.ok) {
      output.warn(`run: ${made.error.message}`);
      void vscode.window.showErrorMessage(`AVAP: the runtime is not available — ${made.error.message}`);
      return undefined;
    }
    const title = doc ? baseName(doc.uri) : (args.title ?? 'AVAP code');
    const controller = new AbortController();
    const base = { title, linked: doc !== undefined, request: request.value.summary };
    const started = Date.now();
    const running = made.value.run({
      source,
      request: request.value.setup.request,
      sandbox: { ...request.value.setup.sandbox, allowHttp: allow.value },
      trace: true,
      maxTraceSteps: RUN_TRACE_STEPS,
      signal: controller.signal,
    });
    const placeholder = { status: 0, result: {}, variables: {}, logs: [], portability: [] } satisfies RunResult;
    void view.show(
      {
        model: { ...runViewModel({ ...base, result: placeholder, durationMs: 0 }), running: true },
        cancel: () => controller.abort(),
        ...(doc ? { program: doc.uri } : {}),
      },
      !args.quiet,
    );
    const progress = args.quiet
      ? undefined
      : setTimeout(() => {
          void vscode.window.withProgress(
            { location: vscode.ProgressLocation.Notification, title: `AVAP: running ${title}…`, cancellable: true },
            (_, token) => {
              token.onCancellationRequested(() => controller.abort());
              return running;
            },
          );
        }, PROGRESS_AFTER_MS);
    vscode.window.setStatusBarMessage(`$(sync~spin) AVAP: running ${title}…`, running);
    const result = await running;
    if (progress) clearTimeout(progress);
    const durationMs = Date.now() - started;
    output.info(
      `run: ${title} ${request.value.summary} → ${result.status}${result.error ? ` (${result.error.code} at line ${result.error.line}: ${result.error.message})` : ''} in ${durationMs} ms`,
    );
    // The outcome describes the text that ran: an edit made meanwhile leaves the document without values.
    const current = doc && !doc.isClosed && doc.getText() === source ? doc : undefined;
    if (current) {
      diagnostics.set(current, result.error);
      if (host.settings().run.showValues)
        values.show(current, lineValues(result.steps ?? [], { omitted: result.stepsOmitted ?? 0 }));
      else values.clear(current.uri);
    }
    const key = doc?.uri.toString() ?? `source:${title}`;
    lastRuns.set(key, { program: doc?.uri, fields: request.value.fields, result, source });
    lastKey = key;
    await view.show(
      { model: runViewModel({ ...base, result, durationMs }), ...(doc ? { program: doc.uri } : {}) },
      !args.quiet,
    );
    return {
      status: result.status,
      result: result.result,
      ...(result.error ? { error: result.error } : {}),
      ...(doc ? { uri: doc.uri.toString() } : {}),
      request: request.value.summary,
      durationMs,
      valueLines: current ? values.lines(current.uri) : [],
    };
  }

  const testDeps = {
    tests: host.tests,
    pool: () => pool.get(host.settings().run),
    settings: () => host.settings().run,
    output,
  };

  return {
    runFile,
    editRequest: (args) => editRequest(args?.uri ?? target(undefined)?.uri),
    addCaseFromLastRun: (args) => {
      const key = args?.uri !== undefined ? toUri(args.uri).toString() : (target(undefined)?.uri.toString() ?? lastKey);
      return addCaseFromLastRun(key === undefined ? undefined : lastRuns.get(key), args?.name, output);
    },
    runTests: (request, token) => runTestRequest(testDeps, request, token),
    testFile: async (args) => {
      const uri = args?.uri !== undefined ? toUri(args.uri) : target(undefined)?.uri;
      if (!uri) return undefined;
      const item = await host.tests.itemForProgram(uri);
      if (!item) return undefined;
      const source = new vscode.CancellationTokenSource();
      try {
        return await runTestRequest(testDeps, new vscode.TestRunRequest([item]), source.token);
      } finally {
        source.dispose();
      }
    },
    get testing() {
      return view.testing;
    },
    dispose: async () => {
      for (const s of subscriptions) s.dispose();
      await pool.close();
    },
  };
}
