/**
 * The editor features: what an opened `.avap` file needs — the settings, the
 * parser connection, diagnostics, the status item, quick fixes and Fix All,
 * the status code lens, the language features (hover, completion, signature
 * help, outline, definitions, references, rename, inlay hints, semantic
 * tokens, folding, formatting), parser traces, the core
 * commands — and the first run. Built to dist/editor-features.js and started
 * by activation (../activate.ts) right after activate() has returned, so the
 * editor's wait for the extension is only what activation registers. A
 * feature is one line below: its module registers what it contributes and
 * returns a Disposable; a command is a row in ../commandIds.ts (side `editor`),
 * answered by a stand-in until this bundle has started.
 *
 * The parser connection's gRPC stack is a lazy bundle of its own, loaded on
 * its first connect (../services/parserStack.ts); so is the runner (the AVAP
 * runtime's worker pool, the result view), loaded on the first run
 * (../run/register.ts).
 */
import * as vscode from 'vscode';
import { registerCoreCommands } from '../commands/coreCommands';
import { DiagnosticsController } from '../diagnostics/diagnosticsController';
import { registerFixAll } from '../diagnostics/fixAll';
import { ParserQuickFixes } from '../diagnostics/quickFixes';
import { TraceDocumentProvider } from '../diagnostics/traceDocumentProvider';
import { registerFirstRun } from '../firstRun/walkthrough';
import { GeneratedDocuments } from '../generate/generatedDocuments';
import { StatusCodeLens } from '../generate/statusCodeLens';
import { registerLanguageFeatures } from '../language/languageFeatures';
import type { OutputLog } from '../output/outputLog';
import { registerRun } from '../run/register';
import { ConfiguredParser } from '../services/configuredParser';
import { changedSections, type EditorSettings } from '../settings/editorSettings';
import { readSettings } from '../settings/readSettings';
import { signalsFile, telemetryFile } from '../settings/storageFiles';
import { ValidationStatusBar } from '../status/statusBar';
import type { EditorFeatures, FeaturesHost } from './bundleApi';

export function startEditorFeatures({ context, output, assistant }: FeaturesHost): EditorFeatures {
  const initial = readSettings();
  for (const problem of initial.problems) output.warn(`settings: ${problem}`);
  let settings: EditorSettings = initial.settings;
  const storageDir = context.globalStorageUri.fsPath;

  const parser = new ConfiguredParser(context.extensionPath, output.logger);
  let parserReady = connectParser(parser, settings, output);
  const diagnostics = new DiagnosticsController(
    parser,
    () => settings.validation.debounceMs,
    (line) => output.info(line),
  );
  const generated = new GeneratedDocuments();
  const language = registerLanguageFeatures({
    parameterNames: () => settings.inlayHints.parameterNames,
    report: (message) => output.warn(message),
  });
  const statusBar = new ValidationStatusBar(diagnostics, parser, generated);
  // Running AVAP: commands, the Run lens and the Testing view's items; the runner (and its workers) on first use.
  const run = registerRun({ context, output, settings: () => settings });

  context.subscriptions.push(
    diagnostics,
    statusBar,
    generated,
    TraceDocumentProvider.register(diagnostics),
    vscode.languages.registerCodeActionsProvider({ language: 'avap' }, new ParserQuickFixes(diagnostics), {
      providedCodeActionKinds: ParserQuickFixes.kinds,
    }),
    registerFixAll(parser, diagnostics),
    (() => {
      const lens = new StatusCodeLens(diagnostics, generated);
      return vscode.Disposable.from(lens, vscode.languages.registerCodeLensProvider({ language: 'avap' }, lens));
    })(),
    language,
    run,
    registerCoreCommands({ diagnostics, parser, output }),
    // First run: the Get Started walkthrough (opened once) and Open an Example.
    registerFirstRun(context, output),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration('avap')) return;
      const next = readSettings();
      for (const problem of next.problems) output.warn(`settings: ${problem}`);
      const changed = changedSections(settings, next.settings);
      const hints = settings.inlayHints.parameterNames !== next.settings.inlayHints.parameterNames;
      settings = next.settings;
      if (hints) language.hintsChanged();
      if (changed.parser) {
        output.info('parser settings changed — reconnecting');
        parserReady = connectParser(parser, settings, output).then(() =>
          diagnostics.revalidateAll('parser settings changed'),
        );
      }
      if (changed.assistant && assistant.loaded) {
        output.info('assistant settings changed — rebuilding');
        assistant.settingsChanged();
      }
    }),
  );

  // Documents opened before the features started (the one that activated the extension, restored editors).
  void parserReady.then(() => diagnostics.revalidateAll('activation'));

  return {
    parser,
    diagnostics,
    generated,
    settings: () => settings,
    ready: () => parserReady,
    statusLook: () => statusBar.look(),
    circuit: () => parser.circuit(),
    files: { telemetry: () => telemetryFile(settings, storageDir), signals: () => signalsFile(settings, storageDir) },
    runTesting: () => run.testing(),
    dispose: async () => {
      await Promise.all([parser.dispose(), run.stop()]);
    },
  };
}

async function connectParser(parser: ConfiguredParser, settings: EditorSettings, output: OutputLog): Promise<void> {
  const result = await parser.connect(settings.parser);
  if (result.ok) output.info(`parser: ${result.value}`);
  else if (result.error.kind !== 'superseded') output.warn(`parser unavailable: ${result.error.message}`);
}
