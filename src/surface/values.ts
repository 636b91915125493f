/**
 * The settings' values, read from their declarations (./settings.ts): the defaults, the checked reader (bad
 * values fall back to the default and are reported, never thrown) and the fields the core's configuration takes.
 * Pure: the reader is given an accessor (the editor passes `getConfiguration('avap').get`) and the checks of the
 * declared formats (the parser URL grammar belongs to the core).
 */
import { SETTINGS } from './settings';
import type { SettingDeclaration, SettingFormat, Unit, ValuesOf } from './settingTypes';

/** Every setting's value, in the declarations' shape: `values.parser.timeoutSeconds`. */
export type SettingValues = ValuesOf<typeof SETTINGS>;

export interface SettingEntry {
  section: string;
  field: string;
  declaration: SettingDeclaration;
}

/** The declarations in order (package.json's and the README's). */
export const SETTING_ENTRIES: readonly SettingEntry[] = Object.entries(SETTINGS).flatMap(([section, fields]) =>
  Object.entries(fields as Record<string, SettingDeclaration>).map(([field, declaration]) => ({
    section,
    field,
    declaration,
  })),
);

/**
 * The key under the `avap` section, as `getConfiguration('avap').get` takes it: `parser.timeout`.
 * @internal
 */
export function relativeKey(declaration: SettingDeclaration): string {
  return declaration.key.slice('avap.'.length);
}

function copy(value: SettingDeclaration['default']): unknown {
  return Array.isArray(value) ? [...(value as readonly string[])] : value;
}

function build(valueOf: (entry: SettingEntry) => unknown): SettingValues {
  const out: Record<string, Record<string, unknown>> = {};
  for (const entry of SETTING_ENTRIES) (out[entry.section] ??= {})[entry.field] = valueOf(entry);
  return out as SettingValues;
}

/** Every setting at its declared default. */
export function settingDefaults(): SettingValues {
  return build(({ declaration }) => copy(declaration.default));
}

export type SettingsAccessor = (key: string) => unknown;

export interface SettingsRead {
  settings: SettingValues;
  /** One line per ignored value, for the output channel. */
  problems: string[];
}

/** The checks of the declared formats: true when a non-empty value is acceptable. */
export type FormatChecks = Record<SettingFormat, (value: string) => boolean>;

const UNIT_WORDS: Record<Unit, string> = { s: 'seconds', ms: 'milliseconds', MiB: 'MiB' };

/** What a bad number is told it must be: `an integer between 1 and 100`, `a number of seconds between 0 and 600`. */
function numberRule(declaration: Extract<SettingDeclaration, { type: 'number' | 'integer' }>): string {
  if (declaration.rule) return declaration.rule;
  if (declaration.enum) return declaration.enum.join(' or ');
  const kind = declaration.type === 'integer' ? 'an integer' : 'a number';
  const unit = declaration.unit
    ? `${declaration.type === 'integer' ? ' number' : ''} of ${UNIT_WORDS[declaration.unit]}`
    : '';
  const { minimum: min, maximum: max } = declaration;
  const bounds =
    min !== undefined && max !== undefined
      ? ` between ${min} and ${max}`
      : min !== undefined
        ? ` of at least ${min}`
        : max !== undefined
          ? ` of at most ${max}`
          : '';
  return `${kind}${unit}${bounds}`;
}

function readOne(declaration: SettingDeclaration, raw: unknown, checks: FormatChecks, problems: string[]): unknown {
  const name = declaration.key;
  const absent = raw === undefined || raw === null;
  switch (declaration.type) {
    case 'string': {
      const fallback = declaration.default;
      if (absent) return fallback;
      if (typeof raw !== 'string') {
        problems.push(`${name} must be a string; using '${fallback}'`);
        return fallback;
      }
      const value = raw.trim();
      if (declaration.enum && !declaration.enum.includes(value)) {
        const choices = declaration.enum.map((c) => `'${c}'`).join(' or ');
        problems.push(`${name} must be ${choices}, got '${value}'; using '${fallback}'`);
        return fallback;
      }
      if (value !== '' && declaration.format && !checks[declaration.format](value)) {
        problems.push(`${name} '${value}' is not a valid URL; using '${fallback || '(default)'}'`);
        return fallback;
      }
      return value === '' && declaration.required ? fallback : value;
    }
    case 'number':
    case 'integer': {
      const fallback = declaration.default;
      if (absent || raw === '') return fallback;
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : Number.NaN;
      const fits =
        Number.isFinite(n) &&
        (declaration.type === 'number' || Number.isInteger(n)) &&
        (declaration.minimum === undefined || n >= declaration.minimum) &&
        (declaration.maximum === undefined || n <= declaration.maximum) &&
        (declaration.enum === undefined || declaration.enum.includes(n));
      if (!fits) {
        problems.push(`${name} must be ${numberRule(declaration)}, got ${JSON.stringify(raw)}; using ${fallback}`);
        return fallback;
      }
      return n;
    }
    case 'boolean': {
      if (absent) return declaration.default;
      if (typeof raw !== 'boolean') {
        problems.push(`${name} must be true or false; using ${declaration.default}`);
        return declaration.default;
      }
      return raw;
    }
    case 'array': {
      const fallback = [...declaration.default];
      if (absent) return fallback;
      if (!Array.isArray(raw) || !raw.every((v) => typeof v === 'string')) {
        problems.push(`${name} must be a list of strings; using ${JSON.stringify(fallback)}`);
        return fallback;
      }
      return raw.map((v: string) => v.trim()).filter(Boolean);
    }
  }
}

/** Every setting through `get` (keys under `avap`), checked against its declaration. */
export function readSettingValues(get: SettingsAccessor, checks: FormatChecks): SettingsRead {
  const problems: string[] = [];
  const settings = build(({ declaration }) => readOne(declaration, get(relativeKey(declaration)), checks, problems));
  return { settings, problems };
}

/** Unit conversions from a setting's unit to the core's (a unit test checks every declared pair is here). */
const CONVERSIONS: Record<string, (value: number) => number> = {
  's->ms': (seconds) => Math.round(seconds * 1000),
};

/**
 * The value the core takes for a setting's value: its unit converted, an empty text meaning the core's default.
 * @internal
 */
export function coreValue(declaration: SettingDeclaration, value: unknown): unknown {
  if (value === '') return undefined;
  const from = declaration.type === 'number' || declaration.type === 'integer' ? declaration.unit : undefined;
  const to = declaration.core?.unit;
  if (typeof value !== 'number' || from === to) return value;
  const convert = CONVERSIONS[`${from ?? ''}->${to ?? ''}`];
  if (!convert) throw new Error(`${declaration.key}: no conversion from '${from}' to '${to}'`);
  return convert(value);
}

/**
 * The core configuration's fields the settings fill, by section (`{ parser: { timeoutMs: 2000, … }, … }`), from
 * the sections of `values` given. Undefined values leave the core's defaults in place.
 */
export function coreFields(values: Partial<SettingValues>): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  const given = values as Record<string, Record<string, unknown> | undefined>;
  for (const { section, field, declaration } of SETTING_ENTRIES) {
    const sectionValues = given[section];
    if (!declaration.core || !sectionValues) continue;
    const [target, key] = declaration.core.path.split('.') as [string, string];
    (out[target] ??= {})[key] = coreValue(declaration, sectionValues[field]);
  }
  return out;
}
