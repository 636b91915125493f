/**
 * The assistant stack (src/stack: the core's pipeline, the judge, the signal
 * store) as the editor uses it: built from the settings and the ES API key in
 * SecretStorage, sharing the editor's parser, rebuilt when its settings
 * change. Runs go through the quality judge when `avap.quality.judge` is on
 * and are recorded as training signals (with the user's thumbs and outcomes)
 * when `avap.signals.enabled` is on. Never throws to callers.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type * as vscode from 'vscode';
import type { PipelineRequest, PipelineResult, RunOptions } from '../../core';
import type { Logger } from '../../core/ports';
import type { KnowledgeBase } from '../../knowledge';
import type { BadParserUrl } from '../../protocol';
import type { Result } from '../../result';
import type { Outcome, SignalStore, StoreResult, Thumbs } from '../../signals';
import { createAssistantStack, type AssistantStack } from '../../stack';
import { toAssistantConfig } from '../settings/assistantConfig';
import type { EditorSettings } from '../settings/editorSettings';
import { defaultTelemetryFile, signalsFile } from '../settings/storageFiles';
import type { ConfiguredParser } from './configuredParser';
import { runWithoutAssistant } from './runWithoutAssistant';

export const ES_API_KEY_SECRET = 'avap.elasticsearch.apiKey';

/** What the assistant is built from, besides the settings. */
interface AssistantServiceDeps {
  /** The editor's parser connection, shared with the assistant (never closed by it). */
  parser: ConfiguredParser;
  logger: Logger;
  /** Where the Elasticsearch API key is kept. */
  secrets: vscode.SecretStorage;
  /** The extension's storage folder: the telemetry log, the signal store and the cache default to it. */
  storageDir: string;
  /** The shipped knowledge base, loaded once for the editor (undefined when it cannot be loaded). */
  knowledge: () => KnowledgeBase | undefined;
  /** The extension's version (the stack's `assistantVersion`). */
  version: string;
}

export class AssistantService {
  /** The stack for the current settings, or why there is none. */
  private current: Promise<Result<AssistantStack, BadParserUrl>> | undefined;

  constructor(private readonly deps: AssistantServiceDeps) {}

  get defaultTelemetryFile(): string {
    return defaultTelemetryFile(this.deps.storageDir);
  }

  signalsFile(settings: EditorSettings): string {
    return signalsFile(settings, this.deps.storageDir);
  }

  /** (Re)builds the assistant for these settings; the previous one is disposed (its parser is shared and kept). */
  rebuild(settings: EditorSettings): Promise<void> {
    const previous = this.current;
    const next = (async (): Promise<Result<AssistantStack, BadParserUrl>> => {
      const old = await previous;
      if (old?.ok) await old.value.dispose();
      try {
        mkdirSync(this.deps.storageDir, { recursive: true });
      } catch {
        // telemetry then reports its own write failure
      }
      const esApiKey = await Promise.resolve(this.deps.secrets.get(ES_API_KEY_SECRET)).catch(() => undefined);
      const config = toAssistantConfig(settings, {
        esApiKey,
        defaultTelemetryFile: this.defaultTelemetryFile,
        cacheDir: path.join(this.deps.storageDir, 'cache'),
      });
      const knowledge = this.deps.knowledge();
      const created = await createAssistantStack(
        {
          core: config,
          quality: { judge: { enabled: settings.quality.judge, threshold: settings.quality.judgeThreshold } },
          ...(settings.signals.enabled ? { signalsFile: this.signalsFile(settings) } : {}),
        },
        {
          parser: this.deps.parser,
          logger: this.deps.logger,
          ...(knowledge ? { knowledge } : {}),
          caller: {
            source: 'editor',
            assistantVersion: this.deps.version,
            log: (line) => this.deps.logger.warn(`${line}`),
          },
        },
      );
      if (!created.ok) {
        this.deps.logger.warn(`assistant not available: ${created.error.message}`);
        return created;
      }
      const stack = created.value;
      this.deps.logger.info(
        `assistant ready: model ${config.ollama.model} at ${config.ollama.host}, retrieval ${stack.assistant.retrievalName}; ` +
          `judge ${stack.quality ? `on (≥ ${settings.quality.judgeThreshold})` : 'off'}; signals ${stack.signals ? stack.signals.file : 'off'}`,
      );
      return created;
    })();
    this.current = next;
    return next.then(() => undefined);
  }

  async run(request: PipelineRequest, options: RunOptions = {}): Promise<PipelineResult> {
    const current = await this.current;
    if (!current?.ok) {
      options.onMessage?.({ text: '', avap_code: '', is_final: true });
      return runWithoutAssistant(request, current?.error);
    }
    const run = await current.value.run(request, options);
    if (run.quality) {
      const last = run.quality.attempts[run.quality.attempts.length - 1]?.verdict;
      const figure = last?.ok
        ? `composite ${last.assessment.composite.toFixed(2)}`
        : `judge failed (${run.quality.failure?.message ?? 'no verdict'})`;
      this.deps.logger.info(
        `judge: ${figure}, ${run.quality.passed ? 'passed' : 'below the threshold'}${run.quality.retried ? ' after a hinted retry' : ''}`,
      );
    }
    return run.result;
  }

  /** Thumbs from the chat view or a generated preview, on the signal of that generation. */
  async recordFeedback(generationId: string, thumbs: Thumbs): Promise<boolean> {
    return this.recordFact(generationId, `feedback ${thumbs}`, (store) =>
      store.recordFeedback(generationId, thumbs, 'editor'),
    );
  }

  /** What the user did with generated code: accepted it, edited it before saving, or discarded it. */
  async recordOutcome(generationId: string, outcome: Outcome, finalCode?: string): Promise<boolean> {
    return this.recordFact(generationId, `outcome ${outcome}`, (store) =>
      store.recordOutcome(generationId, outcome, 'editor', finalCode),
    );
  }

  private async recordFact(
    generationId: string,
    what: string,
    write: (store: SignalStore) => Promise<StoreResult<void>>,
  ): Promise<boolean> {
    const current = await this.current;
    if (!current?.ok || !current.value.signals) return false;
    const written = await write(current.value.signals);
    if (written.ok) this.deps.logger.info(`signal ${generationId}: ${what} recorded`);
    else this.deps.logger.warn(`signal ${generationId}: ${what} not recorded (${written.error.message})`);
    return written.ok;
  }

  async dispose(): Promise<void> {
    const current = await this.current;
    this.current = undefined;
    if (current?.ok) await current.value.dispose();
  }
}
