/** What `activate` returns: a small view for other extensions and the e2e tests. */
import type { CircuitSnapshot, PipelineResult } from '../core';
import type { ChatProbe } from './chat/chatView';
import type { StatusLook } from './status/statusLook';

export interface AvapExtensionApi {
  /**
   * Resolves once the parser connection — and the assistant, once it has been loaded (it loads on first use) — is
   * set up (or failed) with the current settings.
   */
  ready(): Promise<void>;
  /** What the status bar item shows now; undefined when hidden. */
  statusLook(): StatusLook | undefined;
  /** The last lines of the AVAP output channel. */
  outputLines(): string[];
  /** host:port of the parser service in use. */
  parserAddress(): string | undefined;
  circuit(): CircuitSnapshot;
  /** The chat view: ask a question (shows the view), and describe what its DOM holds. */
  chat: {
    ask(question: string): Promise<PipelineResult>;
    probe(): Promise<ChatProbe>;
    /** Asks the webview to click its first link (the link then comes back through the extension's check). */
    clickFirstLink(): Promise<void>;
    openedLinks(): string[];
    /** Clicks thumbs up/down on the last answer, in the webview. */
    vote(vote: 'up' | 'down'): Promise<void>;
  };
  /** Files the extension writes. */
  files: { telemetry(): string; signals(): string };
}
