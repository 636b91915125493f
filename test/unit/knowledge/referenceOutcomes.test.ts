/**
 * What the knowledge base says about AVAP Lite, the reference implementation,
 * is recorded, not assumed (test/fixtures/knowledge/recordOutcomes.ts runs the
 * examples there):
 *
 * - a plain `Outcome:` line claims AVAP Lite answers the example exactly as
 *   the specification does: docs/facts/reference/outcomes/ holds each such
 *   example with AVAP Lite's answer, which must be the stated one;
 * - a pool example should answer alike on both, or say where it does not
 *   (docs/facts/reference): every pool case AVAP Lite can run is recorded in
 *   docs/facts/reference/pool-cases/observations.json, and an example whose
 *   recorded answer differs from its case names the reference implementation
 *   in its description.
 *
 * An example that changed since its recording fails here until it is recorded again.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { caseFailures, caseFromData } from '../../../src/runtime/host';
import type { RunResult } from '../../../src/runtime';
import {
  OUTCOME_FACTS,
  plainOutcomes,
  POOL_OBSERVATIONS,
  referenceRunnablePoolCases,
  type PoolObservations,
} from '../../fixtures/knowledge/recordOutcomes';
import { CaseRunner } from './runCases';

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

  describe('pool cases AVAP Lite can run', function () {
    this.timeout(120_000);
    const runner = new CaseRunner();
    const recorded = JSON.parse(readFileSync(POOL_OBSERVATIONS, 'utf8')) as PoolObservations;
    let runnable: Awaited<ReturnType<typeof referenceRunnablePoolCases>> = [];
    before(async () => {
      runnable = await referenceRunnablePoolCases(runner);
    });

    it('are all recorded, as they are now, and nothing else is', () => {
      assert.match(recorded.interpreter, /^AVAP_Lite_oss [0-9a-f]{7} \(LITE_MODE=sql\)$/);
      assert.ok(runnable.length >= 80, `${runnable.length} runnable cases`);
      const key = (r: { example: string; script: string; query: string }, name: string) =>
        `${r.example} / ${name} / ${r.query} / ${r.script}`;
      assert.deepEqual(
        recorded.runs.map((r) => key(r, r.case)).sort(),
        runnable.map((c) => key({ ...c, script: c.code }, c.data.name)).sort(),
        RECORD,
      );
    });

    it('an example whose case AVAP Lite answers otherwise says so in its description', () => {
      const differing: string[] = [];
      for (const c of runnable) {
        const seen = recorded.runs.find((r) => r.example === c.example && r.case === c.data.name);
        assert.ok(seen, `${c.example} / ${c.data.name}: ${RECORD}`);
        const parsed = caseFromData(c.data, c.example);
        assert.ok(parsed.ok);
        const asRun = {
          status: seen.response.success ? seen.http_status : 500,
          result: seen.response.result ?? {},
          ...(seen.response.success
            ? {}
            : { error: { line: 0, command: '', message: seen.response.error ?? '', code: 'reference-error' } }),
        } as RunResult;
        if (caseFailures(parsed.value.expect, asRun).length === 0) continue;
        differing.push(c.example);
        assert.match(
          c.description,
          /reference implementation/,
          `${c.example} / ${c.data.name}: AVAP Lite answers ${seen.http_status} ${JSON.stringify(seen.response.result ?? seen.response.error)}, and the description does not say where it differs`,
        );
      }
      // Not vacuous: templates, the expression form of if and $ globals differ there, and their examples say so.
      assert.ok(differing.length >= 3, `only ${differing.length} differ: ${differing.join(', ')}`);
    });
  });
});
