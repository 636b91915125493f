import assert from 'node:assert/strict';
import {
  answerFeatures,
  defaultQualityConfig,
  FEATURE_NAMES,
  numericFeatures,
  qualityConfigFromEnv,
  qualityGate,
  QualityConfigError,
  weakestDimension,
  composite,
  type QualityValidator,
  type QualityVerdict,
} from '../../../src/quality';
import { GOOD_ANSWER, input } from './fixtures';

describe('quality: answer features', () => {
  it('the feature vector has stable names', () => {
    assert.deepEqual(Object.keys(numericFeatures(answerFeatures(input(GOOD_ANSWER)))), FEATURE_NAMES);
  });
});

describe('quality: gate and rubric (in-memory validator)', () => {
  function scripted(verdicts: QualityVerdict[]): QualityValidator & { seen: string[] } {
    const seen: string[] = [];
    return {
      name: 'llm-judge',
      seen,
      assess: (i) => {
        seen.push(i.answer);
        return Promise.resolve(verdicts.shift() as QualityVerdict);
      },
    };
  }
  const pass: QualityVerdict = {
    ok: true,
    value: { validator: 'llm-judge', composite: 0.9, threshold: 0.6, passed: true, dimensions: [], findings: [] },
  };
  const fail: QualityVerdict = {
    ok: true,
    value: {
      validator: 'llm-judge',
      composite: 0.3,
      threshold: 0.6,
      passed: false,
      dimensions: [],
      findings: [],
      hint: 'HINT',
    },
  };

  it('a passing answer is not regenerated', async () => {
    let calls = 0;
    const gate = await qualityGate(scripted([pass]), input('a'), () => {
      calls += 1;
      return Promise.resolve({ ok: true, value: 'b' });
    });
    assert.equal(calls, 0);
    assert.equal(gate.answer, 'a');
    assert.equal(gate.passed, true);
  });

  it('a failing answer is regenerated once with its hint and the retry is assessed', async () => {
    const hints: string[] = [];
    const validator = scripted([fail, fail]);
    const gate = await qualityGate(validator, input('a'), (hint, previous) => {
      hints.push(`${hint}|${previous}`);
      return Promise.resolve({ ok: true, value: 'b' });
    });
    assert.deepEqual(hints, ['HINT|a']);
    assert.deepEqual(validator.seen, ['a', 'b']);
    assert.equal(gate.answer, 'b');
    assert.equal(gate.passed, false);
  });

  it('when the retry cannot be generated the first answer comes back with its scores and the error', async () => {
    const gate = await qualityGate(scripted([fail]), input('a'), () =>
      Promise.resolve({ ok: false, error: { code: 'llm-timeout', message: 'slow' } }),
    );
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
    assert.deepEqual(
      qualityConfigFromEnv({ AVAP_JUDGE: 'on', AVAP_JUDGE_THRESHOLD: '0.75', AVAP_JUDGE_MODEL: 'judge:7b' }),
      { judge: { enabled: true, threshold: 0.75, model: 'judge:7b' } },
    );
  });
  it('refuses unreadable values with a clear message', () => {
    assert.throws(
      () => qualityConfigFromEnv({ AVAP_JUDGE: 'maybe' }),
      (e: unknown) => e instanceof QualityConfigError && /AVAP_JUDGE must be on or off, got 'maybe'/.test(e.message),
    );
    assert.throws(() => qualityConfigFromEnv({ AVAP_JUDGE_THRESHOLD: '1.5' }), /between 0 and 1/);
  });
});
