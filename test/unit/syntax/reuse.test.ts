/**
 * Incremental reuse (src/syntax/reuse.ts): a version read after another
 * reuses the statements of the lines they share, and the tree is the one a
 * fresh read gives, property for property — over random edits of the corpus
 * (lines inserted, deleted, replaced, characters typed and erased, block
 * comments opened and closed, line breaks changed).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parseSyntax, parseSyntaxFresh, parseSyntaxFrom, type SyntaxTree } from '../../../src/syntax';

const CORPUS = path.join(__dirname, '..', '..', 'corpus');
const programs = ['valid', 'invalid', 'failures'].flatMap((dir) =>
  readdirSync(path.join(CORPUS, dir))
    .filter((f) => f.endsWith('.avap'))
    .sort()
    .map((f) => readFileSync(path.join(CORPUS, dir, f), 'utf8')),
);

/** The tree as plain data: what a consumer can observe. */
const plain = (tree: SyntaxTree): unknown => JSON.parse(JSON.stringify(tree));

function assertSameAsFresh(text: string): SyntaxTree {
  const tree = parseSyntax(text);
  assert.deepStrictEqual(plain(tree), plain(parseSyntaxFresh(text)));
  // Beyond JSON: the same objects' shapes (a name's span is its token, an argument's the splitter's).
  assert.deepStrictEqual(tree, parseSyntaxFresh(text));
  return tree;
}

const snippets = [
  'addVar(x, 1)',
  '  if(x, 1, ==)',
  'end()',
  'startLoop(i, 1, 3)',
  'endLoop()',
  '/*',
  '*/',
  '/* a */ addVar(y, "z")',
  'function f(a) {',
  '}',
  '{',
  'return a',
  'x = a + 1',
  'r = RequestGet(url, , )',
  'addVar(s, "unterminated',
  '// note',
  '',
  '\t',
  'é = 1',
];

type Edit =
  | { kind: 'replace-line'; at: number; text: string }
  | { kind: 'insert-line'; at: number; text: string }
  | { kind: 'delete-lines'; at: number; count: number }
  | { kind: 'type'; at: number; text: string }
  | { kind: 'erase'; at: number; count: number }
  | { kind: 'line-break'; at: number; text: '\r\n' | '\r' | '\n' };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('replace-line' as const), at: fc.nat(), text: fc.constantFrom(...snippets) }),
  fc.record({ kind: fc.constant('insert-line' as const), at: fc.nat(), text: fc.constantFrom(...snippets) }),
  fc.record({ kind: fc.constant('delete-lines' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 3 }) }),
  fc.record({
    kind: fc.constant('type' as const),
    at: fc.nat(),
    text: fc.constantFrom('a', '(', ')', '"', ',', ' ', '/*', '*/', '=', '\n'),
  }),
  fc.record({ kind: fc.constant('erase' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('line-break' as const), at: fc.nat(), text: fc.constantFrom('\r\n', '\r', '\n') }),
);

function applyEdit(text: string, e: Edit): string {
  const lines = text.split('\n');
  const line = e.at % Math.max(1, lines.length);
  switch (e.kind) {
    case 'replace-line':
      lines[line] = e.text;
      return lines.join('\n');
    case 'insert-line':
      lines.splice(line, 0, e.text);
      return lines.join('\n');
    case 'delete-lines':
      lines.splice(line, e.count);
      return lines.join('\n');
    case 'type': {
      const at = e.at % (text.length + 1);
      return text.slice(0, at) + e.text + text.slice(at);
    }
    case 'erase': {
      const at = e.at % (text.length + 1);
      return text.slice(0, at) + text.slice(at + e.count);
    }
    case 'line-break': {
      const at = text.indexOf('\n', e.at % (text.length + 1));
      return at < 0 ? text : text.slice(0, at) + e.text + text.slice(at + 1);
    }
  }
}

describe('syntax tree: a new version reuses the lines it shares with the last ones', () => {
  it('gives the tree a fresh read gives, over random edits of every corpus program', () => {
    fc.assert(
      fc.property(fc.nat(), fc.array(edit, { minLength: 1, maxLength: 6 }), (which, edits) => {
        let text = programs[which % programs.length] as string;
        assertSameAsFresh(text);
        for (const e of edits) {
          text = applyEdit(text, e);
          assertSameAsFresh(text);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads a variant of a tree from it, out of the cache, as a fresh read would', () => {
    fc.assert(
      fc.property(fc.nat(), fc.array(edit, { minLength: 1, maxLength: 4 }), (which, edits) => {
        const text = programs[which % programs.length] as string;
        const basis = parseSyntax(text);
        const variant = edits.reduce(applyEdit, text);
        assert.deepStrictEqual(parseSyntaxFrom(basis, variant), parseSyntaxFresh(variant));
        assert.equal(parseSyntax(text), basis, 'the variant took no place in the cache');
      }),
      { numRuns: 100 },
    );
  });

  it('lets a version go from the cache once a later version of the same text is read', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `addVar(v${i}, ${i})`);
    const first = parseSyntax(lines.join('\n'));
    lines[10] = 'addVar(v10, 100)';
    const second = assertSameAsFresh(lines.join('\n'));
    assert.equal(second.statements[0], first.statements[0]);
    assert.notEqual(parseSyntax(first.source), first, 'the earlier version was read again');
  });

  it('shares the statements of the unchanged lines before an edit, and moves the ones after it', () => {
    const before = 'addVar(a, 1)\naddVar(b, 2)\naddVar(c, 3)\naddResult(c)';
    const old = parseSyntax(before);
    const after = assertSameAsFresh(before.replace('addVar(b, 2)', 'addVar(b, 22)'));
    assert.equal(after.statements[0], old.statements[0], 'the line before the edit is the same object');
    assert.notEqual(after.statements[1], old.statements[1], 'the edited line is read again');
    assert.equal(after.statements[2]?.span.start, (old.statements[2]?.span.start ?? 0) + 1, 'moved by the edit');
  });

  it('reads a line again when a block comment opened above it changes what it is', () => {
    const before = 'addVar(a, 1)\naddVar(b, 2)\naddVar(c, 3)\n';
    parseSyntax(before);
    const tree = assertSameAsFresh(`/*\n${before}`);
    assert.deepEqual(
      tree.statements.map((s) => s.kind),
      ['comment', 'comment', 'comment', 'comment', 'comment'],
    );
    const closed = assertSameAsFresh(`/*\naddVar(a, 1)\n*/\naddVar(b, 2)\naddVar(c, 3)\n`);
    assert.equal(closed.statements[3]?.kind, 'call');
  });
});
