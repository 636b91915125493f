import assert from 'node:assert/strict';
import {
  avapCodeBlocks,
  chunkDocument,
  chunkDocuments,
  loadDocs,
  markdownBlocks,
  parseDoc,
  type KnowledgeDoc,
} from '../../../src/knowledge';
import { repoKnowledgeDir, unwrap } from './helpers';

function doc(body: string, extra: Partial<KnowledgeDoc> = {}): KnowledgeDoc {
  return {
    id: 'sample',
    title: 'Sample',
    kind: 'chapter',
    category: 'test',
    commands: [],
    sourceDoc: 'docs/sample.md',
    body,
    ...extra,
  };
}

const BODY = [
  '# Sample',
  '',
  'Intro text about hashing with `encodeSHA256` and a list:',
  '',
  '- first item',
  '- second item',
  '',
  '## Loops',
  '',
  'Loop text that is long enough to stand on its own as a section of the document, so it is not merged.',
  '',
  '```avap',
  'startLoop(i, 1, 3)',
  '  variableToList(i, items)',
  'endLoop()',
  'addResult(items)',
  '```',
  '',
  '### Nested heading',
  '',
  '| a | b |',
  '|---|---|',
  '| `getListLen(x, n)` | counts |',
  '',
  'More words so that this subsection is also long enough to be kept as its own chunk in the output.',
  '',
  '```text',
  '# not a heading inside a fence',
  'for i in range(3):',
  '```',
].join('\n');

describe('knowledge: Markdown chunker', () => {
  it('cuts Markdown into blocks and never reads a heading inside a fence', () => {
    const kinds = markdownBlocks(BODY).map((b) => b.kind);
    assert.deepEqual(kinds, [
      'heading',
      'prose',
      'list',
      'heading',
      'prose',
      'avap-code',
      'heading',
      'table',
      'prose',
      'other-code',
    ]);
    assert.deepEqual(
      avapCodeBlocks(BODY).map((b) => b.line),
      [12],
    );
  });

  it('gives every chunk its metadata: ids, doc, title, heading path, commands, block kinds, constructs, source', () => {
    const chunks = chunkDocument(doc(BODY), { minChars: 0 });
    assert.deepEqual(
      chunks.map((c) => c.id),
      ['sample::overview', 'sample::loops', 'sample::loops-nested-heading'],
    );
    assert.deepEqual(
      chunks.map((c) => c.heading),
      ['Overview', 'Loops', 'Loops › Nested heading'],
    );
    const [overview, loops, nested] = chunks as [(typeof chunks)[0], (typeof chunks)[0], (typeof chunks)[0]];
    assert.equal(overview.title, 'Sample');
    assert.equal(overview.docId, 'sample');
    assert.equal(overview.sourceDoc, 'docs/sample.md');
    assert.equal(overview.docKind, 'chapter');
    assert.deepEqual(overview.commands, ['encodeSHA256']);
    assert.deepEqual(overview.blockKinds, ['prose', 'list']);
    assert.ok(overview.text.startsWith('# Sample'));
    assert.deepEqual(loops.commands, ['startLoop', 'variableToList', 'endLoop', 'addResult']);
    assert.deepEqual(loops.blockKinds, ['prose', 'avap-code']);
    assert.deepEqual(loops.constructs, ['loop']);
    assert.ok(loops.text.startsWith('## Loops'));
    assert.deepEqual(nested.commands, ['getListLen'], 'foreign code in a text fence names no commands');
    assert.deepEqual(nested.blockKinds, ['prose', 'table', 'other-code']);
    assert.deepEqual(
      chunks.map((c) => c.ordinal),
      [0, 1, 2],
    );
  });

  it('merges short sections into a neighbour', () => {
    const body =
      '# T\n\nA long enough introduction paragraph that carries the overview of the page well past the limit.\n\n## Related\n\n`addVar`\n';
    const merged = chunkDocument(doc(body), { minChars: 120 });
    assert.equal(merged.length, 1);
    assert.match(merged[0]?.text ?? '', /## Related/);
    assert.deepEqual(merged[0]?.commands, ['addVar']);
    assert.equal(chunkDocument(doc(body), { minChars: 0 }).length, 2);
  });

  it('splits long sections at block boundaries, never inside a code block', () => {
    const code = Array.from({ length: 30 }, (_, i) => `addVar(v${i}, ${i})`).join('\n');
    const paragraphs = Array.from({ length: 8 }, (_, i) => `Paragraph ${i} `.repeat(20)).join('\n\n');
    const body = `# Long\n\n## Part\n\n${paragraphs}\n\n\`\`\`avap\n${code}\n\`\`\`\n`;
    const chunks = chunkDocument(doc(body), { maxChars: 600, minChars: 0 });
    assert.ok(chunks.length > 2);
    for (const c of chunks) {
      const fences = (c.text.match(/```/g) ?? []).length;
      assert.equal(fences % 2, 0, `chunk ${c.id} cuts a fence`);
    }
    assert.equal(new Set(chunks.map((c) => c.id)).size, chunks.length, 'ids are unique');
    assert.equal(chunks[1]?.heading, 'Part (continued)');
  });

  it('puts the command of a command page on every chunk of the page', () => {
    const body =
      '# encodeMD5\n\n## Signature\n\nText long enough to be a section on its own, about digests and cache keys and more.\n\n## Related\n\nSee the hashing chapter for details on digests and keys and other related material.\n';
    const chunks = chunkDocument(doc(body, { id: 'command-encodeMD5', kind: 'command', commands: ['encodeMD5'] }), {
      minChars: 0,
    });
    for (const c of chunks) assert.equal(c.commands[0], 'encodeMD5');
  });

  it('is deterministic and gives unique ids across the shipped documents', () => {
    const docs = unwrap(loadDocs(repoKnowledgeDir()));
    const a = chunkDocuments(docs);
    const b = chunkDocuments(docs);
    assert.deepEqual(a, b);
    assert.equal(new Set(a.map((c) => c.id)).size, a.length);
    for (const c of a) {
      assert.ok(c.text.length <= 1900, `${c.id} is ${c.text.length} characters`);
      assert.ok(c.blockKinds.length > 0, `${c.id} has no content`);
    }
    const sha = a.filter((c) => c.docId === 'command-encodeSHA256');
    assert.ok(
      sha.length >= 1 &&
        sha.every((c) => c.commands.includes('encodeSHA256') && c.sourceDoc === 'docs/command-encodeSHA256.md'),
    );
  });

  it('parses front matter and reports bad documents as data', () => {
    const good = parseDoc(
      '---\nid: x-1\ntitle: X\nkind: chapter\ncommands: addVar, addResult\n---\n# X\n\nBody.\n',
      'docs/x.md',
    );
    assert.ok(good.ok);
    assert.deepEqual(good.value.commands, ['addVar', 'addResult']);
    // A key named after an Object.prototype member is a key like any, not one that "appears twice".
    const member = parseDoc(
      '---\nid: x-2\ntitle: X\nkind: chapter\nconstructor: y\ntoString: z\n---\nBody.\n',
      'docs/x.md',
    );
    assert.ok(member.ok, member.ok ? '' : member.error.message);
    const missing = parseDoc('# X\n', 'docs/x.md');
    assert.ok(!missing.ok);
    assert.equal(missing.error.code, 'malformed');
    const badKind = parseDoc('---\nid: x\ntitle: X\nkind: essay\n---\nBody\n', 'docs/x.md');
    assert.ok(!badKind.ok);
    assert.equal(badKind.error.code, 'invalid');
    assert.ok(badKind.error.details?.some((d) => d.includes('kind')));
  });
});
