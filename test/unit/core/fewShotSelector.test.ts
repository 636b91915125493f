import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// internal-import: the selector's cache file and nearest-neighbour choice, tested without a model
import {
  createFewShotSelector,
  exampleEmbeddingText,
  fewShotCacheFile,
  nearest,
  readCache,
  type PoolExampleLike,
} from '../../../src/core/fewShot/selector';
import { memoryLogger } from '../../support/fakes/ports';
// internal-import: the generation prompt the selected examples are rendered into
import { generateCodeMessages } from '../../../src/core/routing/prompts';
import type { LlmResult } from '../../../src/core';

const POOL: PoolExampleLike[] = [
  {
    id: 'hash-password',
    description: 'Hash the password parameter with SHA-256.',
    code: 'encodeSHA256(p, h)\n',
    commands: ['encodeSHA256'],
  },
  {
    id: 'loop-numbers',
    description: 'Loop over the numbers one to five.',
    code: 'startLoop(i, 1, 5)\nendLoop()\n',
    commands: ['startLoop', 'endLoop'],
  },
  {
    id: 'json-field',
    description: 'Read a field of a JSON body.',
    code: 'variableFromJSON(b, "k", v)\n',
    commands: ['variableFromJSON'],
  },
  { id: 'hash-md5', description: 'Hash a token with MD5.', code: 'encodeMD5(t, h)\n', commands: ['encodeMD5'] },
];

/** A three-topic embedding: hashing, loops, JSON (by keywords), so the nearest example is known. */
function topicVector(text: string): number[] {
  const t = text.toLowerCase();
  const count = (words: string[]) => words.reduce((n, w) => n + (t.split(w).length - 1), 0);
  return [count(['hash', 'sha', 'md5']), count(['loop', 'repeat']), count(['json'])];
}

function embedder(fail?: () => LlmResult<number[][]> | undefined) {
  const calls: string[][] = [];
  const embed = (texts: string[]): Promise<LlmResult<number[][]>> => {
    calls.push(texts);
    return Promise.resolve(fail?.() ?? { ok: true, value: texts.map(topicVector) });
  };
  return { calls, embed };
}

/** The lexical fallback: the pool in order (enough to tell it from the embedding selection). */
const lexical = (_request: string, k: number) => POOL.slice(0, k);

