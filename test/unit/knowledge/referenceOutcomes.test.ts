/**
 * A plain `Outcome:` line claims that the reference implementation (AVAP Lite)
 * answers the example exactly as the specification does. That claim is
 * recorded, not assumed: docs/facts/reference/outcomes/ holds each such
 * example with AVAP Lite's answer (test/fixtures/knowledge/recordOutcomes.ts),
 * and the answer must be the stated one. An example that changed since its
 * recording fails here until it is recorded again.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { OUTCOME_FACTS, plainOutcomes } from '../../fixtures/knowledge/recordOutcomes';

interface Recorded {
  query: string;
  http_status: number;
  response: { success: boolean; result?: Record<string, unknown>; error?: string };
  interpreter: string;
  observed: string;
}

const RECORD = 'record again: npx tsx test/fixtures/knowledge/recordOutcomes.ts http://127.0.0.1:18888';

describe('knowledge: plain outcomes are what the reference implementation answered', () => {
  const plain = plainOutcomes();

  it('finds the plain outcomes and a recording for each, and no recording of an example that is gone', () => {
    assert.ok(plain.length >= 25, `${plain.length} plain outcomes`);
    const files = readdirSync(OUTCOME_FACTS).sort();
    const expected = plain.flatMap(({ slug }) => [`${slug}.avap`, `${slug}.json`]).sort();
    assert.deepEqual(files, expected, RECORD);
  });

  for (const { slug, outcome } of plain) {
    it(`${outcome.where}: AVAP Lite answered status ${outcome.status} and the stated result`, () => {
      const script = path.join(OUTCOME_FACTS, `${slug}.avap`);
      const answer = path.join(OUTCOME_FACTS, `${slug}.json`);
      assert.ok(existsSync(script) && existsSync(answer), `${slug} is not recorded; ${RECORD}`);
      assert.equal(readFileSync(script, 'utf8'), outcome.code, `the example changed since it was recorded; ${RECORD}`);
      const fact = JSON.parse(readFileSync(answer, 'utf8')) as Recorded;
      assert.equal(fact.query, outcome.query, `the request changed since it was recorded; ${RECORD}`);
      assert.match(fact.interpreter, /^AVAP_Lite_oss [0-9a-f]{7} \(LITE_MODE=sql\)$/);
      assert.match(fact.observed, /^\d{4}-\d{2}-\d{2}$/);
      assert.equal(fact.response.success, true, `AVAP Lite failed: ${fact.response.error ?? ''}`);
      assert.equal(fact.http_status, outcome.status);
      assert.deepEqual(fact.response.result, outcome.result);
    });
  }
});
