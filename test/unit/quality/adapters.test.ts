import assert from 'node:assert/strict';
import type { ParserOutcome } from '../../../src/core/contracts';
import { validateAvap } from '../../../src/parser';
import {
  answerFeatures, createLearnedValidator, createParserQualityValidator, defaultQualityConfig, FEATURE_NAMES, linearModel,
  loadLinearModel, NO_CODE_HINT, numericFeatures, qualityConfigFromEnv, qualityGate, QualityConfigError, weakestDimension,
  composite, type LinearModelSpec, type QualityValidator, type QualityVerdict,
} from '../../../src/quality';
import { GOOD_ANSWER, HALLUCINATED_ANSWER, SHALLOW_ANSWER, input } from './fixtures';

const inProcess = (source: string, filename: string): Promise<ParserOutcome> => Promise.resolve({ kind: 'validated', result: validateAvap(source, { filename }) });

describe('quality: parser adapter (code)', () => {
  it('valid code passes with a syntax score of 1', async () => {
    const v = await createParserQualityValidator(inProcess).assess(input(GOOD_ANSWER));
    assert.ok(v.ok && v.assessment.passed && v.assessment.composite === 1, JSON.stringify(v));
  });

  it('invalid code fails; findings are on the answer\'s lines and the hint carries them', async () => {
    const v = await createParserQualityValidator(inProcess).assess(input(HALLUCINATED_ANSWER));
    assert.ok(v.ok);
    if (!v.ok) return;
    assert.equal(v.assessment.passed, false);
    assert.equal(v.assessment.composite, 0);
    // getSHA256 is on line 4 of the answer (line 2 of the block).
    assert.ok(v.assessment.findings.some((f) => f.startsWith('Line 4:') && f.includes('getSHA256')), JSON.stringify(v.assessment.findings));
    assert.match(v.assessment.hint ?? '', /^Correct these parser findings: Line 4:/);
  });

  it('an answer without code fails with the no-code hint', async () => {
    const v = await createParserQualityValidator(inProcess).assess(input(SHALLOW_ANSWER));
    assert.ok(v.ok && !v.assessment.passed && v.assessment.hint === NO_CODE_HINT);
  });

  it('a share of valid blocks is the score', async () => {
    const answer = '```avap\naddVar(a, 1)\n```\n\n```avap\nimport os\n```';
    const v = await createParserQualityValidator(inProcess).assess(input(answer));
    assert.ok(v.ok && v.assessment.composite === 0.5 && !v.assessment.passed);
  });

  it('an unavailable parser is a failure, not a score', async () => {
    const down = (): Promise<ParserOutcome> => Promise.resolve({ kind: 'unavailable', reason: 'circuit-open', detail: 'open' });
    const v = await createParserQualityValidator(down).assess(input(GOOD_ANSWER));
    assert.deepEqual(v, { ok: false, failure: { validator: 'parser', code: 'parser-unavailable', message: 'the parser could not validate the code (circuit-open)', detail: 'open' } });
  });
});

describe('quality: learned adapter slot', () => {
  const spec: LinearModelSpec = {
    kind: 'linear-logistic',
    version: 'test-linear-1',
    dimensions: {
      grounding: { bias: -2, weights: { commands_in_context_share: 5, hallucinations: -6, foreign_markers: -6 } },
      specificity: { bias: -2, weights: { commands_named: 10, restates_question: -4 } },
      actionability: { bias: -2, weights: { commands_called_in_code: 10, has_steps: 2 } },
    },
  };

  it('the feature vector has stable names', () => {
    assert.deepEqual(Object.keys(numericFeatures(answerFeatures(input(GOOD_ANSWER)))), FEATURE_NAMES);
  });

  it('scores answers with a linear model and passes/fails like the other adapters', async () => {
    const validator = createLearnedValidator(linearModel(spec));
    const good = await validator.assess(input(GOOD_ANSWER));
    const shallow = await validator.assess(input(SHALLOW_ANSWER));
    assert.ok(good.ok && good.assessment.passed && good.assessment.model === 'test-linear-1', JSON.stringify(good));
    assert.ok(shallow.ok && !shallow.assessment.passed && shallow.assessment.hint, JSON.stringify(shallow));
  });

  it('loads a weights file and reports bad ones verbatim', () => {
    assert.ok(loadLinearModel(JSON.stringify(spec)).ok);
    const unknown = loadLinearModel(JSON.stringify({ ...spec, dimensions: { ...spec.dimensions, grounding: { bias: 0, weights: { vibes: 1 } } } }));
    assert.ok(!unknown.ok && unknown.error.includes("uses the unknown feature 'vibes'"), JSON.stringify(unknown));
    const missing = loadLinearModel(JSON.stringify({ kind: 'linear-logistic', version: 'x' }));
    assert.ok(!missing.ok && missing.error.includes("missing required parameter 'dimensions'"));
    assert.ok(!loadLinearModel('{').ok);
  });

  it('a model that throws or returns NaN is a failure', async () => {
    const throwing = createLearnedValidator({ version: 'x', predict: () => { throw new Error('weights missing'); } });
    const nan = createLearnedValidator({ version: 'x', predict: () => ({ grounding: NaN, specificity: 1, actionability: 1 }) });
    const a = await throwing.assess(input(GOOD_ANSWER));
    const b = await nan.assess(input(GOOD_ANSWER));
    assert.ok(!a.ok && a.failure.code === 'model-unavailable' && a.failure.message.includes('weights missing'));
    assert.ok(!b.ok && b.failure.code === 'model-unavailable');
  });
});

