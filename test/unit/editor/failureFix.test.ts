import assert from 'node:assert/strict';
import { failureFix } from '../../../src/editor/generate/failureFix';

describe('editor: the fix offered for a failed generation', () => {
  it('a missing model offers the exact ollama pull line of the configured model, to run or copy', () => {
    const fix = failureFix('model-missing', 'qwen3:1.7b', 'http://127.0.0.1:11434');
    assert.match(fix.hint, /`ollama pull qwen3:1\.7b`/);
    assert.deepEqual(fix.actions[0], { label: 'Pull Model', kind: 'terminal', command: 'ollama pull qwen3:1.7b' });
    assert.ok(fix.actions.length <= 3, 'a toast shows three buttons in full');
    assert.deepEqual(fix.actions[1], { label: 'Copy Command', kind: 'copy', text: 'ollama pull qwen3:1.7b' });
    assert.ok(fix.actions.some((a) => a.kind === 'retry'));
  });

  it('an unreachable server offers to start Ollama and names the URL in use', () => {
    const fix = failureFix('llm-unreachable', 'qwen3:1.7b', 'http://10.0.0.2:11434');
    assert.match(fix.hint, /ollama serve/);
    assert.match(fix.hint, /10\.0\.0\.2:11434/);
    assert.deepEqual(fix.actions[0], { label: 'Start Ollama', kind: 'terminal', command: 'ollama serve' });
  });

  it('other failures offer Retry and the output; a cancellation offers nothing', () => {
    assert.deepEqual(
      failureFix('llm-failed', 'm', 'u').actions.map((a) => a.kind),
      ['retry', 'output'],
    );
    assert.deepEqual(
      failureFix('llm-timeout', 'm', 'u').actions.map((a) => a.kind),
      ['retry', 'output'],
    );
    assert.deepEqual(failureFix('cancelled', 'm', 'u').actions, []);
  });

  it('no assistant to run (an unreadable parser URL, or none set up) offers the output, not a retry that cannot help', () => {
    const url = failureFix('bad-parser-url', 'm', 'u');
    assert.match(url.hint, /avap\.parser\.url/);
    assert.deepEqual(
      url.actions.map((a) => a.kind),
      ['output'],
    );
    assert.deepEqual(
      failureFix('not-started', 'm', 'u').actions.map((a) => a.kind),
      ['output'],
    );
  });
});
