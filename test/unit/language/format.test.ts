/**
 * The formatter (src/language/format.ts): its layout on examples, and the
 * properties it promises over the whole corpus and over generated programs —
 * it never changes meaning (the parser's verdict and trace codes, and the
 * syntax tree, are the same before and after) and it is idempotent.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { AvapDocument, formatDocument, formatEdits } from '../../../src/language';
import { validateAvap } from '../../../src/parser';
import { parseSyntax, walk, type SyntaxNode } from '../../../src/syntax';

const ROOT = path.resolve(__dirname, '..', '..', '..');

function corpus(): { name: string; text: string }[] {
  const dirs = ['test/corpus/valid', 'test/corpus/invalid', 'test/corpus/failures', 'examples'];
  return dirs.flatMap((dir) =>
    readdirSync(path.join(ROOT, dir))
      .filter((f) => f.endsWith('.avap'))
      .sort()
      .map((f) => ({ name: `${dir}/${f}`, text: readFileSync(path.join(ROOT, dir, f), 'utf8') })),
  );
}

/** The parser's verdict and findings, by code and line (what the program means to the validator). */
function verdict(text: string): string {
  const result = validateAvap(text, { maxFixProofs: 0 });
  return `${result.valid} ${result.trace.map((e) => `${e.line}:${e.code}`).join(' ')}`;
}

/** The syntax tree without positions: every statement's kind and texts, and the block structure. */
function shape(text: string): unknown[] {
  const tree = parseSyntax(text);
  const out: unknown[] = [];
  const statement = (s: SyntaxNode): unknown[] => {
    switch (s.kind) {
      case 'call':
        return [
          'call',
          s.name.text,
          s.args.map((a) => a.text),
          s.target?.text,
          s.role,
          s.flaw,
          s.close !== undefined,
          s.trailing !== undefined,
          s.comment !== undefined,
        ];
      case 'assign':
        return ['assign', s.target.text, s.value.text, s.flaw];
      case 'function':
        return ['function', s.name.text, s.params.map((p) => p.text), s.brace !== undefined];
      case 'return':
        return ['return', s.value?.text];
      case 'unparsed':
        return ['unparsed', s.text, s.reason];
      case 'comment':
        return ['comment', text.slice(s.span.start, s.span.end).trim()];
      case 'blank':
        return ['blank'];
      case 'block':
        return [
          'block',
          s.block,
          statement(s.opener),
          s.divider && statement(s.divider),
          s.closer && statement(s.closer),
        ];
      default:
        return [s.kind];
    }
  };
  walk(tree.body, (node, depth) => {
    // Blank lines (inside a block comment too) at the end of the file are the one thing the formatter removes.
    const empty = node.kind === 'blank' || (node.kind === 'comment' && node.span.start === node.span.end);
    if (!empty) out.push([depth, statement(node)]);
  });
  out.push(tree.problems.map((p) => p.code));
  return out;
}

function assertMeaningKept(name: string, text: string): string {
  const formatted = formatDocument(text);
  assert.equal(verdict(formatted), verdict(text), `${name}: the parser's verdict changed`);
  assert.deepEqual(shape(formatted), shape(text), `${name}: the syntax tree changed`);
  assert.equal(formatDocument(formatted), formatted, `${name}: formatting again changes it`);
  return formatted;
}

