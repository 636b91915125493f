/**
 * Running AVAP in the editor, as the editor features register it at start-up — cheaply: the commands (AVAP: Run
 * File, Edit Run Request…, Add Test Case from Last Run, Run the File's Test Cases), the `▶ Run` lens on an
 * `.avap` file's first line and the Testing view's items. Everything that runs — the sandbox's worker pool, the
 * result view, values in the code — is the runner bundle (./runner.ts → dist/runner.js), loaded on the first
 * run; the pool's workers start then, never at activation.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../commandIds';
import { LazyModule } from '../lazy/lazyModule';
import type { OutputLog } from '../output/outputLog';
import type { EditorSettings } from '../settings/editorSettings';
import type { RunArgs, Runner, RunnerBundle, RunTestHooks, TestSummary } from './bundleApi';
import { RunCodeLens } from './runLens';
import { AvapTests } from './testsView';

export interface RunFeaturesHost {
  readonly context: vscode.ExtensionContext;
  readonly output: OutputLog;
  settings(): EditorSettings;
}

export interface RunFeatures extends vscode.Disposable {
  /** The runner when it has been loaded (the first run loads it). */
  readonly loaded: boolean;
  /** The result view's hooks for the extension's own tests (test mode only); loads the runner. */
  testing(): Promise<RunTestHooks | undefined>;
  /** Closes the sandbox's workers, if they were started. */
  stop(): Promise<void>;
}

export function registerRun(host: RunFeaturesHost): RunFeatures {
  const { output } = host;
  const tests: AvapTests = new AvapTests(
    (request, token) =>
      loadRunner().then(
        (runner) => runner?.runTests(request, token),
        () => undefined,
      ) as Promise<void>,
  );
  const runner = new LazyModule<Runner>(async () => {
    const started = Date.now();
    const bundle = (await import('./runner.js')) as RunnerBundle;
    const value = bundle.startRunner({ ...host, tests });
    output.info(`runner loaded in ${Date.now() - started} ms`);
    return value;
  });
  async function loadRunner(): Promise<Runner | undefined> {
    try {
      return await runner.load();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      output.warn(`the runner could not be loaded: ${err instanceof Error && err.stack ? err.stack : message}`);
      void vscode.window
        .showErrorMessage(`AVAP: the runner could not be loaded — ${message}`, 'Show Output')
        .then((choice) => choice && output.show());
      return undefined;
    }
  }
  const lens = new RunCodeLens();
  const disposables = vscode.Disposable.from(
    tests,
    lens,
    vscode.languages.registerCodeLensProvider({ language: 'avap' }, lens),
    vscode.commands.registerCommand(COMMANDS.runFile.id, async (args?: RunArgs | vscode.Uri) =>
      (await loadRunner())?.runFile(args instanceof vscode.Uri ? { uri: args } : args),
    ),
    vscode.commands.registerCommand(COMMANDS.editRunRequest.id, async (args?: { uri?: string } | vscode.Uri) =>
      (await loadRunner())?.editRequest(args instanceof vscode.Uri ? { uri: args } : args),
    ),
    vscode.commands.registerCommand(
      COMMANDS.addTestCaseFromLastRun.id,
      async (args?: { uri?: string; name?: string } | vscode.Uri) =>
        (await loadRunner())?.addCaseFromLastRun(args instanceof vscode.Uri ? { uri: args } : args),
    ),
    vscode.commands.registerCommand(
      COMMANDS.testFile.id,
      async (args?: { uri?: string } | vscode.Uri): Promise<TestSummary | undefined> =>
        (await loadRunner())?.testFile(args instanceof vscode.Uri ? { uri: args } : args),
    ),
  );
  return {
    get loaded() {
      return runner.current !== undefined;
    },
    testing: async () => (await loadRunner())?.testing,
    stop: async () => {
      await runner.current?.dispose();
    },
    dispose: () => {
      disposables.dispose();
      void runner.current?.dispose();
    },
  };
}
