/**
 * One typed configuration object for the pipeline, with defaults, and the
 * environment variables of the design that fill it. Pure: reading the
 * environment is `configFromEnv(env)`, never an implicit `process.env`.
 * A variable an editor setting mirrors is declared once, with the setting
 * (src/surface/settings.ts: its name, unit and the field below it fills);
 * `configFromEnv` and `configFromSettings` both read that declaration.
 *
 * | field                         | env var                              | default                  |
 * |-------------------------------|--------------------------------------|--------------------------|
 * | parser.url                    | AVAP_PARSER_URL                      | (bundled service)        |
 * | parser.timeoutMs              | AVAP_PARSER_TIMEOUT (s, decimals ok) | 2000 (0 = no validation) |
 * | parser.breakerThreshold       | PARSER_CB_THRESHOLD                  | 3                        |
 * | parser.breakerCooldownMs      | PARSER_CB_COOLDOWN (s; `500ms` ok)   | 30000                    |
 * | ollama.host                   | OLLAMA_HOST                          | http://127.0.0.1:11434   |
 * | ollama.model                  | OLLAMA_MODEL_NAME                    | qwen3:1.7b               |
 * | ollama.conversationalModel    | OLLAMA_MODEL_NAME_CONVERSATIONAL     | qwen3:0.6b               |
 * | ollama.embeddingModel         | OLLAMA_EMBEDDING_MODEL               | qwen3-embedding:0.6b     |
 * | ollama.ttfbTimeoutMs          | OLLAMA_TTFB_TIMEOUT (ms)             | 120000                   |
 * | ollama.idleTimeoutMs          | AVAP_LLM_IDLE_TIMEOUT (s)            | 60000 (0 = no limit)     |
 * | retrieval.esUrl               | AVAP_ES_URL                          | (embedded index)         |
 * | retrieval.esApiKey            | AVAP_ES_API_KEY                      | (none)                   |
 * | retrieval.esIndex             | AVAP_ES_INDEX                        | avap-knowledge-v1        |
 * | retrieval.mode                | AVAP_RETRIEVAL_MODE (hybrid|knn_only)| hybrid                   |
 * | relevance.mode                | AVAP_RELEVANCE_MODE (llm|cosine)     | llm                      |
 * | relevance.cosineThreshold     | AVAP_RELEVANCE_THRESHOLD             | 0.5                      |
 * | pipeline.maxRetries           | AVAP_MAX_RETRIES (0 or 1)            | 1                        |
 * | telemetry.file                | AVAP_TELEMETRY_FILE                  | (none)                   |
 * | cache.dir                     | AVAP_CACHE_DIR                       | (none: memory only)      |
 *
 * Unit conventions: AVAP_PARSER_TIMEOUT, PARSER_CB_COOLDOWN and
 * AVAP_LLM_IDLE_TIMEOUT are seconds, as the design writes them (`2`, `0.5`;
 * an explicit `ms` or `s` suffix is also read). AVAP_PARSER_TIMEOUT was read
 * as milliseconds before; a value above 600 s is refused with a hint, since it
 * is almost certainly a leftover millisecond figure. AVAP_MAX_RETRIES is 0 or
 * 1 (D1 RC-08: one retry cycle per request at most).
 */

import { coreFields, SETTING_ENTRIES, type SETTINGS, type SettingValues } from '../surface';

export type RelevanceMode = 'llm' | 'cosine';
export type RetrievalMode = 'hybrid' | 'knn_only';

export interface ParserConfig {
  /** host:port, grpc://host:port or grpcs://host:port, a comma-separated list of those, or dns:///name:port; undefined = start the bundled service. */
  url?: string;
  /** Per-call deadline; 0 disables validation (the circuit is permanently open). */
  timeoutMs: number;
  breakerThreshold: number;
  breakerCooldownMs: number;
}

export interface OllamaConfig {
  host: string;
  /** Main model: RETRIEVAL and CODE_GENERATION answers, classification, reformulation, relevance. */
  model: string;
  /** CONVERSATIONAL and PLATFORM answers. */
  conversationalModel: string;
  embeddingModel: string;
  temperature: number;
  seed: number;
  numCtx: number;
  keepAlive: string;
  /** Time allowed until the first byte of a response (a cold model load); the idle limit takes over after it. */
  ttfbTimeoutMs: number;
  /** Once a response has started: the longest silence allowed between two pieces; 0 = no limit. */
  idleTimeoutMs: number;
  /** Sent as Ollama's `think` flag (qwen3 thinks unless told not to). */
  think: boolean;
}

interface RetrievalConfig {
  esUrl?: string;
  /** Elasticsearch API key (the editor keeps it in SecretStorage). */
  esApiKey?: string;
  esIndex: string;
  /** Chunks handed to generation (the design's 8). */
  topK: number;
  /** Reciprocal rank fusion constant (the design's 60). */
  rrfK: number;
  mode: RetrievalMode;
}

interface RelevanceConfig {
  mode: RelevanceMode;
  /** Cosine adapter: relevant when cosine(query, mean(chunks)) >= threshold. */
  cosineThreshold: number;
}

