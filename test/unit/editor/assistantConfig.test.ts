import assert from 'node:assert/strict';
// internal-import: the settings reader, tested on plain objects without VS Code
import { readEditorSettings } from '../../../src/editor/settings/editorSettings';
// internal-import: the settings to core configuration mapping, tested without VS Code
import { toAssistantConfig } from '../../../src/editor/settings/assistantConfig';

describe('editor: settings → core configuration', () => {
  it('converts seconds to milliseconds and empty URLs to the embedded defaults', () => {
    const { settings } = readEditorSettings(() => undefined);
    const config = toAssistantConfig(settings, { defaultTelemetryFile: '/s/telemetry.jsonl' });
    assert.equal(config.parser.url, undefined);
    assert.equal(config.parser.timeoutMs, 2000);
    assert.equal(config.parser.breakerCooldownMs, 30_000);
    assert.equal(config.retrieval.esUrl, undefined);
    assert.equal(config.telemetry.file, '/s/telemetry.jsonl');
    assert.equal(config.ollama.host, 'http://127.0.0.1:11434');
    assert.equal(config.ollama.idleTimeoutMs, 60_000);
  });

  it('passes the configured values and the secret API key through', () => {
    const values: Record<string, unknown> = {
      'parser.url': '127.0.0.1:5000',
      'parser.timeout': 0.5,
      'parser.circuitBreaker.cooldown': 2,
      'ollama.url': 'http://127.0.0.1:9999',
      'ollama.model': 'm1',
      'elasticsearch.url': 'http://es:9200',
      'relevance.mode': 'cosine',
      'telemetry.file': '/t.jsonl',
      'generation.maxRetries': 0,
      'generation.fewShotExamples': 0,
      'ollama.idleTimeout': 12.5,
    };
    const { settings } = readEditorSettings((key) => values[key]);
    const config = toAssistantConfig(settings, { esApiKey: 'secret', defaultTelemetryFile: '/unused' });
    assert.equal(config.parser.url, '127.0.0.1:5000');
    assert.equal(config.parser.timeoutMs, 500);
    assert.equal(config.parser.breakerCooldownMs, 2000);
    assert.equal(config.ollama.model, 'm1');
    assert.equal(config.retrieval.esUrl, 'http://es:9200');
    assert.equal(config.retrieval.esApiKey, 'secret');
    assert.equal(config.relevance.mode, 'cosine');
    assert.equal(config.telemetry.file, '/t.jsonl');
    assert.deepEqual(config.pipeline, { maxRetries: 0, fewShotExamples: 0 });
    assert.equal(
      config.ollama.idleTimeoutMs,
      12_500,
      'avap.ollama.idleTimeout is in seconds, like AVAP_LLM_IDLE_TIMEOUT',
    );
  });
});
