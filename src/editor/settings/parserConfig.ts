/**
 * The `avap.parser.*` settings as the core's parser configuration (seconds in the settings, milliseconds in the
 * core), through the declarations' mapping (src/surface: each setting names its core field and unit). Type-only
 * core imports: the editor features bundle uses it without loading the assistant's configuration code.
 */
import type { ParserConfig } from '../../core';
import { coreFields } from '../../surface';
import type { EditorSettings } from './editorSettings';

export function toParserConfig(parser: EditorSettings['parser']): ParserConfig {
  return coreFields({ parser }).parser as unknown as ParserConfig;
}
