/**
 * The lazy-loading seam of the assistant (activation side). The extension
 * entry (dist/extension.js) only registers what the extension contributes;
 * the editor features bundle (dist/editor-features.js) starts right after
 * activation with what an opened .avap file needs. The assistant — Ollama,
 * retrieval (Elasticsearch, the embedded index), the knowledge base, markdown,
 * the judge, training signals, metrics — is the bundle dist/assistant.js,
 * built from ./main.ts and loaded the first time something needs it: one of
 * its commands runs, the chat view opens, a language-model tool is invoked.
 *
 * At activation this seam registers, cheaply, everything the assistant
 * answers: each id of ASSISTANT_COMMANDS with a stand-in that loads the
 * bundle and runs the real command (the bundle registers the real ones in
 * place of the stand-ins), the chat view, and the tools of package.json.
 *
 * Adding an assistant feature: write it in its own module, register it in
 * ./main.ts (one line) and, for a command, add a row to ../commandIds.ts. The
 * entry and the editor features may `import type` from assistant modules, never
 * import their code: a static import would pull the bundle into theirs
 * (test/unit/build/bundles.test.ts fails when a bundle holds what belongs to another).
 */
import * as vscode from 'vscode';
import type { AvapExtensionApi, AvapTestHooks } from '../api';
import { LazyBundle } from '../lazy/lazyBundle';
import type { AssistantBundle, AssistantFeatures, AssistantHost, SeamHost } from './bundleApi';
import { ASSISTANT_COMMANDS, CHAT_VIEW_ID } from './ids';

/** The language-model tools the extension contributes (package.json), registered under these names. */
function contributedTools(context: vscode.ExtensionContext): string[] {
  const json = context.extension.packageJSON as { contributes?: { languageModelTools?: { name?: unknown }[] } };
  return (json.contributes?.languageModelTools ?? [])
    .map((t) => t.name)
    .filter((n): n is string => typeof n === 'string');
}

export class AssistantSeam implements vscode.Disposable {
  private readonly bundle: LazyBundle<AssistantFeatures, { assistant: AssistantBundle; host: AssistantHost }>;
  private readonly registrations: vscode.Disposable[] = [];

  constructor(
    private readonly host: SeamHost,
    importBundle: () => Promise<AssistantBundle> = () => import('./main.js'),
  ) {
    this.bundle = new LazyBundle(host.output, {
      name: 'assistant',
      commands: ASSISTANT_COMMANDS,
      // The assistant shares the editor features' services (one parser connection, one set of diagnostics).
      importBundle: async () => {
        const [assistant, services] = await Promise.all([importBundle(), host.services()]);
        return { assistant, host: { context: host.context, output: host.output, ...services } };
      },
      start: ({ assistant, host: full }) => assistant.activateAssistant(full),
    });
  }

  /** Registers the assistant's commands, chat view and tools without loading it. */
  register(): vscode.Disposable {
    this.bundle.registerStandIns();
    this.registrations.push(
      vscode.window.registerWebviewViewProvider(
        CHAT_VIEW_ID,
        {
          resolveWebviewView: async (view, context, token) => {
            const features = await this.loadOrReport();
            if (features) await features.chatView.resolveWebviewView(view, context, token);
            else view.webview.html = '<p>The AVAP assistant could not be loaded; see the AVAP Assistant output.</p>';
          },
        },
        { webviewOptions: { retainContextWhenHidden: true } },
      ),
    );
    if (typeof vscode.lm?.registerTool === 'function') {
      const names = contributedTools(this.host.context);
      for (const name of names) {
        this.registrations.push(
          vscode.lm.registerTool<unknown>(name, {
            prepareInvocation: async (options, token) =>
              (await this.loadOrReport())?.tools.get(name)?.prepareInvocation?.(options, token),
            invoke: async (options, token) => {
              const tool = (await this.loadOrReport())?.tools.get(name);
              if (tool) return tool.invoke(options, token);
              const summary = 'the AVAP assistant could not be loaded (see the AVAP Assistant output)';
              return new vscode.LanguageModelToolResult([
                new vscode.LanguageModelTextPart(
                  JSON.stringify({ tool: name, status: 'FAILED', summary, facts: {}, next: [] }, null, 2),
                ),
              ]);
            },
          }),
        );
      }
      this.host.output.info(`language-model tools registered: ${names.join(', ')}`);
    } else {
      this.host.output.info('language-model tools not registered: this editor has no vscode.lm.registerTool');
    }
    return new vscode.Disposable(() => {
      this.bundle.dispose();
      for (const r of this.registrations.splice(0)) r.dispose();
    });
  }

  /** Loads the assistant bundle (once) and sets it up; rejects when it cannot be loaded. */
  load(): Promise<AssistantFeatures> {
    return this.bundle.load();
  }

  /** Resolves once the assistant is set up with the current settings; at once while it is not loaded. */
  ready(): Promise<void> {
    if (!this.bundle.requested) return Promise.resolve();
    return this.bundle.load().then(
      (features) => features.ready(),
      () => undefined,
    );
  }

  /** True once the assistant bundle is loaded and set up. */
  get loaded(): boolean {
    return this.bundle.current !== undefined;
  }

  /** The settings changed: a loaded assistant is rebuilt (one not loaded yet reads them when it loads). */
  settingsChanged(): void {
    this.bundle.current?.rebuild();
  }

  /** The chat view for the extension API: each call loads the assistant first. */
  readonly chat: AvapExtensionApi['chat'] = {
    ask: async (question) => (await this.load()).chat.ask(question),
  };

  /** The test hooks (the extension API carries them in test mode only); each call loads the assistant first. */
  readonly testing: AvapTestHooks = {
    chat: {
      probe: async () => (await this.testHooks()).chat.probe(),
      click: async (label, block) => (await this.testHooks()).chat.click(label, block),
      type: async (text, shift) => (await this.testHooks()).chat.type(text, shift),
      openedLinks: () => this.bundle.current?.testing?.chat.openedLinks() ?? [],
    },
  };

  private async testHooks(): Promise<AvapTestHooks> {
    const hooks = (await this.load()).testing;
    if (!hooks) throw new Error('the chat test hooks exist only when the extension runs in test mode');
    return hooks;
  }

  async dispose(): Promise<void> {
    await this.bundle.current?.dispose();
  }

  private loadOrReport(): Promise<AssistantFeatures | undefined> {
    return this.bundle.loadOrReport();
  }
}
