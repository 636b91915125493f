import assert from 'node:assert/strict';
import {
  acrossRuns,
  applyOverride,
  confusionMatrix,
  leakageAudit,
  runMetrics,
  type EvalEntry,
  cosine,
  meanStd,
} from '../../../src/eval';
import { validateAvap } from '../../../src/parser';

function entry(partial: Partial<EvalEntry> & { code?: string }): EvalEntry {
  const code = partial.code ?? '';
  const checked = code ? validateAvap(code) : undefined;
  return applyOverride({
    id: 'Q1',
    category: 'hashing',
    queryType: 'CODE_GENERATION',
    run: 1,
    model: 'm:1',
    codeBearing: Boolean(code),
    valid: checked?.valid,
    trace: checked?.trace ?? [],
    code,
    attempts: 1,
    validationStatus: '',
    faithfulness_raw: 0.8,
    answer_relevancy_raw: 0.9,
    judge_failures: [],
    few_shot_injected: 0,
    ...partial,
  });
}

describe('eval: statistics', () => {
  it('computes mean and sample standard deviation', () => {
    assert.deepEqual(meanStd([1, 2, 3, 4]), { mean: 2.5, std: Math.sqrt(5 / 3), n: 4 });
    assert.deepEqual(meanStd([0.5]), { mean: 0.5, std: 0, n: 1 });
    assert.ok(Number.isNaN(meanStd([]).mean));
  });
  it('computes cosine similarity', () => {
    assert.equal(cosine([1, 0], [1, 0]), 1);
    assert.equal(cosine([1, 0], [0, 1]), 0);
    assert.equal(cosine([0, 0], [1, 1]), 0);
  });
});

describe('eval: the override rule', () => {
  it('sets both judged metrics to 0.0 for code that fails the parser and keeps the raw scores', () => {
    const bad = entry({ code: 'getSHA256(a, b)\n' });
    assert.equal(bad.valid, false);
    assert.equal(bad.faithfulness, 0);
    assert.equal(bad.answer_relevancy, 0);
    assert.equal(bad.faithfulness_raw, 0.8);
    assert.equal(bad.answer_relevancy_raw, 0.9);
  });
  it('keeps the scores of valid code and of answers without code', () => {
    const good = entry({ code: 'addVar(a, 1)\naddResult(a)\n' });
    assert.equal(good.faithfulness, 0.8);
    const prose = entry({ queryType: 'RETRIEVAL' });
    assert.equal(prose.codeBearing, false);
    assert.equal(prose.answer_relevancy, 0.9);
  });
});

describe('eval: metrics per run and across runs', () => {
  it('counts syntactic validity over code-bearing answers only, and excludes missing judge scores', () => {
    const entries = [
      entry({ id: 'A', code: 'addVar(a, 1)\n' }),
      entry({ id: 'B', code: 'let x = 1\n' }),
      entry({
        id: 'C',
        queryType: 'RETRIEVAL',
        faithfulness_raw: undefined,
        judge_failures: ['faithfulness: not JSON'],
      }),
      entry({ id: 'D', code: 'addResult(x)\n' }),
    ];
    const m = runMetrics(1, entries);
    assert.equal(m.codeBearing, 3);
    assert.equal(m.validCode, 2);
    assert.equal(m.syntactic_validity, 0.6667);
    // faithfulness: A 0.8, B 0 (override), C excluded, D 0.8
    assert.equal(m.faithfulness, 0.5333);
    assert.equal(m.judge_failures, 1);
    const across = acrossRuns([m, { ...m, syntactic_validity: 1 }], (r) => r.syntactic_validity);
    assert.equal(across.n, 2);
    assert.equal(across.mean, 0.8334); // mean of the rounded per-run figures 0.6667 and 1
  });
});

describe('eval: confusion matrix and leakage audit', () => {
  const entries = [
    entry({ id: 'Q1', code: 'getSHA256(a, b)\nlet x = 1\n' }),
    entry({ id: 'Q2', code: 'getSHA256(c, d)\n' }),
    entry({ id: 'Q3', code: 'addVar(a, 1)\nencodeSHA256(a, h)\naddResult(h)\n' }),
  ];
  it('counts parse failures by question and category, and the top offending tokens', () => {
    const m = confusionMatrix(entries);
    assert.equal(m.byCategory.unknown_token, 2);
    assert.equal(m.byCategory.foreign_keyword, 1);
    assert.equal(m.byQuestion.Q1?.foreign_keyword, 1);
    assert.equal(m.byQuestion.Q3, undefined);
    assert.deepEqual(m.topTokens[0], ['getSHA256', 2]);
    assert.deepEqual(m.byRule, [
      ['unknown-command', 2],
      ['foreign-keyword', 1],
    ]);
  });
  it('splits generated-code tokens into AVAP commands, foreign keywords and unknown names', () => {
    const [audit] = leakageAudit(entries);
    assert.equal(audit?.model, 'm:1');
    assert.equal(audit?.avap_commands, 3);
    assert.equal(audit?.unknown_identifiers, 2);
    assert.equal(audit?.foreign_keywords, 1);
    assert.equal(audit?.shares.avap_commands, 0.5);
  });
});
