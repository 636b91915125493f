/**
 * The assistant bundle (dist/assistant.js), loaded on first use through the
 * seam (./seam.ts): the composition root of everything that talks to a model
 * or the knowledge base. An assistant feature registers here with one line;
 * its command ids go into ASSISTANT_COMMANDS so the entry can offer them
 * before this bundle is loaded.
 */
import * as vscode from 'vscode';
import { ChatViewProvider } from '../chat/chatView';
import { registerCheckOllama } from '../firstRun/checkOllamaCommand';
import { KnowledgeDocumentProvider } from '../chat/knowledgeDocuments';
import { registerGenerateAtCursor } from '../generate/generateAtCursor';
import { registerGenerateCommands } from '../generate/generateCommands';
import { showEvalReportPanel, showMetricsPanel } from '../metrics/metricsPanel';
import { AssistantService, ES_API_KEY_SECRET } from '../services/assistantService';
import { telemetryFile } from '../settings/storageFiles';
import { languageModelTools } from '../tools/registerTools';
import { loadKnowledgeBase } from '../../knowledge';
import { fail, ok } from '../../result';
import type { DocsIndexSource } from '../../tools';
import type { AssistantFeatures, AssistantHost } from './bundleApi';
import { COMMANDS } from '../commandIds';

export function activateAssistant(host: AssistantHost): AssistantFeatures {
  const { context, output, parser, diagnostics, generated } = host;
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
  const docs: DocsIndexSource = () => {
    const kb = knowledgeBase();
    return kb
      ? ok(kb)
      : fail(
          'knowledge-unavailable',
          knowledge && !knowledge.ok ? knowledge.error.message : 'knowledge base not loaded',
        );
  };
  const { version: declared } = context.extension.packageJSON as { version?: unknown };
  const version = typeof declared === 'string' ? declared : '0.0.0';
  const assistant = new AssistantService({
    parser,
    logger: output.logger,
    secrets: context.secrets,
    storageDir,
    knowledge: knowledgeBase,
    version,
  });
  let ready = assistant.rebuild(host.settings());
  const rebuild = () => {
    ready = assistant.rebuild(host.settings());
  };
  const chat = new ChatViewProvider(context.extensionUri, assistant, output, {
    state: context.workspaceState,
    knowledge: knowledgeBase,
  });

  const registrations = vscode.Disposable.from(
    chat,
    registerGenerateCommands({ assistant, parser, diagnostics, generated, output, settings: host.settings }),
    registerGenerateAtCursor({ assistant, generated, output, settings: host.settings }),
    registerCheckOllama({ settings: host.settings, output }),
    KnowledgeDocumentProvider.register(knowledgeBase),
    vscode.commands.registerCommand(COMMANDS.clearChat.id, () => chat.clear()),
    vscode.commands.registerCommand(COMMANDS.ask.id, async (question?: string) => {
      if (typeof question === 'string' && question.trim()) return chat.ask(question.trim());
      await chat.reveal();
      return undefined;
    }),
    vscode.commands.registerCommand(COMMANDS.showValidationMetrics.id, () =>
      showMetricsPanel(context.extensionUri, telemetryFile(host.settings(), storageDir)),
    ),
    vscode.commands.registerCommand(COMMANDS.openEvaluationReport.id, (file?: vscode.Uri) =>
      showEvalReportPanel(context.extensionUri, file instanceof vscode.Uri ? file : undefined),
    ),
    vscode.commands.registerCommand(COMMANDS.setElasticsearchApiKey.id, async () => {
      const key = await vscode.window.showInputBox({
        title: 'AVAP: Elasticsearch API key',
        prompt: "Stored in the editor's secret storage. Leave empty to remove it.",
        password: true,
        ignoreFocusOut: true,
      });
      if (key === undefined) return;
      if (key.trim()) await context.secrets.store(ES_API_KEY_SECRET, key.trim());
      else await context.secrets.delete(ES_API_KEY_SECRET);
      output.info(`Elasticsearch API key ${key.trim() ? 'stored' : 'removed'}`);
      rebuild();
    }),
  );
  context.subscriptions.push(registrations);

  return {
    chatView: chat,
    tools: languageModelTools({
      validate: (source, filename, signal) => parser.validate(source, filename, signal),
      docs,
      log: (line) => output.info(line),
    }),
    chat: { ask: (question) => chat.ask(question) },
    rebuild,
    ready: () => ready,
    dispose: async () => {
      registrations.dispose();
      await assistant.dispose();
    },
  };
}