interface PipelineConfig {
  /** The request's retry cycle: 0 (no retry of any kind) or 1 (D1 RC-08); larger values are read as 1. */
  maxRetries: number;
  /** Few-shot examples put into the code-generation prompt when a selector is available. */
  fewShotExamples: number;
}

export interface AssistantConfig {
  parser: ParserConfig;
  ollama: OllamaConfig;
  retrieval: RetrievalConfig;
  relevance: RelevanceConfig;
  pipeline: PipelineConfig;
  telemetry: { file?: string };
  /** Where derived data is cached on disk (the few-shot pool's embeddings); undefined = kept in memory only. */
  cache: { dir?: string };
}

const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';

/** @internal */
export function defaultConfig(): AssistantConfig {
  return {
    parser: { timeoutMs: 2000, breakerThreshold: 3, breakerCooldownMs: 30_000 },
    ollama: {
      host: DEFAULT_OLLAMA_HOST,
      model: 'qwen3:1.7b',
      conversationalModel: 'qwen3:0.6b',
      embeddingModel: 'qwen3-embedding:0.6b',
      temperature: 0,
      seed: 42,
      numCtx: 8192,
      keepAlive: '10m',
      ttfbTimeoutMs: 120_000,
      idleTimeoutMs: 60_000,
      think: false,
    },
    retrieval: { esIndex: 'avap-knowledge-v1', topK: 8, rrfK: 60, mode: 'hybrid' },
    relevance: { mode: 'llm', cosineThreshold: 0.5 },
    pipeline: { maxRetries: 1, fewShotExamples: 5 },
    telemetry: {},
    cache: {},
  };
}

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** Overlays `patch` on `base` one section deep; undefined values leave the base untouched. */
export function mergeConfig(base: AssistantConfig, patch: DeepPartial<AssistantConfig>): AssistantConfig {
  const out = structuredClone(base) as unknown as Record<string, Record<string, unknown>>;
  for (const [section, values] of Object.entries(patch)) {
    if (!values) continue;
    const target = out[section] ?? (out[section] = {});
    for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
      if (value !== undefined) target[key] = value;
    }
  }
  return out as unknown as AssistantConfig;
}

export class ConfigError extends Error {}

/**
 * Parses `250`, `250ms`, `2s`, `1.5s`; a bare number is in `bareUnit`.
 * @internal
 */
export function parseDuration(name: string, raw: string, bareUnit: 'ms' | 's'): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)?\s*$/.exec(raw);
  if (!match) throw new ConfigError(`${name} must be a non-negative duration like 2000, 2000ms or 2s, got '${raw}'`);
  const value = Number(match[1]);
  const unit = match[2] ?? bareUnit;
  return Math.round(unit === 's' ? value * 1000 : value);
}

/** The longest parser deadline accepted (the editor setting's maximum too). */
const MAX_PARSER_TIMEOUT_S = 600;

/**
 * AVAP_PARSER_TIMEOUT / --parser-timeout: seconds per parser call (`2`,
 * `0.5`, or with an explicit `ms`/`s`), 0 disables validation. Returns ms.
 */
export function parseParserTimeout(name: string, raw: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)?\s*$/.exec(raw);
  if (!match)
    throw new ConfigError(
      `${name} must be a number of seconds (decimals allowed, 0 disables validation), like 2 or 0.5, got '${raw}'`,
    );
  const ms = parseDuration(name, raw, 's');
  if (ms > MAX_PARSER_TIMEOUT_S * 1000) {
    throw new ConfigError(
      `${name} is in seconds (it was read as milliseconds before): '${raw}' would wait ${Math.round(ms / 1000)} s per parser call; ` +
        `the limit is ${MAX_PARSER_TIMEOUT_S} s — write ${match[2] ? '2' : `${Number(match[1]) / 1000} (or ${match[1]}ms)`}`,
    );
  }
  return ms;
}

/** AVAP_MAX_RETRIES: 0 or 1 (D1 RC-08). */
function retryBudget(name: string, raw: string): number {
  const value = raw.trim();
  if (value !== '0' && value !== '1') {
    throw new ConfigError(
      `${name} must be 0 or 1 (each request has at most one retry, whatever triggers it), got '${raw}'`,
    );
  }
  return Number(value);
}

function positiveInteger(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new ConfigError(`${name} must be a positive integer, got '${raw}'`);
  return value;
}

function nonNegativeInteger(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new ConfigError(`${name} must be a non-negative integer, got '${raw}'`);
  return value;
}

function ratio(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < -1 || value > 1)
    throw new ConfigError(`${name} must be a number in [-1, 1], got '${raw}'`);
  return value;
}

export function parseRelevanceMode(name: string, raw: string): RelevanceMode {
  if (raw === 'llm' || raw === 'cosine') return raw;
  throw new ConfigError(`${name} must be 'llm' or 'cosine', got '${raw}'`);
}

export function parseRetrievalMode(name: string, raw: string): RetrievalMode {
  if (raw === 'hybrid' || raw === 'knn_only') return raw;
  throw new ConfigError(`${name} must be 'hybrid' or 'knn_only', got '${raw}'`);
}

