/**
 * The `avap.*` settings, read through an accessor and checked. Pure: the
 * adapter passes `vscode.workspace.getConfiguration('avap').get`. Bad values
 * fall back to the default and are reported, never thrown.
 */
import { parserUrlProblem } from '../../core/parser/url';
import type { RunSettings } from '../../runs';

export interface EditorSettings {
  parser: {
    /** Empty = start the bundled parser service. */
    url: string;
    /** Seconds; 0 disables validation. */
    timeoutSeconds: number;
    breakerThreshold: number;
    /** Seconds. */
    breakerCooldownSeconds: number;
  };
  /** `idleTimeoutSeconds`: silence that ends a started answer (AVAP_LLM_IDLE_TIMEOUT); 0 = no limit. */
  ollama: {
    url: string;
    model: string;
    conversationalModel: string;
    embeddingModel: string;
    idleTimeoutSeconds: number;
  };
  elasticsearch: { url: string; index: string };
  relevance: { mode: 'llm' | 'cosine'; cosineThreshold: number };
  /** The request's one retry cycle (0 or 1, D1 RC-08), and validated examples injected before code generation (0 = none). */
  generation: { maxRetries: number; fewShotExamples: number };
  /** The LLM judge on RETRIEVAL answers (off: it costs an LLM call per answer). */
  quality: { judge: boolean; judgeThreshold: number };
  validation: { debounceMs: number };
  /** Inlay hints: parameter names before positional arguments (the resolution hints are always on). */
  inlayHints: { parameterNames: boolean };
  telemetry: { file: string };
  /** Training signals: generations, thumbs and outcomes; empty file = the extension's storage. */
  signals: { enabled: boolean; file: string };
  /** Runs in the editor (AVAP: Run File, the Testing view): the sandbox's allow-list and budgets, values in the code. */
  run: RunSettings;
}

/** @internal */
export const SETTING_DEFAULTS: EditorSettings = {
  parser: { url: '', timeoutSeconds: 2, breakerThreshold: 3, breakerCooldownSeconds: 30 },
  ollama: {
    url: 'http://127.0.0.1:11434',
    model: 'qwen3:1.7b',
    conversationalModel: 'qwen3:0.6b',
    embeddingModel: 'qwen3-embedding:0.6b',
    idleTimeoutSeconds: 60,
  },
  elasticsearch: { url: '', index: 'avap-knowledge-v1' },
  relevance: { mode: 'llm', cosineThreshold: 0.5 },
  generation: { maxRetries: 1, fewShotExamples: 5 },
  quality: { judge: false, judgeThreshold: 0.6 },
  validation: { debounceMs: 300 },
  inlayHints: { parameterNames: false },
  telemetry: { file: '' },
  signals: { enabled: true, file: '' },
  // The sandbox's defaults (src/runtime/host DEFAULT_LIMITS; test/unit/runs/settings.test.ts keeps them equal).
  run: { allowHttp: [], timeoutSeconds: 5, maxSteps: 1_000_000, maxMemoryMb: 256, showValues: true },
};

export type SettingsAccessor = (key: string) => unknown;

export interface SettingsRead {
  settings: EditorSettings;
  /** One line per ignored value, for the output channel. */
  problems: string[];
}

