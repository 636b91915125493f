/** What `activate` returns: a small view for other extensions (the same in every installation and every mode). */
import type { CircuitSnapshot, PipelineResult } from '../core';
import type { StatusLook } from './status/statusLook';

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
}
