/**
 * The reference implementation's observed behaviour, as recorded facts
 * (docs/facts/reference/<slug>.avap + <slug>.json): every fact file has the
 * agreed shape, and our runtime answers each script as the reference did —
 * unless the fact shows a listed divergence, where our runtime gives the
 * specification's answer (SPEC_ANSWERS) and reports the portability note.
 * Every file in the folder is picked up, whoever added it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PORTABILITY_RULES, type RunResult } from '../../../src/runtime';
import { run } from './fakes';

const DIR = path.join(__dirname, '..', '..', '..', 'docs', 'facts', 'reference');

interface Fact {
  claim: string;
  mode: string;
  variables: Record<string, unknown>;
  query: string;
  http_status: number;
  response: {
    success: boolean;
    result?: Record<string, unknown>;
    variables?: Record<string, unknown>;
    logs?: { command: string; success: boolean; error?: string }[];
    error?: string;
  };
  observed: string;
  interpreter: string;
}

/**
 * What our runtime answers where the reference diverges from the specification (a fact may also show a run that
 * depends on a divergence and happens to end the same: kb-if-numeric-param-text).
 */
const SPEC_ANSWERS: Readonly<Record<string, { status: number; result: Record<string, unknown> }>> = {
  'addparam-numeric-text': { status: 200, result: { pc: 8001 } },
  'addparam-name-literal': { status: 200, result: { v: 'by-value' } },
  'if-second-operand-variable': { status: 200, result: { r: 'over' } },
  'if-second-operand-equality': { status: 200, result: { r: 'same' } },
  'if-expression-form': { status: 200, result: { r: 'adult' } },
  'if-in-comparator': { status: 200, result: { r: 'found' } },
  'if-empty-operand': { status: 200, result: { r: 'set' } },
  'try-handler-runs-without-error': { status: 200, result: { handled: null, e: null } },
  'try-continues-after-error': { status: 200, result: { after: null } },
  'try-inside-if-closes-the-if': { status: 200, result: { c: 'before' } },
  'return-inside-if': { status: 200, result: { r: 'inside' } },
  'function-parameter-in-command': { status: 200, result: { x: 7 } },
  'assignment-then-addvar': { status: 200, result: { a: 10, b: 11 } },
  'dollar-global': { status: 200, result: { r: 5 } },
  'template-not-filled': { status: 200, result: { key: 'user_7' } },
  'addvar-expression-argument': { status: 200, result: { b: 'a + 1' } },
  'addvar-signed-decimal-text': { status: 200, result: { h: '-1.5' } },
  'command-with-equals': { status: 200, result: { q: 'level=3' } },
  'addvar-dict-literal-argument': { status: 200, result: { o: '{"a": 1, "b": 2}' } },
  'trailing-comment': { status: 200, result: { x: 5 } },
  'block-comment-lines-run': { status: 200, result: { a: null } },
  'assign-str-call': { status: 200, result: { x: '5' } },
  'json-commands-missing': { status: 200, result: { x: { name: 'Ana' } } },
  // Added by the knowledge base (kb-…).
  'kb-addparam-keeps-numeric-text': { status: 200, result: { zipCode: 4017, quantity: 12 } },
  'kb-param-text-in-expressions': {
    status: 200,
    result: { doubled: 24, plusOne: 13, isLarge: true, converted: 24, largeAfterInt: true },
  },
  'kb-if-numeric-param-text': { status: 200, result: { group: 'adult' } },
  'kb-addparam-name-is-literal': { status: 200, result: { zipCode: null } },
  'kb-if-right-operand-not-resolved': { status: 200, result: { outcome: 'sold' } },
  'kb-if-expression-form-not-evaluated': { status: 200, result: { branch: 'then' } },
  'kb-if-in-comparator-not-implemented': { status: 200, result: { branch: 'then', listed: true } },
  'kb-try-handler-runs-without-error': { status: 200, result: { work: 'done', handlerRan: 'no', problem: null } },
  'kb-try-body-continues-after-failure': {
    status: 200,
    result: { afterFailure: 'no', handlerRan: 'yes', problem: "invalid literal for int() with base 10: 'many'" },
  },
  'kb-function-commands-miss-parameters': { status: 200, result: { direct: 7, viaCopy: 7, result: 7 } },
  'kb-dollar-prefix-not-resolved': { status: 200, result: { fromDollar: 300, fromPlain: 300 } },
  'kb-template-not-interpolated': {
    status: 200,
    result: { viaTemplate: 'Hello Ana', withComma: 'Hello Ana, welcome', viaConcat: 'Hello Ana' },
  },
  'kb-blank-argument-dropped': { status: 200, result: { state: 'not empty' } },
  'kb-call-inside-argument': {
    status: 200,
    result: { fromFunction: 'triple(5)', inner: null, outer: 'addVar(inner, 9)' },
  },
  'kb-equals-sign-in-argument': { status: 200, result: { filter: 'id = 5', condition: 'id = 5' } },
  'kb-trailing-comment-after-assignment': { status: 200, result: { total: 5, count: 5 } },
  'kb-builtin-call-alone-is-command': { status: 200, result: { itemCount: 3 } },
  'kb-format-tuple-alone-is-command': {
    status: 200,
    result: { statement: "UPDATE t SET seen = '2026-01-01' WHERE id = 5" },
  },
};

