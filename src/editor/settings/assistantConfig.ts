/** The editor's settings as the core's AssistantConfig. Pure. */
import { defaultConfig, mergeConfig, type AssistantConfig } from '../../core';
import type { EditorSettings } from './editorSettings';
import { toParserConfig } from './parserConfig';

export interface ConfigExtras {
  /** From SecretStorage, never from settings. */
  esApiKey?: string;
  /** Where telemetry goes when `avap.telemetry.file` is empty. */
  defaultTelemetryFile: string;
  /** Where derived data (the few-shot pool's embedding vectors) is cached: the extension's storage. */
  cacheDir?: string;
}

/** The `avap.parser.*` settings in the core's units. */
export function toAssistantConfig(settings: EditorSettings, extras: ConfigExtras): AssistantConfig {
  return mergeConfig(defaultConfig(), {
    parser: toParserConfig(settings.parser),
    ollama: {
      host: settings.ollama.url,
      model: settings.ollama.model,
      conversationalModel: settings.ollama.conversationalModel,
      embeddingModel: settings.ollama.embeddingModel,
      idleTimeoutMs: Math.round(settings.ollama.idleTimeoutSeconds * 1000),
    },
    retrieval: {
      esUrl: settings.elasticsearch.url || undefined,
      esIndex: settings.elasticsearch.index,
      esApiKey: extras.esApiKey || undefined,
    },
    relevance: { mode: settings.relevance.mode, cosineThreshold: settings.relevance.cosineThreshold },
    pipeline: { maxRetries: settings.generation.maxRetries, fewShotExamples: settings.generation.fewShotExamples },
    telemetry: { file: settings.telemetry.file || extras.defaultTelemetryFile },
    cache: { dir: extras.cacheDir },
  });
}