describe('few-shot selection by embedding similarity (D2)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'avap-fewshot-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('chooses the top K by cosine similarity to the request, ties by id', async () => {
    const { embed } = embedder();
    const select = createFewShotSelector({ pool: POOL, lexical, embed, model: 'emb:1', fingerprint: 'kb1' });
    const chosen = await select('hash the secret with sha', 2);
    assert.equal(chosen.selection, 'embedding');
    assert.deepEqual(
      chosen.examples.map((e) => e.request),
      ['Hash a token with MD5.', 'Hash the password parameter with SHA-256.'],
    );
    assert.deepEqual(
      (await select('repeat a loop', 1)).examples.map((e) => e.code),
      ['startLoop(i, 1, 5)\nendLoop()\n'],
    );
    assert.deepEqual(
      nearest(
        [1, 0],
        ['b', 'a', 'c'],
        [
          [1, 0],
          [1, 0],
          [0, 1],
        ],
        2,
      ),
      ['a', 'b'],
      'equal similarity: by id',
    );
    assert.deepEqual(nearest([1, 0], ['a'], [[1, 0]], 0), []);
  });

  it('embeds each example as its description and commands', () => {
    assert.equal(
      exampleEmbeddingText(POOL[0] as PoolExampleLike),
      'Hash the password parameter with SHA-256.\nCommands: encodeSHA256',
    );
    assert.equal(exampleEmbeddingText({ id: 'x', description: 'Just prose.', code: '' }), 'Just prose.');
  });

  it('caches the pool vectors in a file keyed by corpus fingerprint and model, and reads them back', async () => {
    const first = embedder();
    const logger = memoryLogger();
    await createFewShotSelector({
      pool: POOL,
      lexical,
      embed: first.embed,
      model: 'emb:1',
      fingerprint: 'kb1',
      cacheDir: dir,
      batchSize: 3,
      logger,
    })('hash', 1);
    assert.deepEqual(
      first.calls.map((c) => c.length),
      [3, 1, 1],
      'the pool in batches of 3, then the request',
    );
    const file = fewShotCacheFile(dir, 'kb1', 'emb:1');
    assert.ok(existsSync(file), 'the cache file exists');
    assert.match(path.basename(file), /^pool-kb1-emb_1-[0-9a-f]{8}\.json$/);
    const cached = JSON.parse(readFileSync(file, 'utf8')) as {
      fingerprint: string;
      model: string;
      ids: string[];
      vectors: number[][];
    };
    assert.deepEqual([cached.fingerprint, cached.model, cached.ids], ['kb1', 'emb:1', POOL.map((e) => e.id)]);
    assert.deepEqual(
      cached.vectors,
      POOL.map((e) => topicVector(exampleEmbeddingText(e))),
    );
    const bytes = readFileSync(file, 'utf8');

    // A new selector (a new process) for the same corpus and model reads the file: only the request is embedded.
    const second = embedder();
    const chosen = await createFewShotSelector({
      pool: POOL,
      lexical,
      embed: second.embed,
      model: 'emb:1',
      fingerprint: 'kb1',
      cacheDir: dir,
      logger,
    })('json body', 1);
    assert.deepEqual(second.calls, [['json body']]);
    assert.deepEqual(
      chosen.examples.map((e) => e.request),
      ['Read a field of a JSON body.'],
    );
    assert.equal(readFileSync(file, 'utf8'), bytes, 'deterministic: the same inputs give the same file');
    assert.ok(
      logger.lines.some((l) => l.includes('read from')),
      logger.lines.join('\n'),
    );
  });

  it('invalidates the cache when the model or the corpus changes', async () => {
    await createFewShotSelector({
      pool: POOL,
      lexical,
      embed: embedder().embed,
      model: 'emb:1',
      fingerprint: 'kb1',
      cacheDir: dir,
    })('hash', 1);
    const otherModel = embedder();
    await createFewShotSelector({
      pool: POOL,
      lexical,
      embed: otherModel.embed,
      model: 'emb:2',
      fingerprint: 'kb1',
      cacheDir: dir,
    })('hash', 1);
    assert.equal(otherModel.calls.length, 2, 'another model: the pool is embedded again');
    assert.ok(
      existsSync(fewShotCacheFile(dir, 'kb1', 'emb:1')) && existsSync(fewShotCacheFile(dir, 'kb1', 'emb:2')),
      'both models keep their file',
    );

    const newCorpus = embedder();
    await createFewShotSelector({
      pool: POOL,
      lexical,
      embed: newCorpus.embed,
      model: 'emb:1',
      fingerprint: 'kb2',
      cacheDir: dir,
    })('hash', 1);
    assert.equal(newCorpus.calls.length, 2, 'another corpus: the pool is embedded again');
    assert.deepEqual(
      readdirSync(path.dirname(fewShotCacheFile(dir, 'kb2', 'emb:1'))),
      [path.basename(fewShotCacheFile(dir, 'kb2', 'emb:1'))],
      'files of the old corpus can never match again and are removed',
    );
  });

  it('recomputes a cache file that does not match what it claims', async () => {
    const file = fewShotCacheFile(dir, 'kb1', 'emb:1');
    await createFewShotSelector({
      pool: POOL,
      lexical,
      embed: embedder().embed,
      model: 'emb:1',
      fingerprint: 'kb1',
      cacheDir: dir,
    })('hash', 1);
    const stale = JSON.parse(readFileSync(file, 'utf8')) as { ids: string[] };
    writeFileSync(file, JSON.stringify({ ...stale, ids: [...stale.ids].reverse() }));
    const again = embedder();
    await createFewShotSelector({
      pool: POOL,
      lexical,
      embed: again.embed,
      model: 'emb:1',
      fingerprint: 'kb1',
      cacheDir: dir,
    })('hash', 1);
    assert.equal(again.calls.length, 2);
    assert.deepEqual(
      (JSON.parse(readFileSync(file, 'utf8')) as { ids: string[] }).ids,
      POOL.map((e) => e.id),
    );
    assert.equal(readCache('{not json', 'kb1', 'emb:1', ['a']), undefined);
    assert.equal(
      readCache(
        JSON.stringify({ cacheVersion: 1, fingerprint: 'kb1', model: 'emb:1', ids: ['a'], vectors: [['x']] }),
        'kb1',
        'emb:1',
        ['a'],
      ),
      undefined,
    );
    assert.deepEqual(
      readCache(
        JSON.stringify({ cacheVersion: 1, fingerprint: 'kb1', model: 'emb:1', ids: ['a'], vectors: [[0.5, 1]] }),
        'kb1',
        'emb:1',
        ['a'],
      ),
      [[0.5, 1]],
    );
  });

  it('falls back to the lexical selection, flagged with the reason, without an embedding model', async () => {
    const none = await createFewShotSelector({ pool: POOL, lexical, model: '', fingerprint: 'kb1' })('hash', 2);
    assert.deepEqual(none, {
      selection: 'lexical',
      detail: 'no embedding model is configured',
      examples: POOL.slice(0, 2).map((e) => ({ request: e.description, code: e.code })),
    });

    const missing = embedder(() => ({
      ok: false,
      error: { code: 'model-missing', message: 'model "emb:1" not found' },
    }));
    const select = createFewShotSelector({
      pool: POOL,
      lexical,
      embed: missing.embed,
      model: 'emb:1',
      fingerprint: 'kb1',
      cacheDir: dir,
    });
    for (let i = 0; i < 2; i += 1) {
      const chosen = await select('hash', 1);
      assert.equal(chosen.selection, 'lexical');
      assert.match(chosen.detail ?? '', /emb:1 failed on the example pool \(model-missing: model "emb:1" not found\)/);
    }
    assert.equal(missing.calls.length, 1, 'a missing model is not asked again');
    assert.ok(!existsSync(fewShotCacheFile(dir, 'kb1', 'emb:1')));
  });

  it('asks again after a transient failure, and falls back when only the request cannot be embedded', async () => {
    let failures = 1;
    const flaky = embedder(() =>
      failures-- > 0 ? { ok: false, error: { code: 'llm-unreachable', message: 'connection refused' } } : undefined,
    );
    const select = createFewShotSelector({
      pool: POOL,
      lexical,
      embed: flaky.embed,
      model: 'emb:1',
      fingerprint: 'kb1',
    });
    assert.equal((await select('hash', 1)).selection, 'lexical');
    assert.equal((await select('hash', 1)).selection, 'embedding');

    let n = 0;
    const requestFails = embedder(() =>
      ++n === 2 ? { ok: false, error: { code: 'llm-timeout', message: 'slow' } } : undefined,
    );
    const chosen = await createFewShotSelector({
      pool: POOL,
      lexical,
      embed: requestFails.embed,
      model: 'emb:1',
      fingerprint: 'kb1',
    })('hash', 1);
    assert.equal(chosen.selection, 'lexical');
    assert.match(chosen.detail ?? '', /could not embed the request \(llm-timeout: slow\)/);
  });

  it('carries the divergences an example declares into the prompt, as a note in our words after its code', async () => {
    const declared: PoolExampleLike = {
      id: 'greet-template',
      description: 'Greet the user with a template.',
      code: 'addVar(g, `Hi ${n}`)\n',
      commands: ['addVar'],
      divergences: ['template'],
    };
    const pool = [declared, ...POOL];
    const select = createFewShotSelector({ pool, lexical: (_r, k) => pool.slice(0, k), model: '', fingerprint: 'kb1' });
    const chosen = await select('greet', 2);
    assert.deepEqual(chosen.examples, [
      { request: declared.description, code: declared.code, divergences: ['template'] },
      { request: POOL[0]?.description, code: POOL[0]?.code },
    ]);
    const system = generateCodeMessages('greet', [], chosen.examples)[0]?.content ?? '';
    assert.ok(
      system.includes(
        'Request: Greet the user with a template.\n```avap\naddVar(g, `Hi ${n}`)\n```\nOn AVAP Lite (the reference implementation): backtick templates are not filled: the text keeps the backticks and ${…}.\n\nRequest: Hash the password',
      ),
      system,
    );
    assert.equal((system.match(/On AVAP Lite/g) ?? []).length, 1, 'only the example that declares a divergence');
  });
});
