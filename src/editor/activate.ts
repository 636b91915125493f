/**
 * The composition root of the editor. Activation builds only what an opened
 * `.avap` file needs — the parser connection, diagnostics, the status item —
 * and registers everything else without loading it. A feature is one line
 * below: its module registers what it contributes and returns a Disposable.
 *
 * Lazy loading: the assistant (model, retrieval, knowledge base, markdown,
 * judge, signals, metrics) is the bundle dist/assistant.js, reached only
 * through the seam (./assistant/seam.ts); an assistant feature registers in
 * ./assistant/main.ts, not here. The parser connection's gRPC stack is a lazy
 * bundle too, loaded on its first connect (./services/parserStack.ts).
 * Failures are reported loudly with a way to the output, never thrown out of
 * the extension host.
 */
import * as vscode from 'vscode';
import type { AvapExtensionApi } from './api';
import { AssistantSeam } from './assistant/seam';
import { registerCoreCommands } from './commands/coreCommands';
import { DiagnosticsController } from './diagnostics/diagnosticsController';
import { registerFixAll } from './diagnostics/fixAll';
import { ParserQuickFixes } from './diagnostics/quickFixes';
import { registerFirstRun } from './firstRun/walkthrough';
import { TraceDocumentProvider } from './diagnostics/traceDocumentProvider';
import { GeneratedDocuments } from './generate/generatedDocuments';
import { StatusCodeLens } from './generate/statusCodeLens';
import { registerLanguageFeatures } from './language/languageFeatures';
import { OutputLog } from './output/outputLog';
import { ParserConnection } from './services/parserConnection';
import { changedSections, type EditorSettings } from './settings/editorSettings';
import { readSettings } from './settings/readSettings';
import { signalsFile, telemetryFile } from './settings/storageFiles';
import { ValidationStatusBar } from './status/statusBar';

let stopServices: (() => Promise<void>) | undefined;

export function activateAvap(context: vscode.ExtensionContext): Promise<AvapExtensionApi | undefined> {
  const output = new OutputLog();
  context.subscriptions.push(output);
  try {
    return Promise.resolve(build(context, output));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    output.write(`activation failed: ${err instanceof Error && err.stack ? err.stack : message}`);
    void vscode.window.showErrorMessage(`AVAP Assistant could not start: ${message}`, 'Show Output').then((choice) => {
      if (choice) output.show();
    });
    return Promise.resolve(undefined);
  }
}

function build(context: vscode.ExtensionContext, output: OutputLog): AvapExtensionApi {
  const initial = readSettings();
  for (const problem of initial.problems) output.warn(`settings: ${problem}`);
  let settings: EditorSettings = initial.settings;
  const storageDir = context.globalStorageUri.fsPath;

  const parser = new ParserConnection(context.extensionPath, output.logger);
  let parserReady = connectParser(parser, settings, output);
  const diagnostics = new DiagnosticsController(parser, () => settings.validation.debounceMs, (line) => output.info(line));
  const generated = new GeneratedDocuments();
  const statusBar = new ValidationStatusBar(diagnostics, parser, generated);
  const assistant = new AssistantSeam({ context, output, parser, diagnostics, generated, settings: () => settings });
  stopServices = async () => {
    await assistant.dispose();
    await parser.dispose();
  };

  context.subscriptions.push(
    diagnostics,
    statusBar,
    generated,
    // What an opened .avap file needs (this bundle).
    TraceDocumentProvider.register(diagnostics),
    vscode.languages.registerCodeActionsProvider({ language: 'avap' }, new ParserQuickFixes(diagnostics), {
      providedCodeActionKinds: ParserQuickFixes.kinds,
    }),
    registerFixAll(parser, diagnostics),
    (() => {
      const lens = new StatusCodeLens(diagnostics, generated);
      return vscode.Disposable.from(lens, vscode.languages.registerCodeLensProvider({ language: 'avap' }, lens));
    })(),
    registerLanguageFeatures(),
    registerCoreCommands({ diagnostics, parser, output }),
    // First run: the Get Started walkthrough (opened once) and Open an Example.
    registerFirstRun(context, output),
    // The assistant: its commands, chat view and tools answer now; its bundle loads on first use.
    assistant.register(),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration('avap')) return;
      const next = readSettings();
      for (const problem of next.problems) output.warn(`settings: ${problem}`);
      const changed = changedSections(settings, next.settings);
      settings = next.settings;
      if (changed.parser) {
        output.info('parser settings changed — reconnecting');
        parserReady = connectParser(parser, settings, output).then(() => diagnostics.revalidateAll('parser settings changed'));
      }
      if (changed.assistant && assistant.loaded) {
        output.info('assistant settings changed — rebuilding');
        assistant.settingsChanged();
      }
    }),
    { dispose: () => void stopServices?.() },
  );

  // Documents that were open before activation.
  void parserReady.then(() => diagnostics.revalidateAll('activation'));

  return {
    ready: () => Promise.all([parserReady, assistant.ready()]).then(() => undefined),
    statusLook: () => statusBar.look(),
    outputLines: () => output.lines(),
    parserAddress: () => parser.address(),
    circuit: () => parser.circuit(),
    chat: assistant.chat,
    files: { telemetry: () => telemetryFile(settings, storageDir), signals: () => signalsFile(settings, storageDir) },
    // Only the extension-host test runner gets hooks into the webviews.
    ...(context.extensionMode === vscode.ExtensionMode.Test ? { testing: assistant.testing } : {}),
  };
}

async function connectParser(parser: ParserConnection, settings: EditorSettings, output: OutputLog): Promise<void> {
  const result = await parser.connect(settings.parser);
  if (result.ok) output.info(`parser: ${result.value}`);
  else if (result.error.kind !== 'superseded') output.warn(`parser unavailable: ${result.error.message}`);
}

export async function deactivateAvap(): Promise<void> {
  const stop = stopServices;
  stopServices = undefined;
  await stop?.();
}
