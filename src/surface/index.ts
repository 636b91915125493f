/**
 * The extension's contributed surface, declared once and editor-free: every command (./commands.ts) and every
 * `avap.*` setting (./settings.ts) with the environment variable it mirrors, the other contributions
 * (./staticContributions.ts), and what is generated or read from them (./manifest.ts: package.json and the
 * README's settings table; ./values.ts: defaults, the checked reader, the core's fields). `surface/commands` is a
 * light entry: the activation bundle takes the command table without the settings.
 */
export * from './commands';
export { SETTINGS } from './settings';
export type * from './settingTypes';
export * from './values';
export * from './manifest';
