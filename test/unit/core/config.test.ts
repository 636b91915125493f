import assert from 'node:assert/strict';
import {
  ConfigError,
  configFromEnv,
  defaultConfig,
  mergeConfig,
  normalizeOllamaHost,
  parseDuration,
} from '../../../src/core/config';

describe('core/config', () => {
  it('has the design defaults', () => {
    const c = defaultConfig();
    assert.equal(c.parser.url, undefined);
    assert.equal(c.parser.timeoutMs, 2000);
    assert.equal(c.parser.breakerThreshold, 3);
    assert.equal(c.parser.breakerCooldownMs, 30_000);
    assert.equal(c.ollama.host, 'http://127.0.0.1:11434');
    assert.equal(c.ollama.temperature, 0);
    assert.equal(typeof c.ollama.seed, 'number');
    assert.equal(c.retrieval.topK, 8);
    assert.equal(c.retrieval.rrfK, 60);
    assert.equal(c.pipeline.maxRetries, 1);
    assert.equal(c.ollama.idleTimeoutMs, 60_000);
    assert.equal(c.pipeline.fewShotExamples, 5, 'D2: K = 5');
    assert.equal(c.relevance.mode, 'llm');
    assert.equal(c.cache.dir, undefined, 'no cache directory: the few-shot pool vectors stay in memory');
  });

  it('reads the environment variables of the design', () => {
    const c = configFromEnv({
      AVAP_PARSER_URL: 'grpc://10.0.0.1:50051',
      AVAP_PARSER_TIMEOUT: '0.5',
      PARSER_CB_THRESHOLD: '5',
      PARSER_CB_COOLDOWN: '10',
      OLLAMA_HOST: 'http://gpu:11434',
      OLLAMA_MODEL_NAME: 'big',
      OLLAMA_MODEL_NAME_CONVERSATIONAL: 'small',
      AVAP_ES_URL: 'http://es:9200',
      AVAP_RELEVANCE_MODE: 'cosine',
      AVAP_RETRIEVAL_MODE: 'knn_only',
      AVAP_MAX_RETRIES: '0',
      AVAP_TELEMETRY_FILE: '/tmp/t.jsonl',
      AVAP_FEW_SHOT_K: '0',
      AVAP_LLM_IDLE_TIMEOUT: '45',
      AVAP_CACHE_DIR: '/var/cache/avap',
    });
    assert.equal(c.parser.url, 'grpc://10.0.0.1:50051');
    assert.equal(c.parser.timeoutMs, 500, 'AVAP_PARSER_TIMEOUT is in seconds, as the design writes it');
    assert.equal(c.ollama.idleTimeoutMs, 45_000, 'AVAP_LLM_IDLE_TIMEOUT is in seconds');
    assert.equal(c.parser.breakerThreshold, 5);
    assert.equal(c.parser.breakerCooldownMs, 10_000, 'PARSER_CB_COOLDOWN is in seconds');
    assert.equal(c.ollama.host, 'http://gpu:11434');
    assert.equal(c.ollama.model, 'big');
    assert.equal(c.ollama.conversationalModel, 'small');
    assert.equal(c.retrieval.esUrl, 'http://es:9200');
    assert.equal(c.relevance.mode, 'cosine');
    assert.equal(c.retrieval.mode, 'knn_only');
    assert.equal(c.pipeline.maxRetries, 0);
    assert.equal(c.pipeline.fewShotExamples, 0);
    assert.equal(c.telemetry.file, '/tmp/t.jsonl');
    assert.equal(c.cache.dir, '/var/cache/avap');
  });

  it('AVAP_PARSER_TIMEOUT is seconds, decimals allowed; 0 disables; units can be explicit; empty means unset', () => {
    assert.equal(configFromEnv({ AVAP_PARSER_TIMEOUT: '0' }).parser.timeoutMs, 0);
    assert.equal(configFromEnv({ AVAP_PARSER_TIMEOUT: '2' }).parser.timeoutMs, 2000);
    assert.equal(configFromEnv({ AVAP_PARSER_TIMEOUT: '1.5' }).parser.timeoutMs, 1500);
    assert.equal(configFromEnv({ AVAP_PARSER_TIMEOUT: '250ms' }).parser.timeoutMs, 250);
    assert.equal(configFromEnv({ AVAP_PARSER_TIMEOUT: '2s' }).parser.timeoutMs, 2000);
    assert.equal(configFromEnv({ PARSER_CB_COOLDOWN: '500ms' }).parser.breakerCooldownMs, 500);
    assert.equal(configFromEnv({ AVAP_PARSER_URL: '  ' }).parser.url, undefined);
    assert.equal(parseDuration('x', '1.5s', 'ms'), 1500);
  });

  it('rejects unreadable values with a ConfigError naming the variable', () => {
    assert.throws(
      () => configFromEnv({ AVAP_PARSER_TIMEOUT: 'soon' }),
      (e: Error) => e instanceof ConfigError && /AVAP_PARSER_TIMEOUT/.test(e.message),
    );
    assert.throws(() => configFromEnv({ PARSER_CB_THRESHOLD: '0' }), /PARSER_CB_THRESHOLD/);
    // A leftover millisecond figure would wait for half an hour: refused, with what to write instead.
    assert.throws(
      () => configFromEnv({ AVAP_PARSER_TIMEOUT: '2000' }),
      /AVAP_PARSER_TIMEOUT is in seconds \(it was read as milliseconds before\).*write 2 \(or 2000ms\)/,
    );
    assert.throws(() => configFromEnv({ AVAP_MAX_RETRIES: '2' }), /AVAP_MAX_RETRIES must be 0 or 1/);
    assert.throws(() => configFromEnv({ AVAP_LLM_IDLE_TIMEOUT: 'long' }), /AVAP_LLM_IDLE_TIMEOUT/);
    assert.throws(() => configFromEnv({ AVAP_RELEVANCE_MODE: 'vibes' }), /'llm' or 'cosine'/);
  });

  it('mergeConfig overlays one section deep and ignores undefined', () => {
    const c = mergeConfig(defaultConfig(), { parser: { timeoutMs: 5, url: undefined }, ollama: { model: 'm' } });
    assert.equal(c.parser.timeoutMs, 5);
    assert.equal(c.parser.breakerThreshold, 3);
    assert.equal(c.ollama.model, 'm');
    assert.equal(c.ollama.temperature, 0);
  });

  it('normalizes Ollama hosts the way Ollama spells them', () => {
    assert.equal(normalizeOllamaHost('0.0.0.0:11434'), 'http://127.0.0.1:11434');
    assert.equal(normalizeOllamaHost('gpu-box'), 'http://gpu-box:11434');
    assert.equal(normalizeOllamaHost('https://ollama.example.com'), 'https://ollama.example.com');
    assert.equal(normalizeOllamaHost(''), 'http://127.0.0.1:11434');
  });
});
