/**
 * The composition root of the editor: builds the services from the settings
 * and registers every contribution. Failures are reported loudly with a way
 * to the output, never thrown out of the extension host.
 */
import * as vscode from 'vscode';
import type { AvapExtensionApi } from './api';
import { CHAT_VIEW_ID, ChatViewProvider } from './chat/chatView';
import { registerCoreCommands } from './commands/coreCommands';
import { DiagnosticsController } from './diagnostics/diagnosticsController';
import { ParserQuickFixes } from './diagnostics/quickFixes';
import { TraceDocumentProvider } from './diagnostics/traceDocumentProvider';
import { registerGenerateCommands } from './generate/generateCommands';
import { GeneratedDocuments } from './generate/generatedDocuments';
import { StatusCodeLens } from './generate/statusCodeLens';
import { registerLanguageFeatures } from './language/languageFeatures';
import { OPEN_EVAL_REPORT_COMMAND, showEvalReportPanel, showMetricsPanel } from './metrics/metricsPanel';
import { OutputLog } from './output/outputLog';
import { AssistantService, ES_API_KEY_SECRET } from './services/assistantService';
import { ParserConnection } from './services/parserConnection';
import { changedSections, type EditorSettings } from './settings/editorSettings';
import { readSettings } from './settings/readSettings';
import { ValidationStatusBar } from './status/statusBar';
import { registerLanguageModelTools } from './tools/registerTools';
import { loadKnowledgeBase } from '../knowledge';
import type { DocsIndexSource } from '../tools/execute';

let stopServices: (() => Promise<void>) | undefined;

export async function activateAvap(context: vscode.ExtensionContext): Promise<AvapExtensionApi | undefined> {
  const output = new OutputLog();
  context.subscriptions.push(output);
  try {
    return build(context, output);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    output.write(`activation failed: ${err instanceof Error && err.stack ? err.stack : message}`);
    void vscode.window.showErrorMessage(`AVAP Assistant could not start: ${message}`, 'Show Output').then((choice) => {
      if (choice) output.show();
    });
    return undefined;
  }
}

