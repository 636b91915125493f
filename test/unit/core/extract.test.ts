import assert from 'node:assert/strict';
import {
  extractCode,
  isCodeLine,
  isWholeCodeLine,
  joinBlocks,
  shownCodeBlocks,
  stripThinking,
} from '../../../src/core/code/extract';

describe('core/code extractCode', () => {
  it('takes ```avap and unlabelled fences, with the response line each starts on', () => {
    const text = 'Intro\n```avap\naddVar(a, 1)\n```\nmore\n```\naddResult(a)\n```\n';
    assert.deepEqual(extractCode(text), [
      { code: 'addVar(a, 1)', startLine: 3, label: 'avap', fenced: true },
      { code: 'addResult(a)', startLine: 7, label: '', fenced: true },
    ]);
  });

  it('prefers avap/unlabelled fences over other languages; falls back to code-labelled ones; never to data', () => {
    assert.deepEqual(
      extractCode('```json\n{"a":1}\n```\n```AVAP\naddResult(a)\n```').map((b) => b.code),
      ['addResult(a)'],
    );
    assert.deepEqual(
      extractCode('```python\ndef f():\n    pass\n```').map((b) => b.label),
      ['python'],
    );
    assert.deepEqual(extractCode('```json\n{"a": 1}\n```'), []);
  });

  it('keeps the code of an unterminated fence (a stream cut short)', () => {
    assert.deepEqual(
      extractCode('```avap\naddVar(a, 1)\naddResult(a)').map((b) => b.code),
      ['addVar(a, 1)\naddResult(a)'],
    );
  });

  it('finds bare code runs and skips prose', () => {
    const text = 'Here is how:\naddParam(password, p)\nencodeSHA256(p, h)\n\naddResult(h)\nThat is all.';
    assert.deepEqual(extractCode(text), [
      { code: 'addParam(password, p)\nencodeSHA256(p, h)\n\naddResult(h)', startLine: 2, label: '', fenced: false },
    ]);
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

  describe('the code a prose answer shows (validated on every route)', () => {
    it('takes its fences like extractCode, data fences excluded', () => {
      assert.deepEqual(shownCodeBlocks('See:\n```avap\ngetSHA256(p, h)\n```\n'), [
        { code: 'getSHA256(p, h)', startLine: 3, label: 'avap', fenced: true },
      ]);
      assert.deepEqual(shownCodeBlocks('A body:\n```json\n{"a": 1}\n```'), []);
      assert.equal(shownCodeBlocks('```python\nimport os\n```')[0]?.label, 'python');
    });

    it('takes bare lines only when they are wholly code, never prose that starts with a command', () => {
      assert.deepEqual(
        shownCodeBlocks('addParam(name, target) reads the parameter called name — from the query string.'),
        [],
      );
      assert.deepEqual(shownCodeBlocks('Use addParam(name, target) [1].'), []);
      assert.deepEqual(shownCodeBlocks('Hello! Ask me anything.'), []);
      assert.deepEqual(shownCodeBlocks('// just a comment'), [], 'a comment alone is no program');
      assert.deepEqual(
        shownCodeBlocks('Like this:\naddParam(password, p)\ngetSHA256(p, h)\naddResult(h)\nDone.').map((b) => [
          b.code,
          b.startLine,
        ]),
        [['addParam(password, p)\ngetSHA256(p, h)\naddResult(h)', 2]],
      );
    });

    it('a whole code line: a call with nothing after it but ; { or a comment, an assignment, a comment, a brace', () => {
      for (const line of ['addVar(a, "x (y)")', 'f(a, b) {', 'addResult(x) // done', 'x = 1', '// note', '}'])
        assert.equal(isWholeCodeLine(line), true, line);
      for (const line of ['addParam(a, b) reads a', 'addVar(a, 1', 'Use f(x).', ''])
        assert.equal(isWholeCodeLine(line), false, line);
    });
  });
});
