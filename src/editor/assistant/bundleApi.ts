/**
 * The assistant bundle's API, the typed seam between activation and the
 * bundle (./main.ts, built to dist/assistant.js): what the seam
 * hands over when it loads the bundle (AssistantHost, with the editor
 * features' services) and what the bundle gives back (AssistantFeatures).
 * Types only — nothing here is code either bundle carries.
 */
import type * as vscode from 'vscode';
import type { AvapExtensionApi } from '../api';
import type { DiagnosticsController } from '../diagnostics/diagnosticsController';
import type { GeneratedDocuments } from '../generate/generatedDocuments';
import type { OutputLog } from '../output/outputLog';
import type { ConfiguredParser } from '../services/configuredParser';
import type { EditorSettings } from '../settings/editorSettings';

/** The entry's services, shared with the assistant (one parser connection, one output, one set of diagnostics). */
export interface AssistantHost {
  readonly context: vscode.ExtensionContext;
  readonly output: OutputLog;
  readonly parser: ConfiguredParser;
  readonly diagnostics: DiagnosticsController;
  readonly generated: GeneratedDocuments;
  /** The `avap.*` settings as they are now. */
  settings: () => EditorSettings;
}

/** The editor features' share of AssistantHost: there once the editor features bundle has started. */
type AssistantServices = Pick<AssistantHost, 'parser' | 'diagnostics' | 'generated' | 'settings'>;

/** What activation hands the seam: the services come from the editor features, which start right after activation. */
export interface SeamHost {
  readonly context: vscode.ExtensionContext;
  readonly output: OutputLog;
  services(): Promise<AssistantServices>;
}

/** What the assistant bundle adds once loaded. Its commands register themselves (see ASSISTANT_COMMANDS). */
export interface AssistantFeatures {
  /** Resolves the chat view (activation registers the view and hands it over). */
  readonly chatView: vscode.WebviewViewProvider;
  /** The language-model tools by name (activation registers the names of package.json). */
  readonly tools: ReadonlyMap<string, vscode.LanguageModelTool<unknown>>;
  /** The chat view as the extension API shows it. */
  readonly chat: AvapExtensionApi['chat'];
  /** Rebuilds the assistant with the settings as they are now (the editor features call it when they change). */
  rebuild(): void;
  /** Resolves once the assistant is set up (or failed) with the current settings. */
  ready(): Promise<void>;
  dispose(): Promise<void>;
}

/** The assistant bundle's module: src/editor/assistant/main.ts, built to dist/assistant.js. */
export interface AssistantBundle {
  activateAssistant: (host: AssistantHost) => AssistantFeatures;
}
