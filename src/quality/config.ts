/**
 * Quality settings: the judge is off by default (it costs an LLM call per
 * answer; the editor setting `avap.quality.judge` and the CLI/eval turn it
 * on), the pass threshold is 0.6, the judge model defaults to the main model.
 *
 * | field            | env var                 | default          |
 * |------------------|-------------------------|------------------|
 * | judge.enabled    | AVAP_JUDGE (on/off)     | off              |
 * | judge.threshold  | AVAP_JUDGE_THRESHOLD    | 0.6              |
 * | judge.model      | AVAP_JUDGE_MODEL        | (the main model) |
 */
import { SETTINGS } from '../surface';
import { DEFAULT_THRESHOLD } from './rubric';

/** The variables `avap.quality.judge` and `avap.quality.judgeThreshold` mirror (declared in src/surface). */
const JUDGE_ENV = SETTINGS.quality.judge.env.name;
const THRESHOLD_ENV = SETTINGS.quality.judgeThreshold.env.name;

export interface QualityConfig {
  judge: { enabled: boolean; threshold: number; model?: string };
}

/** @internal */
export function defaultQualityConfig(): QualityConfig {
  return { judge: { enabled: false, threshold: DEFAULT_THRESHOLD } };
}

export class QualityConfigError extends Error {}

export function parseSwitch(name: string, raw: string): boolean {
  const value = raw.trim().toLowerCase();
  if (['1', 'true', 'on', 'yes'].includes(value)) return true;
  if (['0', 'false', 'off', 'no'].includes(value)) return false;
  throw new QualityConfigError(`${name} must be on or off, got '${raw}'`);
}

export function parseThreshold(name: string, raw: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new QualityConfigError(`${name} must be a number between 0 and 1, got '${raw}'`);
  }
  return value;
}

/** Reads the environment over the defaults; throws QualityConfigError for unreadable values. */
export function qualityConfigFromEnv(
  env: Record<string, string | undefined>,
  base: QualityConfig = defaultQualityConfig(),
): QualityConfig {
  const get = (name: string) => (env[name]?.trim() ? env[name]?.trim() : undefined);
  const enabled = get(JUDGE_ENV);
  const threshold = get(THRESHOLD_ENV);
  const model = get('AVAP_JUDGE_MODEL');
  return {
    judge: {
      enabled: enabled === undefined ? base.judge.enabled : parseSwitch(JUDGE_ENV, enabled),
      threshold: threshold === undefined ? base.judge.threshold : parseThreshold(THRESHOLD_ENV, threshold),
      ...((model ?? base.judge.model) ? { model: model ?? base.judge.model } : {}),
    },
  };
}
