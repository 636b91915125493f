import assert from 'node:assert/strict';
import { catalogue } from '../../../src/parser';
import { detectCommands, loadGoldenSet, QUERY_TYPES } from '../../../src/knowledge';
import { assertCleanAvap, repoKnowledgeDir, unwrap } from './helpers';

const TYPE_BY_LETTER: Record<string, readonly string[]> = {
  C: ['CODE_GENERATION'],
  R: ['RETRIEVAL'],
  V: ['CODE_GENERATION', 'RETRIEVAL'],
  K: ['CONVERSATIONAL'],
  P: ['PLATFORM'],
};

describe('knowledge: golden evaluation set', () => {
  const golden = unwrap(loadGoldenSet(repoKnowledgeDir()));
  const known = new Set(catalogue.COMMANDS.map((c) => c.name));

  it('has at least 50 questions with unique ids, covering all four query types', () => {
    assert.ok(golden.entries.length >= 50, `only ${golden.entries.length} entries`);
    assert.equal(new Set(golden.entries.map((e) => e.id)).size, golden.entries.length);
    for (const type of QUERY_TYPES) {
      const count = golden.entries.filter((e) => e.queryType === type).length;
      assert.ok(count >= 3, `${type}: only ${count} entries`);
    }
    assert.ok(golden.entries.filter((e) => e.queryType === 'CODE_GENERATION').length >= 20, 'too few code questions');
  });

  it('gives every entry a category, a question and a reference answer; ids match the query type', () => {
    for (const e of golden.entries) {
      assert.ok(e.category.length > 0 && e.question.length > 0 && e.referenceAnswer.length > 0, e.id);
      const letter = e.id.split('-')[1] as string;
      assert.ok(TYPE_BY_LETTER[letter]?.includes(e.queryType), `${e.id} has query type ${e.queryType}`);
    }
  });

  it('code questions expect known commands and carry reference code that is VALID and uses them', () => {
    for (const e of golden.entries.filter((x) => x.queryType === 'CODE_GENERATION')) {
      assert.ok(e.referenceCode, `${e.id}: no reference code`);
      assert.ok(e.expectedCommands.length > 0, `${e.id}: no expected commands`);
      assertCleanAvap(e.referenceCode, `${e.id} reference code`);
      const used = detectCommands(e.referenceCode);
      for (const c of e.expectedCommands) {
        assert.ok(known.has(c), `${e.id}: unknown expected command ${c}`);
        assert.ok(used.includes(c), `${e.id}: reference code does not use expected command ${c}`);
      }
    }
  });

  it('non-code questions name only known commands and carry no code', () => {
    for (const e of golden.entries.filter((x) => x.queryType !== 'CODE_GENERATION')) {
      for (const c of e.expectedCommands) assert.ok(known.has(c), `${e.id}: unknown command ${c}`);
      if (e.queryType === 'CONVERSATIONAL' || e.queryType === 'PLATFORM') {
        assert.equal(e.referenceCode, undefined, `${e.id} should not have reference code`);
        assert.deepEqual(e.expectedCommands, [], `${e.id} should not expect commands`);
      }
    }
  });

  it('keeps follow-up history well formed', () => {
    const withHistory = golden.entries.filter((e) => e.history);
    assert.ok(withHistory.length >= 1);
    for (const e of withHistory) {
      assert.equal(e.history?.[0]?.role, 'user', `${e.id}: history starts with the user`);
    }
  });
});
