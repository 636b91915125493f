/**
 * The `avap.*` settings, read through an accessor and checked against their declarations (src/surface/settings.ts:
 * keys, types, defaults, bounds). Pure: the adapter passes `vscode.workspace.getConfiguration('avap').get`. Bad
 * values fall back to the default and are reported, never thrown.
 */
import { parserUrlProblem } from '../../core/parser/url';
import {
  readSettingValues,
  settingDefaults,
  type FormatChecks,
  type SettingsAccessor,
  type SettingsRead,
  type SettingValues,
} from '../../surface';

export type { SettingsAccessor, SettingsRead };

/** Every setting's value, in the declarations' shape (`settings.parser.timeoutSeconds`, in the setting's unit). */
export type EditorSettings = SettingValues;

/** @internal */
export const SETTING_DEFAULTS: EditorSettings = settingDefaults();

/** The declared formats: the parser URL grammar (the core's), and http(s) URLs. */
const FORMATS: FormatChecks = {
  'parser-url': (value) => parserUrlProblem(value) === undefined,
  'http-url': (value) => /^https?:\/\/\S+$/.test(value),
};

export function readEditorSettings(get: SettingsAccessor): SettingsRead {
  return readSettingValues(get, FORMATS);
}

/** Which services must be rebuilt when settings change from `before` to `after`. */
export function changedSections(
  before: EditorSettings,
  after: EditorSettings,
): { parser: boolean; assistant: boolean } {
  const parser = JSON.stringify(before.parser) !== JSON.stringify(after.parser);
  const assistant =
    parser ||
    JSON.stringify([
      before.ollama,
      before.elasticsearch,
      before.relevance,
      before.generation,
      before.quality,
      before.telemetry,
      before.signals,
    ]) !==
      JSON.stringify([
        after.ollama,
        after.elasticsearch,
        after.relevance,
        after.generation,
        after.quality,
        after.telemetry,
        after.signals,
      ]);
  return { parser, assistant };
}
