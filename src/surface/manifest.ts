/**
 * package.json's `contributes` and `activationEvents`, and the README's settings table, generated from the
 * declarations (./commands.ts, ./settings.ts, ./staticContributions.ts). `npm run contributes` writes them
 * (scripts/contributes.ts); test/unit/surface/manifest.test.ts regenerates them in memory and fails when the files
 * differ. Pure: text and objects in, text and objects out.
 */
import { COMMAND_CATEGORY, COMMAND_LIST, MENU_IDS, type MenuId } from './commands';
import type { SettingDeclaration } from './settingTypes';
import {
  ACTIVATION_EVENTS,
  CONFIGURATION_DEFAULTS,
  GRAMMARS,
  JSON_VALIDATION,
  LANGUAGES,
  SNIPPETS,
  VIEWS,
  VIEWS_CONTAINERS,
  WALKTHROUGHS,
} from './staticContributions';
import { SETTING_ENTRIES } from './values';

function commandsContribution(): Record<string, unknown>[] {
  return COMMAND_LIST.map((c) => ({
    command: c.id,
    title: c.title,
    category: COMMAND_CATEGORY,
    ...(c.icon ? { icon: c.icon } : {}),
  }));
}

function menusContribution(): Partial<Record<MenuId, Record<string, unknown>[]>> {
  const menus: Partial<Record<MenuId, Record<string, unknown>[]>> = {};
  for (const menu of MENU_IDS) {
    const places = COMMAND_LIST.flatMap((c) => {
      const place = c.menus?.[menu];
      return place ? [{ command: c.id, when: place.when, ...(place.group ? { group: place.group } : {}) }] : [];
    });
    if (places.length > 0) menus[menu] = places;
  }
  return menus;
}

function keybindingsContribution(): Record<string, unknown>[] {
  return COMMAND_LIST.flatMap((c) => (c.keybinding ? [{ command: c.id, ...c.keybinding }] : []));
}

/** One setting as VS Code's configuration schema: the JSON schema keywords, then scope, order and the texts. */
function settingSchema(d: SettingDeclaration): Record<string, unknown> {
  const numeric = d.type === 'number' || d.type === 'integer' ? d : undefined;
  const listed = d.type === 'string' || numeric ? (d as { enum?: readonly unknown[] }) : undefined;
  return {
    type: d.type,
    ...(d.type === 'array' ? { items: { type: 'string' } } : {}),
    default: Array.isArray(d.default) ? [...(d.default as readonly string[])] : d.default,
    ...(numeric?.minimum !== undefined ? { minimum: numeric.minimum } : {}),
    ...(numeric?.maximum !== undefined ? { maximum: numeric.maximum } : {}),
    ...(listed?.enum ? { enum: [...listed.enum] } : {}),
    scope: d.scope,
    order: d.order,
    ...('enumDescriptions' in d && d.enumDescriptions ? { enumDescriptions: [...d.enumDescriptions] } : {}),
    markdownDescription: d.description,
  };
}

function configurationContribution(): { title: string; properties: Record<string, unknown> } {
  return {
    title: 'AVAP',
    properties: Object.fromEntries(
      SETTING_ENTRIES.map(({ declaration }) => [declaration.key, settingSchema(declaration)]),
    ),
  };
}

/** Contributions other folders generate (the language-model tools, from src/tools' definitions). */
export interface ForeignContributions {
  languageModelTools: unknown[];
}

/** The whole `contributes` object, in package.json's order. */
function contributes(foreign: ForeignContributions): Record<string, unknown> {
  return {
    languages: LANGUAGES,
    grammars: GRAMMARS,
    snippets: SNIPPETS,
    commands: commandsContribution(),
    menus: menusContribution(),
    viewsContainers: VIEWS_CONTAINERS,
    views: VIEWS,
    configuration: configurationContribution(),
    languageModelTools: foreign.languageModelTools,
    walkthroughs: WALKTHROUGHS,
    keybindings: keybindingsContribution(),
    jsonValidation: JSON_VALIDATION,
    configurationDefaults: CONFIGURATION_DEFAULTS,
  };
}

/**
 * `manifest` with `activationEvents` and `contributes` generated; every other field kept, in its place.
 * @internal
 */
export function generateManifest(
  manifest: Record<string, unknown>,
  foreign: ForeignContributions,
): Record<string, unknown> {
  // A JSON round trip: the generated objects share the declarations' arrays, and the result must be plain data.
  const generated = JSON.parse(
    JSON.stringify({ activationEvents: ACTIVATION_EVENTS, contributes: contributes(foreign) }),
  ) as Record<string, unknown>;
  return { ...manifest, ...generated };
}

const UNIT_TEXT = { s: 's', ms: 'ms', MiB: 'MiB' } as const;

function defaultText(d: SettingDeclaration): string {
  switch (d.type) {
    case 'string':
      return d.default === '' ? (d.emptyMeans ? `empty (${d.emptyMeans})` : 'empty') : `\`${d.default}\``;
    case 'number':
    case 'integer': {
      const n = d.default >= 10_000 ? d.default.toLocaleString('en-US') : String(d.default);
      return d.unit ? `${n} ${UNIT_TEXT[d.unit]}` : n;
    }
    case 'boolean':
      return d.default ? 'on' : 'off';
    case 'array':
      return d.default.length === 0 ? 'none' : d.default.map((v) => `\`${v}\``).join(', ');
  }
}

function envText(d: SettingDeclaration): string {
  if (!d.env) return '—';
  const notes = [d.env.unit, d.env.list].filter(Boolean);
  return `\`${d.env.name}\`${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
}

/**
 * The README's settings table: one row per setting, in the Settings editor's order.
 * @internal
 */
export function settingsTable(): string {
  const rows = SETTING_ENTRIES.map(
    ({ declaration: d }) => `| \`${d.key}\` | ${defaultText(d)} | ${envText(d)} | ${d.summary} |`,
  );
  return ['| Setting | Default | Environment | Meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** @internal */
export const README_TABLE_BEGIN =
  '<!-- settings table: generated from src/surface/settings.ts by `npm run contributes` -->';
/** @internal */
export const README_TABLE_END = '<!-- end of the generated settings table -->';

/**
 * `readme` with the text between the markers replaced by the generated table; undefined when a marker is missing.
 * @internal
 */
export function withSettingsTable(readme: string): string | undefined {
  const begin = readme.indexOf(README_TABLE_BEGIN);
  const end = readme.indexOf(README_TABLE_END);
  if (begin < 0 || end < begin) return undefined;
  return `${readme.slice(0, begin + README_TABLE_BEGIN.length)}\n${settingsTable()}\n${readme.slice(end)}`;
}
