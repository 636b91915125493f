import assert from 'node:assert/strict';
import { changedSections, readEditorSettings, SETTING_DEFAULTS } from '../../../src/editor/settings/editorSettings';

const from = (values: Record<string, unknown>) => readEditorSettings((key) => values[key]);

describe('editor: avap.* settings', () => {
  it('has the documented defaults', () => {
    const { settings, problems } = from({});
    assert.deepEqual(settings, SETTING_DEFAULTS);
    assert.deepEqual(problems, []);
    assert.equal(settings.ollama.url, 'http://127.0.0.1:11434');
  });

  it('reads valid values', () => {
    const { settings, problems } = from({
      'parser.url': ' grpc://127.0.0.1:5000 ',
      'parser.timeout': 0,
      'parser.circuitBreaker.threshold': 5,
      'parser.circuitBreaker.cooldown': 1.5,
      'ollama.url': 'http://10.0.0.2:11434',
      'relevance.mode': 'cosine',
      'elasticsearch.url': 'https://es.internal:9200',
      'generation.maxRetries': 0,
      'generation.fewShotExamples': 3,
      'quality.judge': true,
      'quality.judgeThreshold': 0.75,
      'signals.enabled': false,
      'signals.file': ' /data/signals.jsonl ',
    });
    assert.deepEqual(problems, []);
    assert.equal(settings.parser.url, 'grpc://127.0.0.1:5000');
    assert.equal(settings.parser.timeoutSeconds, 0);
    assert.equal(settings.parser.breakerThreshold, 5);
    assert.equal(settings.parser.breakerCooldownSeconds, 1.5);
    assert.equal(settings.relevance.mode, 'cosine');
    assert.equal(settings.elasticsearch.url, 'https://es.internal:9200');
    assert.deepEqual(settings.generation, { maxRetries: 0, fewShotExamples: 3 });
    assert.deepEqual(settings.quality, { judge: true, judgeThreshold: 0.75 });
    assert.deepEqual(settings.signals, { enabled: false, file: '/data/signals.jsonl' });
  });

  it('reports bad values and falls back instead of throwing', () => {
    const { settings, problems } = from({
      'parser.url': 'not a url',
      'parser.timeout': -1,
      'parser.circuitBreaker.threshold': 2.5,
      'relevance.mode': 'vibes',
      'ollama.url': 'ftp://x',
      'ollama.model': 42,
      'generation.fewShotExamples': 2.5,
      'quality.judge': 'yes',
      'quality.judgeThreshold': 1.5,
      'generation.maxRetries': 2,
      'ollama.idleTimeout': -5,
    });
    assert.equal(settings.parser.url, '');
    assert.equal(settings.parser.timeoutSeconds, 2);
    assert.equal(settings.parser.breakerThreshold, 3);
    assert.equal(settings.relevance.mode, 'llm');
    assert.equal(settings.ollama.url, 'http://127.0.0.1:11434');
    assert.equal(settings.ollama.model, 'qwen3:1.7b');
    assert.equal(settings.generation.fewShotExamples, 5);
    assert.deepEqual(
      settings.quality,
      { judge: false, judgeThreshold: 0.6 },
      'the judge stays off unless clearly turned on',
    );
    assert.equal(settings.generation.maxRetries, 1, 'D1 RC-08: one retry cycle at most');
    assert.equal(settings.ollama.idleTimeoutSeconds, 60);
    assert.ok(
      problems.includes(
        'avap.generation.maxRetries must be 0 or 1 (one retry cycle per request at most), got 2; using 1',
      ),
      problems.join('\n'),
    );
    assert.equal(problems.length, 11);
    assert.ok(problems.every((p) => p.startsWith('avap.')));
  });

  it('reads avap.inlayHints.parameterNames, off unless clearly turned on', () => {
    assert.equal(from({ 'inlayHints.parameterNames': true }).settings.inlayHints.parameterNames, true);
    const bad = from({ 'inlayHints.parameterNames': 'yes' });
    assert.equal(bad.settings.inlayHints.parameterNames, false);
    assert.deepEqual(bad.problems, ['avap.inlayHints.parameterNames must be true or false; using false']);
    assert.deepEqual(changedSections(from({}).settings, from({ 'inlayHints.parameterNames': true }).settings), {
      parser: false,
      assistant: false,
    });
  });

  it('reads the run settings (the sandbox the editor runs AVAP in) and refuses bad ones', () => {
    const good = from({
      'run.allowHttp': [' api.example.com ', '127.0.0.1:8080', ''],
      'run.timeout': 2.5,
      'run.maxSteps': 5000,
      'run.maxMemory': 64,
      'run.showValues': false,
    });
    assert.deepEqual(good.problems, []);
    assert.deepEqual(good.settings.run, {
      allowHttp: ['api.example.com', '127.0.0.1:8080'],
      timeoutSeconds: 2.5,
      maxSteps: 5000,
      maxMemoryMb: 64,
      showValues: false,
    });
    const bad = from({
      'run.allowHttp': 'api.example.com',
      'run.timeout': 0,
      'run.maxSteps': 1.5,
      'run.maxMemory': 4,
      'run.showValues': 'no',
    });
    assert.deepEqual(bad.settings.run, SETTING_DEFAULTS.run);
    assert.equal(bad.problems.length, 5, bad.problems.join('\n'));
    assert.ok(bad.problems.includes('avap.run.allowHttp must be a list of strings; using []'), bad.problems.join('\n'));
    // Changing how runs are made rebuilds neither the parser connection nor the assistant.
    assert.deepEqual(changedSections(from({}).settings, good.settings), { parser: false, assistant: false });
  });

  it('says which services a change touches', () => {
    const base = from({}).settings;
    assert.deepEqual(changedSections(base, from({ 'parser.timeout': 5 }).settings), { parser: true, assistant: true });
    assert.deepEqual(changedSections(base, from({ 'ollama.model': 'x' }).settings), { parser: false, assistant: true });
    assert.deepEqual(changedSections(base, from({ 'generation.fewShotExamples': 0 }).settings), {
      parser: false,
      assistant: true,
    });
    assert.deepEqual(changedSections(base, from({ 'quality.judge': true }).settings), {
      parser: false,
      assistant: true,
    });
    assert.deepEqual(changedSections(base, from({ 'signals.enabled': false }).settings), {
      parser: false,
      assistant: true,
    });
    assert.deepEqual(changedSections(base, from({ 'validation.debounce': 10 }).settings), {
      parser: false,
      assistant: false,
    });
  });
});
