/** Where the extension writes its files: the configured path, else a file in the extension's storage. Pure. */
import path from 'node:path';
import type { EditorSettings } from './editorSettings';

export function defaultTelemetryFile(storageDir: string): string {
  return path.join(storageDir, 'telemetry.jsonl');
}

export function telemetryFile(settings: EditorSettings, storageDir: string): string {
  return settings.telemetry.file || defaultTelemetryFile(storageDir);
}

export function signalsFile(settings: EditorSettings, storageDir: string): string {
  return settings.signals.file || path.join(storageDir, 'signals.jsonl');
}
