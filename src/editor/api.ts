/** What `activate` returns: a small view for other extensions, and — in test mode only — the e2e tests' hooks. */
import type { CircuitSnapshot, PipelineResult } from '../core';
import type { ChatProbe } from './chat/chatTestHooks';
import type { RunTestHooks } from './run/bundleApi';
import type { StatusLook } from './status/statusLook';

export type { ChatProbe };

export interface AvapExtensionApi {
  /**
   * Resolves once the editor features have started (right after activation) and the parser connection — and the
   * assistant, once it has been loaded (it loads on first use) — is set up (or failed) with the current settings.
   * The answers below are the features' once this has resolved.
   */
  ready(): Promise<void>;
  /** What the status bar item shows now; undefined when hidden (or before the editor features have started). */
  statusLook(): StatusLook | undefined;
  /** The last lines of the AVAP Assistant output channel. */
  outputLines(): string[];
  /** host:port of the parser service in use. */
  parserAddress(): string | undefined;
  circuit(): CircuitSnapshot;
  /** The chat view: ask a question (shows the view; the answer streams into it). */
  chat: {
    ask(question: string): Promise<PipelineResult>;
  };
  /** Files the extension writes (undefined before the editor features have started, which read the settings). */
  files: { telemetry(): string | undefined; signals(): string | undefined };
  /**
   * Present only when the extension runs in test mode (`ExtensionMode.Test`, the extension-host test runner):
   * hooks into the chat webview. A user's installation has no such surface.
   */
  testing?: AvapTestHooks & {
    /** The result view of AVAP: Run File (loads the runner). */
    run: RunTestHooks;
  };
}

export interface AvapTestHooks {
  chat: {
    /** Describes what the chat webview's DOM holds. */
    probe(): Promise<ChatProbe>;
    /** Clicks, in the webview, the last answer's button whose label starts with `label` (in code block `block`). */
    click(label: string, block?: number): Promise<boolean>;
    /** Types into the question box and presses Enter (Shift+Enter with `shift`); resolves with what the box holds after. */
    type(text: string, shift?: boolean): Promise<string>;
    /** Links the webview asked to open that passed the extension's check. */
    openedLinks(): string[];
  };
}
