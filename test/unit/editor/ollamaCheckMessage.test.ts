import assert from 'node:assert/strict';
import type { OllamaCheck } from '../../../src/core';
// internal-import: the Ollama check's message and actions, tested without VS Code
import {
  CHECK_OLLAMA_ACTIONS,
  checkOllamaMessage,
  editorNeededModels,
} from '../../../src/editor/firstRun/ollamaCheckMessage';
// internal-import: the settings reader, tested on plain objects without VS Code
import { SETTING_DEFAULTS } from '../../../src/editor/settings/editorSettings';

const base: OllamaCheck = {
  status: 'ready',
  host: 'http://127.0.0.1:11434',
  models: [],
  missing: [],
  pullCommands: [],
  summary: 'all good',
};

describe('editor: what AVAP: Check Ollama says and offers', () => {
  it('ready: information, no action', () => {
    assert.deepEqual(checkOllamaMessage(base), { severity: 'info', text: 'AVAP: all good', actions: [] });
  });

  it('models missing: a warning offering to copy or run the exact pull line', () => {
    const message = checkOllamaMessage({
      ...base,
      status: 'models-missing',
      missing: ['a:1', 'b:2'],
      pullCommands: ['ollama pull a:1', 'ollama pull b:2'],
      summary: 's',
    });
    assert.equal(message.severity, 'warning');
    assert.deepEqual(message.actions, [CHECK_OLLAMA_ACTIONS.copy, CHECK_OLLAMA_ACTIONS.terminal]);
    assert.equal(message.shellLine, 'ollama pull a:1 && ollama pull b:2');
  });

  it('unreachable: an error that says how to start it, offering to check again or open the settings; cancelled is quiet', () => {
    const down = checkOllamaMessage({
      ...base,
      status: 'unreachable',
      error: { code: 'llm-unreachable', message: 'x' },
      summary: 'Ollama does not answer.',
    });
    assert.equal(down.severity, 'error');
    assert.match(down.text, /ollama serve/);
    assert.deepEqual(down.actions, [CHECK_OLLAMA_ACTIONS.again, CHECK_OLLAMA_ACTIONS.settings]);
    assert.equal(
      checkOllamaMessage({ ...base, status: 'unreachable', error: { code: 'cancelled', message: 'x' } }).severity,
      'info',
    );
  });

  it('the models the settings need: the judge (the generation model) only when it is on', () => {
    assert.deepEqual(
      editorNeededModels(SETTING_DEFAULTS).map((m) => `${m.role}=${m.name}`),
      ['generation=qwen3:1.7b', 'conversational=qwen3:0.6b', 'embedding=qwen3-embedding:0.6b'],
    );
    const judged = editorNeededModels({ ...SETTING_DEFAULTS, quality: { judge: true, judgeThreshold: 0.6 } });
    assert.deepEqual(judged.at(-1), { role: 'judge', name: 'qwen3:1.7b' });
  });
});
