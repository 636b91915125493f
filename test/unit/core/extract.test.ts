import assert from 'node:assert/strict';
import {
  blockEntries,
  codeAnswerBlocks,
  entryOnResponse,
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

describe('core/code extraction: every line a reader sees as code', () => {
  const codes = (blocks: { code: string }[]) => blocks.map((b) => b.code);

  describe('F2: code Markdown renders, wherever it is', () => {
    it('an ```avap fence inside a list item, at the item indentation and past it, with where each line starts', () => {
      const numbered = '1. Read the parameter:\n\n   ```avap\n   addParam(n, n)\n   while n > 0:\n   ```\n';
      assert.deepEqual(extractCode(numbered), [
        { code: 'addParam(n, n)\nwhile n > 0:', startLine: 4, label: 'avap', fenced: true, prefixes: ['   ', '   '] },
      ]);
      const bullet = '- step one:\n    ```avap\n    addParam(n, n)\n    while n > 0:\n    addResult(n)\n    ```\n';
      assert.deepEqual(codes(extractCode(bullet)), ['addParam(n, n)\nwhile n > 0:\naddResult(n)']);
      assert.deepEqual(codes(shownCodeBlocks(bullet)), ['addParam(n, n)\nwhile n > 0:\naddResult(n)']);
    });

    it('nested list levels: a fence under a sub-item, and one indented so far that Markdown shows it literally', () => {
      const nested = '1. Steps\n   - read it:\n     ```avap\n     addParam(n, n)\n     while n > 0:\n     ```\n';
      assert.deepEqual(extractCode(nested), [
        {
          code: 'addParam(n, n)\nwhile n > 0:',
          startLine: 4,
          label: 'avap',
          fenced: true,
          prefixes: ['     ', '     '],
        },
      ]);
      // Eight spaces under a sub-item: an indented code block that shows the fence lines; its code is still AVAP.
      const literal = '- a\n  - b\n\n        ```avap\n        while n > 0:\n        ```\n';
      assert.deepEqual(codes(extractCode(literal)), ['while n > 0:']);
    });

    it('a fence in a blockquote, with or without the space after >', () => {
      const quoted = '> Like this:\n>\n> ```avap\n> addParam(n, n)\n>while n > 0:\n> ```\n';
      assert.deepEqual(extractCode(quoted), [
        { code: 'addParam(n, n)\nwhile n > 0:', startLine: 4, label: 'avap', fenced: true, prefixes: ['> ', '>'] },
      ]);
    });

    it('an avap fence inside a fence of Markdown source is shown (literally) and validated, in a list item too', () => {
      assert.deepEqual(extractCode('In your README:\n````markdown\nRun:\n```avap\nwhile n > 0:\n```\n````\n'), [
        { code: 'while n > 0:', startLine: 5, label: 'avap', fenced: true },
      ]);
      assert.deepEqual(extractCode('- README:\n  ````md\n  ```avap\n  while n > 0:\n  ```\n  ````\n'), [
        { code: 'while n > 0:', startLine: 4, label: 'avap', fenced: true, prefixes: ['  '] },
      ]);
      assert.deepEqual(extractCode('````md\n# Title\n\nJust prose.\n````'), []);
    });

    it('an indented code block (four spaces after a blank line) is code', () => {
      const text = 'Loop like this:\n\n    addParam(n, n)\n    while n > 0:\n        n = n - 1\n\nDone.';
      assert.deepEqual(extractCode(text), [
        {
          code: 'addParam(n, n)\nwhile n > 0:\n    n = n - 1',
          startLine: 3,
          label: '',
          fenced: true,
          prefixes: ['    ', '    ', '    '],
        },
      ]);
      assert.deepEqual(codes(shownCodeBlocks(text)), ['addParam(n, n)\nwhile n > 0:\n    n = n - 1']);
    });

    it('tildes, upper-case and avp labels, an info string after the label, CRLF line ends', () => {
      assert.deepEqual(codes(extractCode('~~~avap\nwhile n > 0:\n~~~\n')), ['while n > 0:']);
      assert.deepEqual(codes(extractCode('```AVAP\nwhile n > 0:\n```')), ['while n > 0:']);
      assert.deepEqual(codes(extractCode('```avp\nwhile n > 0:\n```')), ['while n > 0:']);
      assert.deepEqual(codes(extractCode('~~~ Avap title="loop"\nwhile n > 0:\n~~~')), ['while n > 0:']);
      assert.deepEqual(codes(extractCode('```avap-script\nwhile n > 0:\n```')), ['while n > 0:']);
      assert.deepEqual(codes(extractCode('```hello.avap\nwhile n > 0:\n```')), ['while n > 0:']);
      assert.deepEqual(codes(extractCode('```avapx\nx = 1\n```\n```avap\ny = 2\n```')), ['y = 2']);
      assert.deepEqual(extractCode('Intro\r\n```avap\r\naddParam(n, n)\r\nwhile n > 0:\r\n```\r\n'), [
        { code: 'addParam(n, n)\nwhile n > 0:', startLine: 3, label: 'avap', fenced: true },
      ]);
    });
  });

  describe('F2: code written without a fence keeps every line', () => {
    it('a while loop between calls is part of the program, never dropped', () => {
      const text = 'Count down:\naddParam(n, n)\nwhile n > 0:\n    n = n - 1\naddResult(n)\n';
      assert.deepEqual(extractCode(text), [
        { code: 'addParam(n, n)\nwhile n > 0:\n    n = n - 1\naddResult(n)', startLine: 2, label: '', fenced: false },
      ]);
    });

    it('a lowercase sentence after the program is prose; a loop header of plain words is not', () => {
      assert.deepEqual(
        codes(
          extractCode('addParam(password, p)\nencodeSHA256(p, h)\naddResult(h)\nthis reads the password and hashes it'),
        ),
        ['addParam(password, p)\nencodeSHA256(p, h)\naddResult(h)'],
      );
      assert.deepEqual(codes(extractCode('addParam(items, items)\nfor item in items\n  addResult(item)')), [
        'addParam(items, items)\nfor item in items\n  addResult(item)',
      ]);
    });

    it('a capitalised loop header is code, not a sentence: operators are not prose', () => {
      assert.deepEqual(codes(extractCode('Here:\naddParam(n, n)\nWhile n > 0:\n  addResult(n)\nThat is all.')), [
        'addParam(n, n)\nWhile n > 0:\n  addResult(n)',
      ]);
    });

    it('foreach … end foreach, and a loop that opens the program', () => {
      assert.deepEqual(
        codes(extractCode('addParam(items, items)\nforeach item in items\n  addResult(item)\nend foreach')),
        ['addParam(items, items)\nforeach item in items\n  addResult(item)\nend foreach'],
      );
      assert.deepEqual(codes(extractCode('Here it is:\n\nforeach item in items\n  addResult(item)\nend foreach\n')), [
        'foreach item in items\n  addResult(item)\nend foreach',
      ]);
    });

    it('a let declaration and a # comment among calls are validated with them; sentences around them are not', () => {
      assert.deepEqual(codes(shownCodeBlocks('Then return it:\n\nlet out = hashed\naddResult(out);\n\nThat is all.')), [
        'let out = hashed\naddResult(out);',
      ]);
      assert.deepEqual(codes(extractCode('addParam(p, p)\n# hash it\nencodeSHA256(p, h)\naddResult(h)')), [
        'addParam(p, p)\n# hash it\nencodeSHA256(p, h)\naddResult(h)',
      ]);
      assert.deepEqual(codes(extractCode('## Example\n\naddParam(p, p)\naddResult(p)\n\n- it reads p')), [
        'addParam(p, p)\naddResult(p)',
      ]);
    });

    it('code outside the fences of an answer that has them: a program after the fence is validated too', () => {
      const text = '```avap\naddParam(pwd, pwd)\n```\nThen:\nlet out = pwd\naddResult(out)\n';
      assert.deepEqual(
        extractCode(text).map((b) => [b.code, b.startLine, b.fenced]),
        [
          ['addParam(pwd, pwd)', 2, true],
          ['let out = pwd\naddResult(out)', 5, false],
        ],
      );
      // Prose after a fence that mentions a command is no program.
      assert.deepEqual(codes(extractCode('```avap\naddResult(x)\n```\naddResult(x) returns x to the caller.')), [
        'addResult(x)',
      ]);
    });
  });

  describe('F8: unlabelled blocks that are output or commands are not AVAP', () => {
    it('a correct block followed by its JSON output and a curl call: only the program is AVAP', () => {
      const text =
        '```avap\naddParam(pwd, p)\nencodeSHA256(p, hashed)\naddResult(hashed)\n```\nOutput:\n```\n{"hashed": "5e88"}\n```\nTry it:\n```\ncurl "http://localhost/api?pwd=x"\n```\n';
      assert.deepEqual(codes(extractCode(text)), ['addParam(pwd, p)\nencodeSHA256(p, hashed)\naddResult(hashed)']);
      assert.deepEqual(codes(shownCodeBlocks(text)), ['addParam(pwd, p)\nencodeSHA256(p, hashed)\naddResult(hashed)']);
    });

    it('the same with tildes, an indented JSON block and a pretty-printed body; unlabelled AVAP stays AVAP', () => {
      const text =
        '~~~\naddParam(pwd, p)\naddResult(p)\n~~~\n\n    {\n      "p": "x"\n    }\n\n```\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n{"p": "x"}\n```\n';
      assert.deepEqual(codes(extractCode(text)), ['addParam(pwd, p)\naddResult(p)']);
    });

    it('an answer whose only code is output holds no AVAP; a code answer is then validated whole', () => {
      assert.deepEqual(extractCode('Output:\n```\n{"hashed": "5e88"}\n```'), []);
      assert.equal(codeAnswerBlocks('Output:\n```\n{"hashed": "5e88"}\n```').length, 1);
    });
  });

  describe('F3: </think> inside the answer ends nothing', () => {
    it('inside a fence, a string or an inline code span, the lines before it are kept', () => {
      const fenced = '```avap\naddParam(text, text)\nprint(text)\nreplace(text, "</think>", "", clean)\n```';
      assert.equal(stripThinking(fenced), fenced);
      const bare = 'addParam(text, text)\nreplace(text, "</think>", "", clean)';
      assert.equal(stripThinking(bare), bare);
      assert.equal(stripThinking("x = '</think>'\naddResult(x)"), "x = '</think>'\naddResult(x)");
      assert.equal(stripThinking('Strip `</think>` first:\naddResult(x)'), 'Strip `</think>` first:\naddResult(x)');
      const comment = 'addParam(text, text)\n// drop every </think> tag\nprint(text)';
      assert.equal(stripThinking(comment), comment, 'a tag in a comment line is code');
    });

    it('the reasoning preamble is still removed: with its opening tag, without it, and with code in the reasoning', () => {
      assert.equal(stripThinking('<think>\n\n</think>\n\n```avap\naddResult(x)\n```'), '```avap\naddResult(x)\n```');
      assert.equal(
        stripThinking('<think>\nMaybe:\n```avap\nprint(x)\n```\nNo.\n</think>\nAnswer:\n```avap\naddResult(x)\n```'),
        'Answer:\n```avap\naddResult(x)\n```',
      );
      assert.equal(
        stripThinking('I could write\n```avap\nprint(x)\n```\nbut no.\n</think>\n\nUse addResult.'),
        'Use addResult.',
      );
      assert.equal(
        stripThinking('<think>a</think>\n<think>b</think>\n```avap\naddResult(x)\n```'),
        '```avap\naddResult(x)\n```',
      );
    });

    it('think blocks after code are not a preamble: nothing before them is dropped', () => {
      const text = '```avap\naddParam(a, a)\n```\n<think>check it</think>\nDone.';
      assert.equal(stripThinking(text), text);
      assert.deepEqual(codes(extractCode(stripThinking(text))), ['addParam(a, a)']);
      // An unterminated reasoning block (a cut stream) hides nothing.
      assert.equal(stripThinking('<think>\n```avap\nprint(x)\n```'), '<think>\n```avap\nprint(x)\n```');
    });
  });

  it('maps entries and fixes between a block and the response, both ways (list indentation, quote markers)', () => {
    const [block] = extractCode('- hash it:\n  ```avap\n  hashed = getSHA256(pwd)\n  ```\n');
    assert.ok(block);
    const entry = {
      line: 1,
      column: 9,
      endColumn: 18,
      severity: 'error' as const,
      category: 'unknown_token' as const,
      code: 'unknown-command' as const,
      message: 'x',
      token: 'getSHA256',
      fix: { title: 't', edits: [{ line: 1, column: 1, endLine: 1, endColumn: 24, newText: 'y' }] },
    };
    const onResponse = entryOnResponse(block, entry);
    assert.deepEqual([onResponse.line, onResponse.column, onResponse.endColumn], [3, 11, 20]);
    assert.deepEqual(onResponse.fix?.edits[0], { line: 3, column: 3, endLine: 3, endColumn: 26, newText: 'y' });
    assert.deepEqual(blockEntries(block, [onResponse]), [entry]);
  });
});
