import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  knowledgeCandidates,
  knowledgeDirectory,
  loadDocs,
  loadExamplePool,
  loadGoldenSet,
  loadKnowledgeBase,
} from '../../../src/knowledge';
import { repoKnowledgeDir, unwrap } from './helpers';

describe('knowledge: locating and loading the knowledge directory', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(path.join(tmpdir(), 'avap-knowledge-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('finds knowledge/ from the sources (src/knowledge) and from a bundle in dist/', () => {
    const repo = path.resolve(__dirname, '..', '..', '..');
    const fromSource = unwrap(knowledgeDirectory(undefined, path.join(repo, 'src', 'knowledge')));
    assert.equal(fromSource, path.join(repo, 'knowledge'));
    const fromDist = unwrap(knowledgeDirectory(undefined, path.join(repo, 'dist')));
    assert.equal(fromDist, path.join(repo, 'knowledge'));
    assert.ok(knowledgeCandidates('/x/dist').includes(path.join('/x', 'knowledge')));
    assert.equal(repoKnowledgeDir(), path.join(repo, 'knowledge'));
  });

  it('works from a copy next to a bundle (the packaged layout)', () => {
    cpSync(repoKnowledgeDir(), path.join(tmp, 'knowledge'), { recursive: true });
    mkdirSync(path.join(tmp, 'dist'));
    assert.equal(unwrap(knowledgeDirectory(undefined, path.join(tmp, 'dist'))), path.join(tmp, 'knowledge'));
    const kb = unwrap(loadKnowledgeBase({ directory: path.join(tmp, 'knowledge') }));
    assert.ok(kb.chunks.length > 0 && kb.pool.examples.length >= 190);
    assert.equal(kb.fingerprint, unwrap(loadKnowledgeBase()).fingerprint, 'same content, same fingerprint');
  });

  it('reports a missing directory as data, never by throwing', () => {
    const explicit = knowledgeDirectory(path.join(tmp, 'nope'));
    assert.ok(!explicit.ok);
    assert.equal(explicit.error.code, 'not-found');
    const searched = knowledgeDirectory(undefined, path.join(tmp, 'a', 'b'));
    assert.ok(!searched.ok);
    assert.match(searched.error.message, /knowledge directory not found/);
    const kb = loadKnowledgeBase({ directory: tmp });
    assert.ok(!kb.ok);
  });

  it('reports malformed and invalid files with their path and every problem', () => {
    mkdirSync(path.join(tmp, 'examples'));
    mkdirSync(path.join(tmp, 'golden'));
    mkdirSync(path.join(tmp, 'docs'));
    writeFileSync(path.join(tmp, 'examples', 'pool.json'), '{ not json');
    const malformed = loadExamplePool(tmp);
    assert.ok(!malformed.ok);
    assert.equal(malformed.error.code, 'malformed');
    assert.equal(malformed.error.path, path.join(tmp, 'examples', 'pool.json'));

    writeFileSync(
      path.join(tmp, 'examples', 'pool.json'),
      JSON.stringify({
        poolVersion: '1',
        validatedWith: 'x',
        examples: [
          {
            id: 'Bad Id',
            category: 'x',
            description: 'ok description',
            commands: [],
            constructs: [],
            code: 'addVar(a, 1)',
          },
          { id: 'x-dup', category: 'x', description: '', commands: [], constructs: ['bogus'], code: 'addVar(a, 1)' },
        ],
      }),
    );
    const invalid = loadExamplePool(tmp);
    assert.ok(!invalid.ok);
    assert.equal(invalid.error.code, 'invalid');
    const details = invalid.error.details ?? [];
    assert.ok(
      details.some((d) => d.startsWith('examples.0.id')),
      details.join('\n'),
    );
    assert.ok(
      details.some((d) => d.startsWith('examples.1.description')),
      details.join('\n'),
    );
    assert.ok(
      details.some((d) => d.startsWith('examples.1.constructs')),
      details.join('\n'),
    );

    const example = {
      id: 'x-dup',
      category: 'x',
      description: 'a description',
      commands: [],
      constructs: [],
      code: 'addVar(a, 1)',
    };
    writeFileSync(
      path.join(tmp, 'examples', 'pool.json'),
      JSON.stringify({ poolVersion: '1', validatedWith: 'x', examples: [example, example] }),
    );
    const dup = loadExamplePool(tmp);
    assert.ok(!dup.ok);
    assert.deepEqual(dup.error.details, ['duplicate id x-dup']);

    writeFileSync(
      path.join(tmp, 'golden', 'golden-set.json'),
      JSON.stringify({ goldenVersion: '1', entries: [{ id: 'Q1' }] }),
    );
    const golden = loadGoldenSet(tmp);
    assert.ok(!golden.ok);
    assert.equal(golden.error.code, 'invalid');

    assert.ok(!loadDocs(tmp).ok, 'an empty docs folder is an error');
    writeFileSync(path.join(tmp, 'docs', 'a.md'), '---\nid: same\ntitle: A\nkind: chapter\n---\nBody\n');
    writeFileSync(path.join(tmp, 'docs', 'b.md'), '---\nid: same\ntitle: B\nkind: chapter\n---\nBody\n');
    writeFileSync(path.join(tmp, 'docs', 'c.md'), 'no front matter\n');
    const docs = loadDocs(tmp);
    assert.ok(!docs.ok);
    assert.equal(docs.error.details?.length, 2, (docs.error.details ?? []).join('\n'));
  });

  it('loads the shipped files', () => {
    const dir = repoKnowledgeDir();
    assert.ok(unwrap(loadDocs(dir)).length >= 46);
    assert.ok(unwrap(loadExamplePool(dir)).examples.length >= 190);
    assert.ok(unwrap(loadGoldenSet(dir)).entries.length >= 50);
  });
});
