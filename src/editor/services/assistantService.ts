/**
 * The core assistant (pipeline) as the editor uses it: built from the
 * settings and the ES API key in SecretStorage, sharing the editor's parser
 * connection, rebuilt when its settings change. Never throws to callers.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type * as vscode from 'vscode';
import { createAssistant, type Assistant } from '../../core/assistant';
import type { PipelineRequest, PipelineResult } from '../../core/contracts';
import type { RunOptions } from '../../core/pipeline/graph';
import type { Logger } from '../../core/ports';
import { toAssistantConfig } from '../settings/assistantConfig';
import type { EditorSettings } from '../settings/editorSettings';
import type { ParserConnection } from './parserConnection';

export const ES_API_KEY_SECRET = 'avap.elasticsearch.apiKey';

export class AssistantService {
  private current: Promise<Assistant | string> | undefined;

  constructor(
    private readonly parser: ParserConnection,
    private readonly logger: Logger,
    private readonly secrets: vscode.SecretStorage,
    private readonly storageDir: string,
  ) {}

  get defaultTelemetryFile(): string {
    return path.join(this.storageDir, 'telemetry.jsonl');
  }

  telemetryFile(settings: EditorSettings): string {
    return settings.telemetry.file || this.defaultTelemetryFile;
  }

  /** (Re)builds the assistant for these settings; the previous one is disposed (its parser is shared and kept). */
  rebuild(settings: EditorSettings): Promise<void> {
    const previous = this.current;
    const next = (async (): Promise<Assistant | string> => {
      const old = await previous;
      if (old && typeof old !== 'string') await old.dispose();
      try {
        mkdirSync(this.storageDir, { recursive: true });
      } catch {
        // telemetry then reports its own write failure
      }
      const esApiKey = await Promise.resolve(this.secrets.get(ES_API_KEY_SECRET)).catch(() => undefined);
      const config = toAssistantConfig(settings, { esApiKey, defaultTelemetryFile: this.defaultTelemetryFile });
      const created = await createAssistant(config, { parser: this.parser, logger: this.logger });
      if (!created.ok) {
        this.logger.warn(`[ptvl] assistant not available: ${created.error}`);
        return created.error;
      }
      this.logger.info(`[ptvl] assistant ready: model ${config.ollama.model} at ${config.ollama.host}, retrieval ${created.assistant.retrievalName}`);
      return created.assistant;
    })();
    this.current = next;
    return next.then(() => undefined);
  }

  async run(request: PipelineRequest, options: RunOptions = {}): Promise<PipelineResult> {
    const assistant = await this.current;
    if (!assistant || typeof assistant === 'string') {
      const message = typeof assistant === 'string' ? assistant : 'the assistant is not set up';
      options.onMessage?.({ text: '', avap_code: '', is_final: true, validation_status: '' });
      return {
        queryType: request.forceType ?? 'CODE_GENERATION', text: '', code: '', validationStatus: '', attempts: [], sources: [],
        relevanceRetry: false, generationId: 'not-started', error: { code: 'llm-failed', message },
      };
    }
    return assistant.run(request, options);
  }

  async dispose(): Promise<void> {
    const assistant = await this.current;
    this.current = undefined;
    if (assistant && typeof assistant !== 'string') await assistant.dispose();
  }
}