/**
 * How the core reads a mirrored variable's text into its field: the settings (src/surface/settings.ts) name the
 * variable and the field (`core.path`); a text field not listed here takes the text as it is.
 */
type EnvReaders = {
  [S in keyof AssistantConfig]?: {
    [F in keyof AssistantConfig[S]]?: (name: string, raw: string) => AssistantConfig[S][F];
  };
};
const ENV_READERS: EnvReaders = {
  parser: {
    timeoutMs: parseParserTimeout,
    breakerThreshold: positiveInteger,
    breakerCooldownMs: (n, r) => parseDuration(n, r, 's'),
  },
  ollama: { idleTimeoutMs: (n, r) => parseDuration(n, r, 's') },
  relevance: { mode: parseRelevanceMode, cosineThreshold: ratio },
  pipeline: { maxRetries: retryBudget, fewShotExamples: nonNegativeInteger },
};

/** `section.field` of the configuration. */
type ConfigPath = { [S in keyof AssistantConfig]: `${S}.${keyof AssistantConfig[S] & string}` }[keyof AssistantConfig];
type Declared = typeof SETTINGS;
/** The configuration fields the settings declare they fill. */
type DeclaredPath = {
  [S in keyof Declared]: {
    [F in keyof Declared[S]]: Declared[S][F] extends { core: { path: infer P } } ? P : never;
  }[keyof Declared[S]];
}[keyof Declared];
/** Compile-time: every `core.path` a setting declares is a field of AssistantConfig. */
const declaredPathsExist: DeclaredPath extends ConfigPath ? true : never = true;
void declaredPathsExist;

/** The settings whose variable the core reads: the ones that fill one of its fields. */
const MIRRORED = SETTING_ENTRIES.flatMap(({ declaration }) =>
  declaration.env && declaration.core
    ? [
        {
          env: declaration.env.name,
          section: declaration.core.path.split('.')[0],
          field: declaration.core.path.split('.')[1],
        },
      ]
    : [],
) as { env: string; section: string; field: string }[];

/** Variables the core reads that no setting mirrors (a secret, tuning the headless tools need). */
const CORE_ONLY_ENV_VARS = ['OLLAMA_TTFB_TIMEOUT', 'AVAP_ES_API_KEY', 'AVAP_RETRIEVAL_MODE', 'AVAP_CACHE_DIR'] as const;

/**
 * Names of every environment variable the configuration reads.
 * @internal
 */
export const ENV_VARS: readonly string[] = [...MIRRORED.map((m) => m.env), ...CORE_ONLY_ENV_VARS];

/** The configuration the editor's settings describe (in the settings' units), over `base`. */
export function configFromSettings(values: SettingValues, base: AssistantConfig = defaultConfig()): AssistantConfig {
  return mergeConfig(base, coreFields(values));
}

/**
 * The configuration the environment describes, over the defaults. Empty
 * variables count as unset. Throws ConfigError (a usage problem) for values
 * that cannot be read.
 */
export function configFromEnv(
  env: Record<string, string | undefined>,
  base: AssistantConfig = defaultConfig(),
): AssistantConfig {
  const get = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const num = <T>(name: string, read: (n: string, raw: string) => T): T | undefined => {
    const raw = get(name);
    return raw === undefined ? undefined : read(name, raw);
  };
  const mirrored: Record<string, Record<string, unknown>> = {};
  for (const { env: name, section, field } of MIRRORED) {
    const raw = get(name);
    if (raw === undefined) continue;
    const read = (ENV_READERS as Record<string, Record<string, (n: string, r: string) => unknown> | undefined>)[
      section
    ]?.[field];
    (mirrored[section] ??= {})[field] = read ? read(name, raw) : raw;
  }
  return mergeConfig(mergeConfig(base, mirrored), {
    ollama: { ttfbTimeoutMs: num('OLLAMA_TTFB_TIMEOUT', (n, r) => parseDuration(n, r, 'ms')) },
    retrieval: { esApiKey: get('AVAP_ES_API_KEY'), mode: num('AVAP_RETRIEVAL_MODE', parseRetrievalMode) },
    cache: { dir: get('AVAP_CACHE_DIR') },
  });
}

/**
 * Ollama's own OLLAMA_HOST convention is `host:port` without a scheme (and it
 * means 0.0.0.0 for the server); the client needs a URL. `0.0.0.0` and empty
 * hosts are reached on loopback.
 */
export function normalizeOllamaHost(raw: string): string {
  let text = raw.trim();
  if (!text) return DEFAULT_OLLAMA_HOST;
  if (!/^[a-z]+:\/\//i.test(text)) text = `http://${text}`;
  try {
    const url = new URL(text);
    if (url.hostname === '0.0.0.0' || url.hostname === '') url.hostname = '127.0.0.1';
    if (!url.port && url.protocol === 'http:' && !/:\d+/.test(raw)) url.port = '11434';
    return url.toString().replace(/\/$/, '');
  } catch {
    throw new ConfigError(`'${raw}' is not an Ollama URL (expected http://host:port)`);
  }
}