export function readEditorSettings(get: SettingsAccessor): SettingsRead {
  const problems: string[] = [];
  const d = SETTING_DEFAULTS;

  const str = (key: string, fallback: string): string => {
    const value = get(key);
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'string') {
      problems.push(`avap.${key} must be a string; using '${fallback}'`);
      return fallback;
    }
    return value.trim();
  };
  const num = (key: string, fallback: number, check: (n: number) => boolean, rule: string): number => {
    const value = get(key);
    if (value === undefined || value === null || value === '') return fallback;
    const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
    if (!Number.isFinite(n) || !check(n)) {
      problems.push(`avap.${key} must be ${rule}, got ${JSON.stringify(value)}; using ${fallback}`);
      return fallback;
    }
    return n;
  };
  const bool = (key: string, fallback: boolean): boolean => {
    const value = get(key);
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'boolean') {
      problems.push(`avap.${key} must be true or false; using ${fallback}`);
      return fallback;
    }
    return value;
  };
  const strings = (key: string, fallback: string[]): string[] => {
    const value = get(key);
    if (value === undefined || value === null) return fallback;
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
      problems.push(`avap.${key} must be a list of strings; using ${JSON.stringify(fallback)}`);
      return fallback;
    }
    return value.map((v: string) => v.trim()).filter(Boolean);
  };
  const url = (key: string, fallback: string, accepts: RegExp | ((value: string) => boolean)): string => {
    const value = str(key, fallback);
    if (value !== '' && !(typeof accepts === 'function' ? accepts(value) : accepts.test(value))) {
      problems.push(`avap.${key} '${value}' is not a valid URL; using '${fallback || '(default)'}'`);
      return fallback;
    }
    return value;
  };

  const mode = str('relevance.mode', d.relevance.mode);
  if (mode !== 'llm' && mode !== 'cosine')
    problems.push(`avap.relevance.mode must be 'llm' or 'cosine', got '${mode}'; using 'llm'`);

  const settings: EditorSettings = {
    parser: {
      url: url('parser.url', d.parser.url, (value) => parserUrlProblem(value) === undefined),
      timeoutSeconds: num(
        'parser.timeout',
        d.parser.timeoutSeconds,
        (n) => n >= 0 && n <= 600,
        'a number of seconds between 0 and 600',
      ),
      breakerThreshold: num(
        'parser.circuitBreaker.threshold',
        d.parser.breakerThreshold,
        (n) => Number.isInteger(n) && n >= 1 && n <= 100,
        'an integer between 1 and 100',
      ),
      breakerCooldownSeconds: num(
        'parser.circuitBreaker.cooldown',
        d.parser.breakerCooldownSeconds,
        (n) => n >= 0 && n <= 3600,
        'a number of seconds between 0 and 3600',
      ),
    },
    ollama: {
      url: url('ollama.url', d.ollama.url, /^https?:\/\/\S+$/) || d.ollama.url,
      model: str('ollama.model', d.ollama.model) || d.ollama.model,
      conversationalModel:
        str('ollama.conversationalModel', d.ollama.conversationalModel) || d.ollama.conversationalModel,
      embeddingModel: str('ollama.embeddingModel', d.ollama.embeddingModel) || d.ollama.embeddingModel,
      idleTimeoutSeconds: num(
        'ollama.idleTimeout',
        d.ollama.idleTimeoutSeconds,
        (n) => n >= 0 && n <= 3600,
        'a number of seconds between 0 and 3600',
      ),
    },
    elasticsearch: {
      url: url('elasticsearch.url', d.elasticsearch.url, /^https?:\/\/\S+$/),
      index: str('elasticsearch.index', d.elasticsearch.index) || d.elasticsearch.index,
    },
    relevance: {
      mode: mode === 'cosine' ? 'cosine' : 'llm',
      cosineThreshold: num(
        'relevance.cosineThreshold',
        d.relevance.cosineThreshold,
        (n) => n >= -1 && n <= 1,
        'a number in [-1, 1]',
      ),
    },
    generation: {
      maxRetries: num(
        'generation.maxRetries',
        d.generation.maxRetries,
        (n) => n === 0 || n === 1,
        '0 or 1 (one retry cycle per request at most)',
      ),
      fewShotExamples: num(
        'generation.fewShotExamples',
        d.generation.fewShotExamples,
        (n) => Number.isInteger(n) && n >= 0 && n <= 20,
        'an integer between 0 and 20',
      ),
    },
    quality: {
      judge: bool('quality.judge', d.quality.judge),
      judgeThreshold: num(
        'quality.judgeThreshold',
        d.quality.judgeThreshold,
        (n) => n >= 0 && n <= 1,
        'a number between 0 and 1',
      ),
    },
    validation: {
      debounceMs: num(
        'validation.debounce',
        d.validation.debounceMs,
        (n) => Number.isInteger(n) && n >= 0 && n <= 10_000,
        'an integer number of milliseconds between 0 and 10000',
      ),
    },
    inlayHints: { parameterNames: bool('inlayHints.parameterNames', d.inlayHints.parameterNames) },
    telemetry: { file: str('telemetry.file', d.telemetry.file) },
    signals: { enabled: bool('signals.enabled', d.signals.enabled), file: str('signals.file', d.signals.file) },
    run: {
      allowHttp: strings('run.allowHttp', d.run.allowHttp),
      timeoutSeconds: num(
        'run.timeout',
        d.run.timeoutSeconds,
        (n) => n > 0 && n <= 600,
        'a number of seconds above 0, at most 600',
      ),
      maxSteps: num(
        'run.maxSteps',
        d.run.maxSteps,
        (n) => Number.isInteger(n) && n >= 1 && n <= 1_000_000_000,
        'a positive integer',
      ),
      maxMemoryMb: num(
        'run.maxMemory',
        d.run.maxMemoryMb,
        (n) => Number.isInteger(n) && n >= 16 && n <= 16_384,
        'an integer number of MiB between 16 and 16384',
      ),
      showValues: bool('run.showValues', d.run.showValues),
    },
  };
  return { settings, problems };
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
