import assert from 'node:assert/strict';
import {
  createExampleSelector,
  DEFAULT_FEW_SHOT_K,
  divergenceNote,
  loadExamplePool,
  loadKnowledgeBase,
  renderExamples,
  type PoolExample,
} from '../../../src/knowledge';
import { validateAvap } from '../../../src/parser';
import { repoKnowledgeDir, unwrap } from './helpers';

describe('knowledge: few-shot example selection', () => {
  const pool = unwrap(loadExamplePool(repoKnowledgeDir()));
  const selector = createExampleSelector(pool);

  it('returns K = 5 examples by default, best first', () => {
    assert.equal(DEFAULT_FEW_SHOT_K, 5);
    const picked = selector.selectExamples('hash the password parameter with sha256 and return it');
    assert.equal(picked.length, 5);
    for (let i = 1; i < picked.length; i++) assert.ok((picked[i - 1]?.score ?? 0) >= (picked[i]?.score ?? 0));
    assert.ok(
      picked.slice(0, 3).some((p) => p.example.commands.includes('encodeSHA256')),
      'no SHA-256 example near the top',
    );
  });

  it('honours K and never returns more than the pool or duplicates', () => {
    assert.equal(selector.selectExamples('loop over a list', 3).length, 3);
    assert.equal(selector.selectExamples('loop over a list', 8).length, 8);
    assert.deepEqual(selector.selectExamples('loop over a list', 0), []);
    const many = selector.selectExamples('addResult', 10_000);
    assert.ok(many.length <= pool.examples.length);
    assert.equal(new Set(many.map((m) => m.example.id)).size, many.length);
  });

  it('is deterministic, including the order of equal scores', () => {
    const requests = ['call an API and handle errors', 'today date', 'insert into the database', 'x'];
    for (const r of requests) {
      const a = selector.selectExamples(r, 7).map((s) => [s.example.id, s.score]);
      const b = createExampleSelector(pool)
        .selectExamples(r, 7)
        .map((s) => [s.example.id, s.score]);
      assert.deepEqual(a, b, r);
    }
    const tied: PoolExample[] = ['b-two', 'a-one', 'c-three'].map((id) => ({
      id,
      category: id[0] as string,
      description: 'same words here',
      commands: [],
      constructs: [],
      code: 'addVar(x, 1)\n',
    }));
    assert.deepEqual(
      createExampleSelector(tied)
        .selectExamples('same words', 3)
        .map((s) => s.example.id),
      ['a-one', 'b-two', 'c-three'],
    );
  });

  it('finds examples by command name and by description words', () => {
    const [top] = selector.selectExamples('ormCheckTable', 1);
    assert.ok(top?.example.commands.includes('ormCheckTable'));
    const [dates] = selector.selectExamples('return the current time in Madrid', 1);
    assert.ok(dates?.example.commands.includes('getDateTime'));
  });

  it('returns nothing (not random examples) when no example shares a term with the request', () => {
    assert.deepEqual(selector.selectExamples('zzzqqq', 5), []);
  });

  it('renders selected examples as prompt text that is itself valid AVAP', () => {
    const text = renderExamples(selector.selectExamples('build a JSON object and return it', 3));
    assert.match(text, /^\/\/ Example: /);
    assert.ok(validateAvap(text.split('\n\n// Example')[0] ?? '').valid);
  });

  it('renders the divergences an example declares as a comment line, and the text stays valid AVAP', () => {
    const declared = pool.examples.filter((e) => e.divergences?.length);
    assert.ok(declared.length > 0, 'no example declares a divergence');
    for (const example of declared) {
      const text = renderExamples([{ example, score: 1 }]);
      const note = divergenceNote(example.divergences);
      assert.match(note, /^On AVAP Lite \(the reference implementation\): .+\.$/);
      assert.ok(text.startsWith(`// Example: ${example.description}\n// ${note}\n`), text);
      assert.ok(validateAvap(text).valid, `${example.id}: the rendered example is not valid AVAP`);
    }
    const plain = pool.examples.find((e) => !e.divergences) as PoolExample;
    assert.doesNotMatch(renderExamples([{ example: plain, score: 1 }]), /AVAP Lite/);
  });

  it('is exposed by the loaded knowledge base with the same answers', () => {
    const kb = unwrap(loadKnowledgeBase());
    const a = kb.selectExamples('random token for a session').map((s) => s.example.id);
    const b = selector.selectExamples('random token for a session').map((s) => s.example.id);
    assert.deepEqual(a, b);
    assert.equal(kb.example(a[0] as string)?.id, a[0]);
  });
});