describe('quality: gate and rubric (in-memory validator)', () => {
  function scripted(verdicts: QualityVerdict[]): QualityValidator & { seen: string[] } {
    const seen: string[] = [];
    return { name: 'heuristic', seen, assess: (i) => { seen.push(i.answer); return Promise.resolve(verdicts.shift() as QualityVerdict); } };
  }
  const pass: QualityVerdict = { ok: true, assessment: { validator: 'heuristic', composite: 0.9, threshold: 0.6, passed: true, dimensions: [], findings: [] } };
  const fail: QualityVerdict = { ok: true, assessment: { validator: 'heuristic', composite: 0.3, threshold: 0.6, passed: false, dimensions: [], findings: [], hint: 'HINT' } };

  it('a passing answer is not regenerated', async () => {
    let calls = 0;
    const gate = await qualityGate(scripted([pass]), input('a'), () => { calls += 1; return Promise.resolve({ ok: true, value: 'b' }); });
    assert.equal(calls, 0);
    assert.equal(gate.answer, 'a');
    assert.equal(gate.passed, true);
  });

  it('a failing answer is regenerated once with its hint and the retry is assessed', async () => {
    const hints: string[] = [];
    const validator = scripted([fail, fail]);
    const gate = await qualityGate(validator, input('a'), (hint, previous) => { hints.push(`${hint}|${previous}`); return Promise.resolve({ ok: true, value: 'b' }); });
    assert.deepEqual(hints, ['HINT|a']);
    assert.deepEqual(validator.seen, ['a', 'b']);
    assert.equal(gate.answer, 'b');
    assert.equal(gate.passed, false);
  });

  it('when the retry cannot be generated the first answer comes back with its scores and the error', async () => {
    const gate = await qualityGate(scripted([fail]), input('a'), () => Promise.resolve({ ok: false, error: { code: 'llm-timeout', message: 'slow' } }));
    assert.equal(gate.answer, 'a');
    assert.equal(gate.retryError?.code, 'llm-timeout');
    assert.equal(gate.attempts.length, 1);
  });

  it('weakest dimension: lowest score, ties to the heavier weight', () => {
    assert.equal(weakestDimension({ grounding: 0.9, specificity: 0.2, actionability: 0.5 }).name, 'specificity');
    assert.equal(weakestDimension({ grounding: 0.4, specificity: 0.4, actionability: 0.4 }).name, 'grounding');
    assert.equal(weakestDimension({ grounding: 1, specificity: 0.5, actionability: 0.5 }).name, 'specificity');
    assert.equal(composite({ grounding: 1, specificity: 0, actionability: 0 }), 0.5);
  });
});

describe('quality: configuration', () => {
  it('the judge is off by default with threshold 0.6', () => {
    assert.deepEqual(defaultQualityConfig(), { judge: { enabled: false, threshold: 0.6 } });
    assert.deepEqual(qualityConfigFromEnv({}), defaultQualityConfig());
  });
  it('reads AVAP_JUDGE, AVAP_JUDGE_THRESHOLD and AVAP_JUDGE_MODEL', () => {
    assert.deepEqual(qualityConfigFromEnv({ AVAP_JUDGE: 'on', AVAP_JUDGE_THRESHOLD: '0.75', AVAP_JUDGE_MODEL: 'judge:7b' }), { judge: { enabled: true, threshold: 0.75, model: 'judge:7b' } });
  });
  it('refuses unreadable values with a clear message', () => {
    assert.throws(() => qualityConfigFromEnv({ AVAP_JUDGE: 'maybe' }), (e: unknown) => e instanceof QualityConfigError && /AVAP_JUDGE must be on or off, got 'maybe'/.test(e.message));
    assert.throws(() => qualityConfigFromEnv({ AVAP_JUDGE_THRESHOLD: '1.5' }), /between 0 and 1/);
  });
});
