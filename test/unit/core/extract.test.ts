import assert from 'node:assert/strict';
import { extractCode, isCodeLine, joinBlocks, stripThinking } from '../../../src/core/code/extract';

describe('core/code extractCode', () => {
  it('takes ```avap and unlabelled fences, with the response line each starts on', () => {
    const text = 'Intro\n```avap\naddVar(a, 1)\n```\nmore\n```\naddResult(a)\n```\n';
    assert.deepEqual(extractCode(text), [
      { code: 'addVar(a, 1)', startLine: 3, label: 'avap', fenced: true },
      { code: 'addResult(a)', startLine: 7, label: '', fenced: true },
    ]);
  });

  it('prefers avap/unlabelled fences over other languages; falls back to code-labelled ones; never to data', () => {
    assert.deepEqual(extractCode('```json\n{"a":1}\n```\n```AVAP\naddResult(a)\n```').map((b) => b.code), ['addResult(a)']);
    assert.deepEqual(extractCode('```python\ndef f():\n    pass\n```').map((b) => b.label), ['python']);
    assert.deepEqual(extractCode('```json\n{"a": 1}\n```'), []);
  });

  it('keeps the code of an unterminated fence (a stream cut short)', () => {
    assert.deepEqual(extractCode('```avap\naddVar(a, 1)\naddResult(a)').map((b) => b.code), ['addVar(a, 1)\naddResult(a)']);
  });

  it('finds bare code runs and skips prose', () => {
    const text = 'Here is how:\naddParam(password, p)\nencodeSHA256(p, h)\n\naddResult(h)\nThat is all.';
    assert.deepEqual(extractCode(text), [{ code: 'addParam(password, p)\nencodeSHA256(p, h)\n\naddResult(h)', startLine: 2, label: '', fenced: false }]);
    assert.equal(isCodeLine('That is all.'), false);
    assert.equal(isCodeLine('x = 1'), true);
    assert.equal(isCodeLine('// comment'), true);
    assert.equal(isCodeLine('function f(a) {'), true);
  });

  it('strips <think> blocks', () => {
    assert.equal(stripThinking('<think>hmm\nmaybe</think>\nanswer'), 'answer');
    assert.equal(stripThinking('reasoning without opener</think>answer'), 'answer');
    assert.equal(stripThinking('plain'), 'plain');
  });

  it('joins blocks and remembers where each starts', () => {
    const { code, offsets } = joinBlocks([
      { code: 'a()\nb()', startLine: 1, label: '', fenced: true },
      { code: 'c()', startLine: 9, label: '', fenced: true },
    ]);
    assert.equal(code, 'a()\nb()\nc()');
    assert.deepEqual(offsets, [0, 2]);
  });
});
