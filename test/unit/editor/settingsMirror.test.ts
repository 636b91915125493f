/**
 * One table ties the three places a setting lives together: its contribution in package.json (name, default,
 * the environment variable its description names), the editor's reader (src/editor/settings) and the core's
 * configuration (src/core/config.ts and src/quality/config.ts, filled from the environment). Same names, same
 * defaults, same units: a value given as a setting and the same text given as its environment variable reach the
 * core as the same value.
 */
import assert from 'node:assert/strict';
import { configFromEnv, defaultConfig, ENV_VARS, type AssistantConfig } from '../../../src/core';
// internal-import: the settings to core configuration mapping, tested without VS Code
import { toAssistantConfig } from '../../../src/editor/settings/assistantConfig';
// internal-import: the settings reader, tested on plain objects without VS Code
import { readEditorSettings, type EditorSettings } from '../../../src/editor/settings/editorSettings';
import { defaultQualityConfig, qualityConfigFromEnv, type QualityConfig } from '../../../src/quality';
import { readManifest } from '../../support/manifest';

interface CoreConfigs {
  assistant: AssistantConfig;
  quality: QualityConfig;
}

interface Mirror {
  /** The editor's value, in the setting's unit. */
  editor: (settings: EditorSettings) => unknown;
  /** The environment variable the setting's description names (`env \`NAME\``), if any. */
  env?: string;
  /** The core's value converted to the setting's unit, when the core reads the variable. */
  core?: (configs: CoreConfigs) => unknown;
  /** A valid value other than the default, in the setting's unit (and as the variable's text). */
  sample?: string | number | boolean;
}

const seconds = (ms: number) => ms / 1000;