function query(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

function divergenceOf(slug: string): string | undefined {
  return PORTABILITY_RULES.find((r) => r.facts.includes(slug))?.id;
}

const slugs = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length))
  .sort();

function load(slug: string): { fact: Fact; script: string } {
  return {
    fact: JSON.parse(readFileSync(path.join(DIR, `${slug}.json`), 'utf8')) as Fact,
    script: readFileSync(path.join(DIR, `${slug}.avap`), 'utf8'),
  };
}

async function ours(slug: string): Promise<RunResult> {
  const { fact, script } = load(slug);
  return run(script, { request: { method: 'POST', query: query(fact.query), variables: fact.variables } });
}

describe('reference facts (docs/facts/reference)', () => {
  it('are there, each a script with its observation', () => {
    assert.ok(slugs.length >= 40, `${slugs.length} facts`);
    const scripts = readdirSync(DIR).filter((f) => f.endsWith('.avap'));
    assert.deepEqual(
      scripts.map((f) => f.slice(0, -'.avap'.length)).sort(),
      slugs,
      'every .avap has its .json and back',
    );
  });

  for (const slug of slugs) {
    it(`${slug}: has the fact shape`, () => {
      const { fact, script } = load(slug);
      assert.match(slug, /^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      assert.ok(script.trim().length > 0);
      assert.equal(typeof fact.claim, 'string');
      assert.ok(fact.claim.length > 10);
      assert.equal(fact.mode, 'sql');
      assert.ok(fact.variables !== null && typeof fact.variables === 'object' && !Array.isArray(fact.variables));
      assert.equal(typeof fact.query, 'string');
      assert.ok(Number.isInteger(fact.http_status) && fact.http_status >= 100 && fact.http_status <= 599);
      assert.equal(typeof fact.response.success, 'boolean');
      if (fact.response.success) {
        assert.ok(fact.response.result && typeof fact.response.result === 'object');
        assert.ok(fact.response.variables && typeof fact.response.variables === 'object');
        for (const entry of fact.response.logs ?? []) {
          assert.equal(typeof entry.command, 'string');
          assert.ok(!('duration_ms' in entry), 'logs are recorded without their durations');
        }
      } else {
        assert.equal(typeof fact.response.error, 'string');
      }
      assert.match(fact.observed, /^\d{4}-\d{2}-\d{2}$/);
      assert.match(fact.interpreter, /^AVAP_Lite_oss [0-9a-f]{7,} \(LITE_MODE=sql\)$/);
    });

    const divergence = divergenceOf(slug);
    if (divergence !== undefined) {
      it(`${slug}: a listed divergence (${divergence}) — the specification's answer, with its note`, async () => {
        const expected = SPEC_ANSWERS[slug];
        assert.ok(expected, `SPEC_ANSWERS has no answer for ${slug}`);
        const r = await ours(slug);
        assert.equal(r.error, undefined, r.error?.message);
        assert.equal(r.status, expected.status);
        assert.deepEqual(r.result, expected.result);
        assert.ok(
          r.portability.some((n) => n.rule === divergence),
          `expected the note ${divergence}, got ${JSON.stringify(r.portability.map((n) => n.rule))}`,
        );
      });
    } else {
      it(`${slug}: our runtime answers as the reference`, async () => {
        const { fact } = load(slug);
        const r = await ours(slug);
        assert.deepEqual(r.portability, [], 'no portability note where the two agree');
        if (!fact.response.success) {
          assert.ok(r.error, 'the run ends on an error, as the reference answers 400');
          assert.equal(r.status, 500);
          assert.equal(r.error.message, fact.response.error);
          return;
        }
        assert.equal(r.error, undefined, r.error?.message);
        assert.equal(r.status, fact.http_status);
        assert.deepEqual(r.result, fact.response.result);
        assert.deepEqual(r.variables, fact.response.variables);
        assert.deepEqual(
          r.logs.map((l) => {
            const e = l as { command: string; success: boolean };
            return [e.command, e.success];
          }),
          (fact.response.logs ?? []).map((l) => [l.command, l.success]),
        );
      });
    }
  }

  it('every divergence names facts that exist and an answer for each', () => {
    for (const rule of PORTABILITY_RULES) {
      for (const slug of rule.facts) {
        assert.ok(slugs.includes(slug), `${rule.id} names the missing fact ${slug}`);
        assert.ok(SPEC_ANSWERS[slug], `no specification answer for ${slug}`);
      }
    }
  });
});
