/**
 * One of the extension's lazy bundles (esbuild.config.mjs, LAZY_BUNDLES): loaded
 * once, on first use or when activation asks for it, while its commands answer
 * from the start. VS Code runs a command right after the activation that
 * command triggered, so every contributed command must be registered when
 * activate() returns: until the bundle is loaded a stand-in answers for each of
 * its commands, loads the bundle and runs the real command, which the bundle
 * registers in its place in the same tick. A bundle that fails to load is
 * reported (output line, error notification with a way to the output) and
 * tried again by the next use; nothing is thrown into the extension host.
 */
import * as vscode from 'vscode';
import type { OutputLog } from '../output/outputLog';
import { LazyModule } from './lazyModule';

export interface LazyBundleSpec<M, T> {
  /** What the output and the notifications call it: `assistant`, `editor features`. */
  readonly name: string;
  /** The commands the bundle registers when it starts; stand-ins answer for them until then. */
  readonly commands: readonly string[];
  /** Loads the bundle's module: a dynamic import, which the build turns into a require() of its own bundle. */
  readonly importBundle: () => Promise<M>;
  /** Starts the loaded module: it registers its commands and whatever else it contributes. */
  readonly start: (bundle: M) => T;
}

export class LazyBundle<T, M = unknown> implements vscode.Disposable {
  private readonly module: LazyModule<T>;
  private standIns: vscode.Disposable | undefined;

  constructor(
    private readonly output: OutputLog,
    private readonly spec: LazyBundleSpec<M, T>,
  ) {
    this.module = new LazyModule(async () => {
      const started = Date.now();
      const bundle = await spec.importBundle();
      // The bundle registers the real commands: the stand-ins make way in the same tick.
      this.standIns?.dispose();
      this.standIns = undefined;
      try {
        const value = spec.start(bundle);
        output.info(`${spec.name} loaded in ${Date.now() - started} ms`);
        return value;
      } catch (err) {
        this.registerStandIns();
        throw err;
      }
    });
  }

  /** Registers a stand-in for each of the bundle's commands (activation calls it once). */
  registerStandIns(): void {
    const registered: vscode.Disposable[] = [];
    for (const id of this.spec.commands) {
      try {
        registered.push(
          vscode.commands.registerCommand(id, async (...args: unknown[]) => {
            if (!(await this.loadOrReport())) return undefined;
            return vscode.commands.executeCommand(id, ...args);
          }),
        );
      } catch {
        // Already registered by the bundle (a start that failed half-way): that one answers.
      }
    }
    this.standIns = vscode.Disposable.from(...registered);
  }

  /** Loads and starts the bundle (once); rejects when it cannot be loaded. */
  load(): Promise<T> {
    return this.module.load();
  }

  /** Loads the bundle, or reports why it could not be loaded and resolves with undefined. */
  async loadOrReport(): Promise<T | undefined> {
    try {
      return await this.module.load();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.output.warn(
        `the ${this.spec.name} could not be loaded: ${err instanceof Error && err.stack ? err.stack : message}`,
      );
      void vscode.window
        .showErrorMessage(`AVAP: the ${this.spec.name} could not be loaded — ${message}`, 'Show Output')
        .then((choice) => {
          if (choice) this.output.show();
        });
      return undefined;
    }
  }

  /** The started bundle, without loading it. */
  get current(): T | undefined {
    return this.module.current;
  }

  /** True from the first load until it failed (loading or loaded). */
  get requested(): boolean {
    return this.module.requested;
  }

  dispose(): void {
    this.standIns?.dispose();
    this.standIns = undefined;
  }
}