/** Every `avap.*` setting. Settings without `env` are the editor's own (no variable of the design). */
const MIRRORS: Record<string, Mirror> = {
  'avap.parser.url': {
    editor: (s) => s.parser.url,
    env: 'AVAP_PARSER_URL',
    core: (c) => c.assistant.parser.url ?? '',
    sample: 'parser.example:50051',
  },
  'avap.parser.timeout': {
    editor: (s) => s.parser.timeoutSeconds,
    env: 'AVAP_PARSER_TIMEOUT',
    core: (c) => seconds(c.assistant.parser.timeoutMs),
    sample: 0.5,
  },
  'avap.parser.circuitBreaker.threshold': {
    editor: (s) => s.parser.breakerThreshold,
    env: 'PARSER_CB_THRESHOLD',
    core: (c) => c.assistant.parser.breakerThreshold,
    sample: 5,
  },
  'avap.parser.circuitBreaker.cooldown': {
    editor: (s) => s.parser.breakerCooldownSeconds,
    env: 'PARSER_CB_COOLDOWN',
    core: (c) => seconds(c.assistant.parser.breakerCooldownMs),
    sample: 1.5,
  },
  'avap.ollama.url': {
    editor: (s) => s.ollama.url,
    env: 'OLLAMA_HOST',
    core: (c) => c.assistant.ollama.host,
    sample: 'http://10.0.0.2:11434',
  },
  'avap.ollama.model': {
    editor: (s) => s.ollama.model,
    env: 'OLLAMA_MODEL_NAME',
    core: (c) => c.assistant.ollama.model,
    sample: 'qwen3:8b',
  },
  'avap.ollama.conversationalModel': {
    editor: (s) => s.ollama.conversationalModel,
    env: 'OLLAMA_MODEL_NAME_CONVERSATIONAL',
    core: (c) => c.assistant.ollama.conversationalModel,
    sample: 'qwen3:4b',
  },
  'avap.ollama.embeddingModel': {
    editor: (s) => s.ollama.embeddingModel,
    env: 'OLLAMA_EMBEDDING_MODEL',
    core: (c) => c.assistant.ollama.embeddingModel,
    sample: 'nomic-embed-text',
  },
  'avap.ollama.idleTimeout': {
    editor: (s) => s.ollama.idleTimeoutSeconds,
    env: 'AVAP_LLM_IDLE_TIMEOUT',
    core: (c) => seconds(c.assistant.ollama.idleTimeoutMs),
    sample: 12.5,
  },
  'avap.elasticsearch.url': {
    editor: (s) => s.elasticsearch.url,
    env: 'AVAP_ES_URL',
    core: (c) => c.assistant.retrieval.esUrl ?? '',
    sample: 'http://es.example:9200',
  },
  'avap.elasticsearch.index': {
    editor: (s) => s.elasticsearch.index,
    env: 'AVAP_ES_INDEX',
    core: (c) => c.assistant.retrieval.esIndex,
    sample: 'avap-knowledge-v2',
  },
  'avap.relevance.mode': {
    editor: (s) => s.relevance.mode,
    env: 'AVAP_RELEVANCE_MODE',
    core: (c) => c.assistant.relevance.mode,
    sample: 'cosine',
  },
  'avap.relevance.cosineThreshold': {
    editor: (s) => s.relevance.cosineThreshold,
    env: 'AVAP_RELEVANCE_THRESHOLD',
    core: (c) => c.assistant.relevance.cosineThreshold,
    sample: 0.25,
  },
  'avap.generation.maxRetries': {
    editor: (s) => s.generation.maxRetries,
    env: 'AVAP_MAX_RETRIES',
    core: (c) => c.assistant.pipeline.maxRetries,
    sample: 0,
  },
  'avap.generation.fewShotExamples': {
    editor: (s) => s.generation.fewShotExamples,
    env: 'AVAP_FEW_SHOT_K',
    core: (c) => c.assistant.pipeline.fewShotExamples,
    sample: 3,
  },
  'avap.quality.judge': {
    editor: (s) => s.quality.judge,
    env: 'AVAP_JUDGE',
    core: (c) => c.quality.judge.enabled,
    sample: true,
  },
  'avap.quality.judgeThreshold': {
    editor: (s) => s.quality.judgeThreshold,
    env: 'AVAP_JUDGE_THRESHOLD',
    core: (c) => c.quality.judge.threshold,
    sample: 0.75,
  },
  'avap.validation.debounce': { editor: (s) => s.validation.debounceMs },
  'avap.inlayHints.parameterNames': { editor: (s) => s.inlayHints.parameterNames },
  // The core reads the variable, but an empty setting means "a file in the extension's storage" where an unset
  // variable means no telemetry file, so the defaults differ by design; a path given either way is checked below.
  'avap.telemetry.file': { editor: (s) => s.telemetry.file, env: 'AVAP_TELEMETRY_FILE' },
  'avap.signals.enabled': { editor: (s) => s.signals.enabled },
  // Read by the CLI's serve and export commands (no field of the core's configuration).
  'avap.signals.file': { editor: (s) => s.signals.file, env: 'AVAP_SIGNALS_FILE' },
  // Read by avap run / avap test and the REST server's runs (src/cli/runtime/options.ts), not the core; the same
  // values reach the sandbox's pool through either (test/unit/editor/runSettings.test.ts).
  'avap.run.allowHttp': { editor: (s) => s.run.allowHttp, env: 'AVAP_RUN_ALLOW_HTTP' },
  'avap.run.timeout': { editor: (s) => s.run.timeoutSeconds, env: 'AVAP_RUN_TIMEOUT' },
  'avap.run.maxSteps': { editor: (s) => s.run.maxSteps, env: 'AVAP_RUN_MAX_STEPS' },
  'avap.run.maxMemory': { editor: (s) => s.run.maxMemoryMb, env: 'AVAP_RUN_MAX_MEMORY' },
  'avap.run.showValues': { editor: (s) => s.run.showValues },
};

const properties = readManifest().contributes.configuration.properties;
const key = (name: string) => name.replace(/^avap\./, '');
const defaults = readEditorSettings(() => undefined).settings;
const coreDefaults: CoreConfigs = { assistant: defaultConfig(), quality: defaultQualityConfig() };
const mirrored = Object.entries(MIRRORS);
/** The variables configFromEnv and qualityConfigFromEnv read. */
const CORE_ENV_VARS = new Set<string>([...ENV_VARS, 'AVAP_JUDGE', 'AVAP_JUDGE_THRESHOLD', 'AVAP_JUDGE_MODEL']);

