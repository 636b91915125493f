/**
 * Activation: the composition root of the editor, kept to what must exist
 * when activate() returns — VS Code waits for it before it shows the file
 * that activated the extension, and runs a command right after the activation
 * that command triggered. So activation registers, without loading them,
 * every command (a stand-in each), the chat view and the language-model tools,
 * and returns; the bundles that implement them load afterwards:
 *
 * - dist/editor-features.js (./features/main.ts), started right after
 *   activate() returns: what an opened `.avap` file needs — the parser
 *   connection, diagnostics, the status item, quick fixes, hover, the core
 *   commands — and the first run;
 * - dist/assistant.js (./assistant/main.ts), on first use, through the seam
 *   (./assistant/seam.ts): model, retrieval, knowledge base, markdown, judge,
 *   signals, metrics.
 *
 * A feature belongs in one of those bundles, not here. Failures are reported
 * loudly with a way to the output, never thrown out of the extension host.
 */
import * as vscode from 'vscode';
import type { AvapExtensionApi } from './api';
import { AssistantSeam } from './assistant/seam';
import { EDITOR_COMMANDS } from './commandIds';
import type { EditorFeatures, FeaturesBundle } from './features/bundleApi';
import { LazyBundle } from './lazy/lazyBundle';
import { OutputLog } from './output/outputLog';
import type { RunTestHooks } from './run/bundleApi';

let stopServices: (() => Promise<void>) | undefined;

export function activateAvap(context: vscode.ExtensionContext): Promise<AvapExtensionApi | undefined> {
  const output = new OutputLog();
  context.subscriptions.push(output);
  try {
    return Promise.resolve(register(context, output));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    output.write(`activation failed: ${err instanceof Error && err.stack ? err.stack : message}`);
    void vscode.window.showErrorMessage(`AVAP Assistant could not start: ${message}`, 'Show Output').then((choice) => {
      if (choice) output.show();
    });
    return Promise.resolve(undefined);
  }
}

function register(context: vscode.ExtensionContext, output: OutputLog): AvapExtensionApi {
  // The assistant shares the editor features' services; it asks for them when it loads, after this has returned.
  const assistant: AssistantSeam = new AssistantSeam({ context, output, services: () => features.load() });
  const features = new LazyBundle(output, {
    name: 'editor features',
    commands: EDITOR_COMMANDS,
    importBundle: (): Promise<FeaturesBundle> => import('./features/main.js'),
    start: (bundle) => bundle.startEditorFeatures({ context, output, assistant }),
  });
  let stopping = false;
  stopServices = async () => {
    stopping = true;
    await assistant.dispose();
    // Features still starting are waited for, so their parser connection (and the bundled service) is closed too.
    if (features.requested)
      await features.load().then(
        (started) => started.dispose(),
        () => undefined,
      );
  };
  features.registerStandIns();
  context.subscriptions.push(
    features,
    // The assistant: its commands, chat view and tools answer now; its bundle loads on first use.
    assistant.register(),
    { dispose: () => void stopServices?.() },
  );

  // The editor features start as soon as VS Code has taken the activation (a macrotask after this returns),
  // unless the extension was deactivated in between.
  setImmediate(() => {
    if (!stopping) void features.loadOrReport();
  });

  return {
    // A failed start has been reported (and the stand-ins try again); ready() only waits.
    ready: async () => {
      await Promise.all([
        features.load().then(
          (started) => started.ready(),
          () => undefined,
        ),
        assistant.ready(),
      ]);
    },
    statusLook: () => features.current?.statusLook(),
    outputLines: () => output.lines(),
    parserAddress: () => features.current?.parser.address(),
    // No parser connection yet: the connection's own answer when it has none.
    circuit: () => features.current?.circuit() ?? { state: 'not-connected', consecutiveFailures: 0 },
    chat: assistant.chat,
    files: { telemetry: () => features.current?.files.telemetry(), signals: () => features.current?.files.signals() },
    // Only the extension-host test runner gets hooks into the webviews.
    ...(context.extensionMode === vscode.ExtensionMode.Test
      ? {
          testing: {
            ...assistant.testing,
            run: {
              probe: async () => (await runHooks(features)).probe(),
              click: async (label: string) => (await runHooks(features)).click(label),
            },
          },
        }
      : {}),
  };
}

/** The result view's test hooks, from the editor features (test mode only). */
async function runHooks(features: LazyBundle<EditorFeatures, FeaturesBundle>): Promise<RunTestHooks> {
  const hooks = await (await features.load()).runTesting();
  if (!hooks) throw new Error('the result view test hooks exist only when the extension runs in test mode');
  return hooks;
}

export async function deactivateAvap(): Promise<void> {
  const stop = stopServices;
  stopServices = undefined;
  await stop?.();
}
