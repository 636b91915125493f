/**
 * The editor features bundle's API, the typed seam between activation
 * (../activate.ts, the extension entry) and the bundle (./main.ts, built to
 * dist/editor-features.js):
 * what activation hands over when it starts the bundle (FeaturesHost) and what
 * the bundle gives back (EditorFeatures). Types only.
 */
import type * as vscode from 'vscode';
import type { CircuitSnapshot } from '../../core';
import type { DiagnosticsController } from '../diagnostics/diagnosticsController';
import type { GeneratedDocuments } from '../generate/generatedDocuments';
import type { OutputLog } from '../output/outputLog';
import type { RunTestHooks } from '../run/bundleApi';
import type { ConfiguredParser } from '../services/configuredParser';
import type { EditorSettings } from '../settings/editorSettings';
import type { StatusLook } from '../status/statusLook';

export interface FeaturesHost {
  readonly context: vscode.ExtensionContext;
  readonly output: OutputLog;
  /** The assistant seam: rebuilt when its settings change, once it is loaded. */
  readonly assistant: { readonly loaded: boolean; settingsChanged(): void };
}

/** What an opened .avap file needs, started: the parser connection, diagnostics, the status item and the rest. */
export interface EditorFeatures {
  readonly parser: ConfiguredParser;
  readonly diagnostics: DiagnosticsController;
  readonly generated: GeneratedDocuments;
  /** The `avap.*` settings as they are now. */
  settings(): EditorSettings;
  /** Resolves once the parser connection is set up (or failed) with the current settings. */
  ready(): Promise<void>;
  statusLook(): StatusLook | undefined;
  circuit(): CircuitSnapshot;
  files: { telemetry(): string; signals(): string };
  /** The result view's test hooks (test mode only); loads the runner. */
  runTesting(): Promise<RunTestHooks | undefined>;
  /** Closes the parser connection (and stops the bundled service) and the runtime's workers, if started. */
  dispose(): Promise<void>;
}

/** The editor features bundle's module: src/editor/features/main.ts, built to dist/editor-features.js. */
export interface FeaturesBundle {
  startEditorFeatures: (host: FeaturesHost) => EditorFeatures;
}
