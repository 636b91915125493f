import assert from 'node:assert/strict';
// internal-import: the theme colour lookup, tested without VS Code
import { classColors, colorFor, parseJsonc } from '../../../src/editor/chat/tokenColorRules';

describe("editor: the theme's token colours for the chat", () => {
  it('reads theme JSON with comments and trailing commas', () => {
    assert.deepEqual(parseJsonc('{ // c\n "a": "x // not a comment", /* b */ "l": [1, 2,], }'), {
      a: 'x // not a comment',
      l: [1, 2],
    });
  });

  it('picks the most specific matching rule, the later one on a tie, and skips parent selectors', () => {
    const rules = [
      { scope: 'keyword', settings: { foreground: '#111111' } },
      { scope: ['keyword.control', 'source.cpp keyword.control'], settings: { foreground: '#222222' } },
      { scope: 'keyword.operator, support.function', settings: { foreground: '#333333' } },
      { scope: 'keyword.control', settings: { foreground: '#444444' } },
      { scope: 'source.avap keyword.operator', settings: { foreground: '#555555' } },
    ];
    assert.equal(colorFor('keyword.control.avap', rules), '#444444');
    assert.equal(colorFor('keyword.operator.avap', rules), '#333333');
    assert.equal(colorFor('keyword.other.avap', rules), '#111111');
    assert.equal(colorFor('keywordish.avap', rules), undefined);
    const colors = classColors(rules);
    assert.equal(colors['tok-builtin'], '#333333');
    assert.equal(colors['tok-string'], undefined);
  });
});