function build(context: vscode.ExtensionContext, output: OutputLog): AvapExtensionApi {
  const initial = readSettings();
  for (const problem of initial.problems) output.warn(`settings: ${problem}`);
  let settings: EditorSettings = initial.settings;

  const storageDir = context.globalStorageUri.fsPath;
  // The shipped knowledge base (retrieval, few-shot, the judge's passages, the search tool), loaded once on first use.
  let knowledge: ReturnType<typeof loadKnowledgeBase> | undefined;
  const knowledgeBase = () => {
    if (!knowledge) {
      knowledge = loadKnowledgeBase();
      if (!knowledge.ok) output.warn(`knowledge base not loaded: ${knowledge.error.message}`);
    }
    return knowledge.ok ? knowledge.value : undefined;
  };
  const parser = new ParserConnection(context.extensionPath, output.logger);
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  const assistant = new AssistantService(parser, output.logger, context.secrets, storageDir, knowledgeBase, version);
  const setUp = (parserToo: boolean): Promise<void> => Promise.all([
    parserToo ? connectParser(parser, settings, output) : Promise.resolve(),
    assistant.rebuild(settings),
  ]).then(() => undefined);
  let ready = setUp(true);
  stopServices = async () => {
    await assistant.dispose();
    await parser.dispose();
  };

  const diagnostics = new DiagnosticsController(parser, () => settings.validation.debounceMs, (line) => output.info(line));
  const generated = new GeneratedDocuments();
  const statusBar = new ValidationStatusBar(diagnostics, parser, generated);
  const chat = new ChatViewProvider(context.extensionUri, assistant, output);
  const telemetryFile = () => assistant.telemetryFile(settings);
  const docs: DocsIndexSource = () => {
    const kb = knowledgeBase();
    return kb ? { ok: true, value: kb } : { ok: false, error: knowledge && !knowledge.ok ? knowledge.error.message : 'knowledge base not loaded' };
  };

  context.subscriptions.push(
    diagnostics,
    statusBar,
    generated,
    chat,
    TraceDocumentProvider.register(diagnostics),
    vscode.languages.registerCodeActionsProvider({ language: 'avap' }, new ParserQuickFixes(diagnostics), {
      providedCodeActionKinds: ParserQuickFixes.kinds,
    }),
    (() => {
      const lens = new StatusCodeLens(diagnostics, generated);
      return vscode.Disposable.from(lens, vscode.languages.registerCodeLensProvider({ language: 'avap' }, lens));
    })(),
    registerLanguageFeatures(),
    registerLanguageModelTools(context, {
      validate: (source, filename, signal) => parser.validate(source, filename, signal),
      docs,
      log: (line) => output.info(line),
    }),
    registerCoreCommands({ diagnostics, parser, output }),
    registerGenerateCommands({ assistant, parser, diagnostics, generated, output }),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, chat, { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.commands.registerCommand('avap.ask', async (question?: string) => {
      if (typeof question === 'string' && question.trim()) return chat.ask(question.trim());
      await chat.reveal();
      return undefined;
    }),
    vscode.commands.registerCommand('avap.showValidationMetrics', () => showMetricsPanel(context.extensionUri, telemetryFile())),
    vscode.commands.registerCommand(OPEN_EVAL_REPORT_COMMAND, (file?: vscode.Uri) => showEvalReportPanel(context.extensionUri, file instanceof vscode.Uri ? file : undefined)),
    vscode.commands.registerCommand('avap.setElasticsearchApiKey', async () => {
      const key = await vscode.window.showInputBox({
        title: 'AVAP: Elasticsearch API key', prompt: 'Stored in the editor\'s secret storage. Leave empty to remove it.',
        password: true, ignoreFocusOut: true,
      });
      if (key === undefined) return;
      if (key.trim()) await context.secrets.store(ES_API_KEY_SECRET, key.trim());
      else await context.secrets.delete(ES_API_KEY_SECRET);
      output.info(`Elasticsearch API key ${key.trim() ? 'stored' : 'removed'}`);
      ready = assistant.rebuild(settings);
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration('avap')) return;
      const next = readSettings();
      for (const problem of next.problems) output.warn(`settings: ${problem}`);
      const changed = changedSections(settings, next.settings);
      settings = next.settings;
      if (changed.assistant) {
        output.info(changed.parser ? 'parser settings changed — reconnecting' : 'assistant settings changed — rebuilding');
        ready = setUp(changed.parser).then(() => {
          if (changed.parser) diagnostics.revalidateAll('parser settings changed');
        });
      }
    }),
    { dispose: () => void stopServices?.() },
  );

  // Documents that were open before activation.
  void ready.then(() => diagnostics.revalidateAll('activation'));

  return {
    ready: () => ready,
    statusLook: () => statusBar.look(),
    outputLines: () => output.lines(),
    parserAddress: () => parser.address(),
    circuit: () => parser.circuit(),
    chat: {
      ask: (question) => chat.ask(question),
      probe: () => chat.probe(),
      clickFirstLink: async () => {
        await chat.reveal();
        await chat.postForTest({ type: 'clickFirstLink' });
      },
      openedLinks: () => [...chat.openedLinks],
      vote: async (vote) => {
        await chat.reveal();
        await chat.postForTest({ type: 'clickVote', vote });
      },
    },
    files: { telemetry: telemetryFile, signals: () => assistant.signalsFile(settings) },
  };
}

async function connectParser(parser: ParserConnection, settings: EditorSettings, output: OutputLog): Promise<void> {
  const result = await parser.connect(settings.parser);
  if (result.ok) output.info(`parser: ${result.address}`);
  else if (result.error !== 'superseded by newer settings') output.warn(`parser unavailable: ${result.error}`);
}

export async function deactivateAvap(): Promise<void> {
  const stop = stopServices;
  stopServices = undefined;
  await stop?.();
}
