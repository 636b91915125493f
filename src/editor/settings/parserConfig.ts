/**
 * The `avap.parser.*` settings as the core's parser configuration (seconds in
 * the settings, milliseconds in the core). Type-only imports: the editor
 * features bundle uses it without loading the assistant's configuration code.
 */
import type { ParserConfig } from '../../core';
import type { EditorSettings } from './editorSettings';

export function toParserConfig(parser: EditorSettings['parser']): ParserConfig {
  return {
    url: parser.url || undefined,
    timeoutMs: Math.round(parser.timeoutSeconds * 1000),
    breakerThreshold: parser.breakerThreshold,
    breakerCooldownMs: Math.round(parser.breakerCooldownSeconds * 1000),
  };
}
