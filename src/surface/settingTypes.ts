/** What one setting declaration says (./settings.ts), and the value types derived from the declarations. */

/** The units a setting or an environment variable can be in; a setting and its variable share one. */
export type Unit = 's' | 'ms' | 'MiB';

/** VS Code's setting scopes (where a value may be set: user, remote machine, workspace, folder). */
type SettingScope = 'application' | 'machine' | 'machine-overridable' | 'window' | 'resource';

interface Common {
  /** The full key, `avap.section.name`. */
  key: `avap.${string}`;
  scope: SettingScope;
  /** Position in the Settings editor. */
  order: number;
  /** The Settings editor's text (Markdown); names the mirrored variable as env `NAME`. */
  description: string;
  /** The README's one-line meaning. */
  summary: string;
  /** The design's environment variable the setting mirrors: the same name everywhere, the same unit. */
  env?: { name: string; unit?: Unit; list?: 'comma-separated' };
  /** Where the core's configuration (AssistantConfig) takes the value: `section.field`, and its unit there. */
  core?: { path: string; unit?: Unit };
}

interface StringSetting extends Common {
  type: 'string';
  default: string;
  enum?: readonly string[];
  enumDescriptions?: readonly string[];
  /** A check the reader applies to a non-empty value (the reader is given the checks by name). */
  format?: SettingFormat;
  /** An empty value means the default (a model name cannot be empty). */
  required?: true;
  /** What an empty value means (the README's default column), when it means something. */
  emptyMeans?: string;
}

interface NumberSetting extends Common {
  type: 'number' | 'integer';
  default: number;
  minimum?: number;
  maximum?: number;
  enum?: readonly number[];
  enumDescriptions?: readonly string[];
  unit?: Unit;
  /** What a bad value is told it must be, when the bounds do not say it well. */
  rule?: string;
}

interface BooleanSetting extends Common {
  type: 'boolean';
  default: boolean;
}

/** A list of strings (each trimmed, empty ones dropped). */
interface StringListSetting extends Common {
  type: 'array';
  default: readonly string[];
}

export type SettingDeclaration = StringSetting | NumberSetting | BooleanSetting | StringListSetting;

export type SettingFormat = 'http-url' | 'parser-url';

/** The value a declaration reads as. */
type ValueOf<D> = D extends { type: 'boolean' }
  ? boolean
  : D extends { type: 'array' }
    ? string[]
    : D extends { type: 'number' | 'integer' }
      ? number
      : D extends { enum: readonly (infer E)[] }
        ? E
        : string;

/** The values of a tree of declarations, in the tree's shape. */
export type ValuesOf<T extends Record<string, Record<string, SettingDeclaration>>> = {
  -readonly [S in keyof T]: { -readonly [F in keyof T[S]]: ValueOf<T[S][F]> };
};