/** The editor's settings with one value set, through the same reader the extension uses. */
function withSetting(name: string, value: unknown): EditorSettings {
  const read = readEditorSettings((k) => (k === key(name) ? value : undefined));
  assert.deepEqual(read.problems, [], `${name} = ${JSON.stringify(value)} is accepted`);
  return read.settings;
}

/** What the core runs with when the editor's settings are `settings`. */
function coreFromSettings(settings: EditorSettings): CoreConfigs {
  return {
    assistant: toAssistantConfig(settings, { defaultTelemetryFile: '/tmp/telemetry.jsonl' }),
    // The editor hands avap.quality.* to the judge as they are (src/editor/services/assistantService.ts).
    quality: { judge: { enabled: settings.quality.judge, threshold: settings.quality.judgeThreshold } },
  };
}

/** What the core runs with when the environment is `env`. */
function coreFromEnv(env: Record<string, string>): CoreConfigs {
  return { assistant: configFromEnv(env), quality: qualityConfigFromEnv(env) };
}

describe('settings: package.json, the editor reader and the core configuration agree', () => {
  it('the same settings: every contributed avap.* setting is in the table, and nothing else', () => {
    assert.deepEqual(Object.keys(properties).sort(), Object.keys(MIRRORS).sort());
  });

  for (const [name, mirror] of mirrored) {
    it(`${name}: the contributed default is the reader's default${mirror.core ? " and the core's" : ''}`, () => {
      const declared = properties[name]?.default;
      assert.deepEqual(mirror.editor(defaults), declared, 'editor reader');
      assert.deepEqual(
        mirror.editor(withSetting(name, declared)),
        declared,
        'the default read back as an explicit value',
      );
      if (mirror.core) {
        assert.deepEqual(mirror.core(coreDefaults), declared, 'core configuration defaults');
        assert.deepEqual(mirror.core(coreFromSettings(defaults)), declared, 'the editor defaults handed to the core');
      }
    });

    it(`${name}: the description names ${mirror.env ? `\`${mirror.env}\`` : 'no environment variable'}`, () => {
      const description = properties[name]?.markdownDescription ?? '';
      assert.equal(/env `([A-Z_]+)`/.exec(description)?.[1], mirror.env);
      if (mirror.core && mirror.env)
        assert.ok(CORE_ENV_VARS.has(mirror.env), `${mirror.env} is read by the core's configuration`);
    });

    if (mirror.core && mirror.env && mirror.sample !== undefined) {
      const { env, sample, core } = mirror;
      it(`${name}: the same unit — ${JSON.stringify(sample)} as the setting and as ${env} reach the core as one value`, () => {
        assert.notDeepEqual(sample, properties[name]?.default, 'the sample differs from the default');
        assert.deepEqual(core(coreFromSettings(withSetting(name, sample))), sample, 'through the setting');
        const text = typeof sample === 'boolean' ? (sample ? 'on' : 'off') : String(sample);
        assert.deepEqual(core(coreFromEnv({ [env]: text })), sample, `through ${env}=${text}`);
      });
    }
  }

  it('avap.telemetry.file: a path as the setting and as AVAP_TELEMETRY_FILE reach the core as one value', () => {
    const file = '/var/log/avap/telemetry.jsonl';
    assert.ok(CORE_ENV_VARS.has('AVAP_TELEMETRY_FILE'), "read by the core's configuration");
    assert.equal(
      coreFromSettings(withSetting('avap.telemetry.file', file)).assistant.telemetry.file,
      file,
      'through the setting',
    );
    assert.equal(
      coreFromEnv({ AVAP_TELEMETRY_FILE: file }).assistant.telemetry.file,
      file,
      'through AVAP_TELEMETRY_FILE',
    );
  });
});
