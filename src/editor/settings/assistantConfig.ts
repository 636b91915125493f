/** The editor's settings as the core's AssistantConfig. Pure. */
import { configFromSettings, mergeConfig, type AssistantConfig } from '../../core';
import type { EditorSettings } from './editorSettings';

export interface ConfigExtras {
  /** From SecretStorage, never from settings. */
  esApiKey?: string;
  /** Where telemetry goes when `avap.telemetry.file` is empty. */
  defaultTelemetryFile: string;
  /** Where derived data (the few-shot pool's embedding vectors) is cached: the extension's storage. */
  cacheDir?: string;
}

/**
 * Each setting in the core field its declaration names, in the core's units (src/surface/settings.ts), and what
 * the editor adds: the secret API key, its own storage for telemetry and the cache.
 */
export function toAssistantConfig(settings: EditorSettings, extras: ConfigExtras): AssistantConfig {
  return mergeConfig(configFromSettings(settings), {
    retrieval: { esApiKey: extras.esApiKey || undefined },
    telemetry: { file: settings.telemetry.file || extras.defaultTelemetryFile },
    cache: { dir: extras.cacheDir },
  });
}