describe('language: the formatter', () => {
  it('indents blocks by two spaces, closers and dividers at their opener', () => {
    const text = [
      'function check(a,b){',
      'if(a,b,"=")',
      'addVar(r,1)',
      '   else()',
      'startLoop(i,1,3)',
      'variableToList(i,r)',
      'endLoop()',
      'end()',
      'return(r)',
      '}',
      'try()',
      'RequestGet(url,,,res)',
      'exception(e)',
      'addVar(_status,500)',
      'end()',
      '',
    ].join('\n');
    assert.equal(
      formatDocument(text),
      [
        'function check(a, b) {',
        '  if(a, b, "=")',
        '    addVar(r, 1)',
        '  else()',
        '    startLoop(i, 1, 3)',
        '      variableToList(i, r)',
        '    endLoop()',
        '  end()',
        '  return(r)',
        '}',
        'try()',
        '  RequestGet(url, , , res)',
        'exception(e)',
        '  addVar(_status, 500)',
        'end()',
        '',
      ].join('\n'),
    );
  });

  it('spaces assignments and commas, trims trailing blanks, ends with exactly one newline', () => {
    assert.equal(formatDocument('x=1   \ny  =  addVar( a ,b )\t\n\n\n'), 'x = 1\ny = addVar(a, b)\n');
    assert.equal(formatDocument('addResult(x)'), 'addResult(x)\n');
    assert.equal(formatDocument(''), '');
    assert.equal(formatDocument('\n\n'), '');
  });

  it('leaves what it cannot read whole: an unfinished call, an unterminated string, a comment block, a trailing comment', () => {
    assert.equal(formatDocument('if(a,b,"=")\nRequestGet(url,\nend()\n'), 'if(a, b, "=")\n  RequestGet(url,\nend()\n');
    assert.equal(formatDocument('addVar(a, "open  \n'), 'addVar(a, "open  \n');
    assert.equal(
      formatDocument('/* a\n      kept as written\n*/\naddVar(a,1)    // note  \n'),
      '/* a\n      kept as written\n*/\naddVar(a, 1)    // note\n',
    );
    assert.equal(formatDocument('ormDirect("SELECT a,b FROM t", rows)\n'), 'ormDirect("SELECT a,b FROM t", rows)\n');
  });

  it('keeps the document’s line breaks (CRLF stays CRLF)', () => {
    assert.equal(
      formatDocument('if(a,b,"=")\r\naddVar(x,1)\r\nend()\r\n'),
      'if(a, b, "=")\r\n  addVar(x, 1)\r\nend()\r\n',
    );
  });

  it('never changes meaning and is idempotent over the whole corpus', () => {
    const files = corpus();
    assert.ok(files.length >= 60, `${files.length} corpus files`);
    let changed = 0;
    for (const { name, text } of files) if (assertMeaningKept(name, text) !== text) changed++;
    assert.ok(changed > 0, 'the corpus has something to format');
  });

  it('never changes meaning and is idempotent over generated programs, well formed or not', () => {
    const blank = fc.constantFrom('', ' ', '  ', '\t', '    ');
    const word = fc.constantFrom('a', 'b', 'total', 'page', 'x1', '_status', 'None');
    const arg = fc.oneof(
      word,
      fc.constantFrom('"page"', "'k'", '1', '2.5', '`v ${a}`', '[1,2]', '{"a":1,"b":2}', '""', 'a + 1', 'len(a)', ''),
    );
    const args = fc
      .array(fc.tuple(blank, arg, blank), { maxLength: 4 })
      .map((xs) => xs.map(([l, a, r]) => `${l}${a}${r}`).join(','));
    const command = fc.constantFrom(
      'addVar',
      'addParam',
      'addResult',
      'if',
      'else',
      'end',
      'startLoop',
      'endLoop',
      'try',
      'exception',
      'go_async',
      'RequestGet',
      'getSHA256',
      'greet',
    );
    const statement = fc.oneof(
      fc.tuple(command, args).map(([c, a]) => `${c}(${a})`),
      fc.tuple(word, blank, command, args).map(([t, b, c, a]) => `${t}${b}=${b}${c}(${a})`),
      fc.tuple(word, blank, arg).map(([t, b, a]) => `${t}${b}=${b}${a || '1'}`),
      fc.tuple(word, args).map(([n, a]) => `function ${n}(${a.replace(/[^a-z_,\s]/gi, '')}) {`),
      fc.constantFrom(
        '}',
        '{',
        '// a comment',
        '/* one */',
        '/*',
        '*/',
        'return(a)',
        'return',
        'RequestGet(',
        'for i in range(3):',
        'addVar(a, "x',
      ),
    );
    const line = fc
      .tuple(blank, statement, blank, fc.constantFrom('', '', ' // c'))
      .map(([l, s, r, c]) => `${l}${s}${r}${c}`);
    const program = fc
      .tuple(fc.array(line, { maxLength: 14 }), fc.constantFrom('\n', '\r\n'), fc.constantFrom('', '\n', '\n\n'))
      .map(([lines, eol, end]) => lines.join(eol) + end);
    fc.assert(
      fc.property(program, (text) => {
        assertMeaningKept('generated', text);
      }),
      { numRuns: 400 },
    );
  });

  it('formats a selection line by line, and the document as edits that give the formatted text', () => {
    const text = 'if(a,b,"=")\naddVar(x,1)\naddVar(y,2)\nend()\n\n\n';
    const doc = new AvapDocument(text);
    const selection = formatEdits(doc, { start: { line: 1, character: 0 }, end: { line: 1, character: 3 } });
    assert.deepEqual(selection, [
      {
        range: { start: { line: 1, character: 0 }, end: { line: 1, character: 11 } },
        newText: '  addVar(x, 1)',
      },
    ]);
    // Applied from the end, the whole document's edits give formatDocument's text.
    let result = text;
    for (const e of [...formatEdits(doc)].reverse()) {
      const start = doc.lines.offsetAt(e.range.start);
      const end = doc.lines.offsetAt(e.range.end);
      result = result.slice(0, start) + e.newText + result.slice(end);
    }
    assert.equal(result, formatDocument(text));
    assert.deepEqual(formatEdits(new AvapDocument(formatDocument(text))), []);
  });
});
