import assert from 'node:assert/strict';
import { catalogue } from '../../../src/parser';
import { avapCodeBlocks, detectCommands, loadDocs, type KnowledgeDoc } from '../../../src/knowledge';
import { assertCleanAvap, repoKnowledgeDir, unwrap } from './helpers';

const REQUIRED_CHAPTERS = [
  'chapter-program-structure',
  'chapter-variables-and-expressions',
  'chapter-conditionals',
  'chapter-loops',
  'chapter-error-handling',
  'chapter-functions',
  'chapter-http-requests',
  'chapter-database-access',
  'chapter-dates',
  'chapter-hashing',
  'chapter-json-and-lists',
  'chapter-spec-and-reference',
];

/** Rows of the "## Arguments" table: [name, kind]. */
function argumentRows(doc: KnowledgeDoc): [string, string][] {
  const section = /^## Arguments\n([\s\S]*?)(?=^## )/m.exec(doc.body)?.[1] ?? '';
  const rows: [string, string][] = [];
  for (const line of section.split('\n')) {
    const m = /^\|\s*\d+\s*\|\s*`([^`]+)`\s*\|\s*([a-z]+)/.exec(line);
    if (m) rows.push([m[1] as string, m[2] as string]);
  }
  return rows;
}

function section(doc: KnowledgeDoc, heading: RegExp): string {
  const lines = doc.body.split('\n');
  const start = lines.findIndex((l) => heading.test(l));
  if (start < 0) return '';
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

describe('knowledge: reference documents', () => {
  const docs = unwrap(loadDocs(repoKnowledgeDir()));
  const byId = new Map(docs.map((d) => [d.id, d]));

  it('every ```avap block in every document is VALID under the current parser, without warnings', () => {
    let blocks = 0;
    for (const doc of docs) {
      for (const block of avapCodeBlocks(doc.body)) {
        blocks++;
        assertCleanAvap(block.code, `${doc.sourceDoc} (block at body line ${block.line})`);
      }
    }
    assert.ok(blocks >= 100, `only ${blocks} AVAP blocks in the docs`);
  });

  it('has one command document per catalogue command, consistent with its entry', () => {
    for (const spec of catalogue.COMMANDS) {
      const doc = byId.get(`command-${spec.name}`);
      assert.ok(doc, `no document for ${spec.name}`);
      assert.equal(doc.kind, 'command');
      assert.equal(doc.title, spec.name);
      assert.equal(doc.category, spec.category, `${spec.name}: category`);
      assert.deepEqual(doc.commands, [spec.name]);
    }
    const commandDocs = docs.filter((d) => d.kind === 'command');
    assert.equal(commandDocs.length, catalogue.COMMANDS.length, 'a command document without a catalogue entry');
  });

  it("lists each command's arguments with the catalogue names and kinds, in order", () => {
    for (const spec of catalogue.COMMANDS) {
      const doc = byId.get(`command-${spec.name}`) as KnowledgeDoc;
      const expected = spec.params.map((p) => [p.name, p.kind]);
      assert.deepEqual(argumentRows(doc), expected, `${spec.name}: arguments table differs from the catalogue`);
      if (spec.params.length === 0) assert.match(doc.body, /takes no arguments/);
      assert.ok(doc.body.includes(catalogue.signatureOf(spec)), `${spec.name}: signature missing`);
      if (spec.altParams)
        assert.ok(doc.body.includes(catalogue.signatureOf(spec, spec.altParams)), `${spec.name}: second form missing`);
    }
  });

  it('gives each command document a purpose, behaviour, a runnable example that uses it, and common mistakes', () => {
    for (const spec of catalogue.COMMANDS) {
      const doc = byId.get(`command-${spec.name}`) as KnowledgeDoc;
      assert.ok(section(doc, /^## How it behaves/).trim().length > 0, `${spec.name}: behaviour`);
      const examples = avapCodeBlocks(section(doc, /^## Examples?$/));
      assert.ok(examples.length > 0, `${spec.name}: no example`);
      assert.ok(
        examples.some((b) => detectCommands(b.code).includes(spec.name)),
        `${spec.name}: the example does not use it`,
      );
      const mistakes = section(doc, /^## Common mistakes/)
        .split('\n')
        .filter((l) => /^\| `/.test(l));
      assert.ok(mistakes.length >= 1, `${spec.name}: no common mistakes`);
    }
  });

  it("names the real equivalent of every invented command name on the equivalent's page and in the foreign-syntax chapter", () => {
    const foreign = byId.get('chapter-foreign-syntax');
    assert.ok(foreign, 'chapter-foreign-syntax is missing');
    for (const h of catalogue.HALLUCINATIONS) {
      assert.ok(foreign.body.includes(`\`${h.name}\``), `foreign-syntax chapter does not mention ${h.name}`);
      const host = byId.get(`command-${h.equivalent ?? 'encodeSHA256'}`) as KnowledgeDoc;
      const table = section(host, /^## Invented names and the real command/);
      const row = table.split('\n').find((l) => l.startsWith(`| \`${h.name}\` |`));
      assert.ok(row, `${host.id} does not list the invented name ${h.name}`);
      if (h.equivalent)
        assert.ok(row.includes(`\`${h.equivalent}\``), `${host.id}: ${h.name} row does not name ${h.equivalent}`);
    }
  });

  it('has the topic chapters', () => {
    for (const id of REQUIRED_CHAPTERS) {
      const doc = byId.get(id);
      assert.ok(doc, `missing chapter ${id}`);
      assert.equal(doc.kind, 'chapter');
      assert.ok(avapCodeBlocks(doc.body).length >= 2, `${id} needs examples`);
    }
  });

  it('every command is mentioned in at least one chapter', () => {
    const chapters = docs.filter((d) => d.kind === 'chapter' && d.id !== 'chapter-command-index');
    for (const spec of catalogue.COMMANDS) {
      assert.ok(
        chapters.some((c) => c.body.includes(`${spec.name}(`)),
        `${spec.name} is not covered by a chapter`,
      );
    }
  });

  it('documents only commands that exist (front-matter command lists)', () => {
    const known = new Set(catalogue.COMMANDS.map((c) => c.name));
    for (const doc of docs)
      for (const c of doc.commands) assert.ok(known.has(c), `${doc.id} lists unknown command ${c}`);
  });
});
