import assert from 'node:assert/strict';
import { answerFeatures, createHeuristicValidator, heuristicAssessment } from '../../../src/quality';
import { CONTEXT, GOOD_ANSWER, HALLUCINATED_ANSWER, PYTHON_ANSWER, QUESTION, SHALLOW_ANSWER, input } from './fixtures';

function score(assessment: ReturnType<typeof heuristicAssessment>, name: string): number {
  const found = assessment.dimensions.find((d) => d.name === name);
  assert.ok(found, `dimension ${name}`);
  return found.score;
}

describe('quality: heuristic adapter', () => {
  it('passes a grounded, specific answer with AVAP code', () => {
    const a = heuristicAssessment(input(GOOD_ANSWER));
    assert.equal(a.validator, 'heuristic');
    assert.equal(a.passed, true, JSON.stringify(a));
    assert.equal(score(a, 'grounding'), 1);
    assert.equal(score(a, 'actionability'), 1);
    assert.equal(a.hint, undefined);
    assert.deepEqual(a.findings, []);
  });

  it('fails an answer that only restates the question', () => {
    const a = heuristicAssessment(input(SHALLOW_ANSWER));
    assert.equal(a.passed, false);
    assert.ok(a.findings.includes('the answer restates the question'), JSON.stringify(a.findings));
    assert.ok(a.composite < 0.2, String(a.composite));
    assert.ok(a.hint, 'a failing answer carries the weakest dimension hint');
  });

  it('fails code borrowed from another language', () => {
    const a = heuristicAssessment(input(PYTHON_ANSWER));
    assert.equal(a.passed, false);
    assert.ok(a.findings.some((f) => f.startsWith('foreign syntax in code:') && f.includes('import')), JSON.stringify(a.findings));
    assert.ok(a.findings.includes('no concrete AVAP command named'), JSON.stringify(a.findings));
  });

  it('penalises invented command names', () => {
    const good = heuristicAssessment(input(GOOD_ANSWER));
    const bad = heuristicAssessment(input(HALLUCINATED_ANSWER));
    assert.ok(bad.findings.includes('invented command names: getSHA256'), JSON.stringify(bad.findings));
    assert.ok(score(bad, 'grounding') < score(good, 'grounding') - 0.3);
  });

  it('grounding follows the retrieved context: commands it does not mention lower the score', () => {
    const unrelated = [{ title: 'getDateTime', text: 'getDateTime(format, timeDelta, zone, target) returns the current time.' }];
    const a = heuristicAssessment(input(GOOD_ANSWER, unrelated));
    assert.ok(score(a, 'grounding') < 0.6, JSON.stringify(a.dimensions));
  });

  it('respects a configured threshold', async () => {
    const strict = await createHeuristicValidator({ threshold: 0.99 }).assess(input(HALLUCINATED_ANSWER));
    assert.ok(strict.ok);
    if (strict.ok) {
      assert.equal(strict.assessment.threshold, 0.99);
      assert.equal(strict.assessment.passed, false);
    }
  });

  it('features: command names in prose count only when unambiguous', () => {
    const f = answerFeatures({ question: QUESTION, answer: 'If you want to replace text, try the `replace` command or getRegex.', context: CONTEXT });
    assert.deepEqual(f.commandsNamed.sort(), ['getRegex', 'replace']);
    assert.deepEqual(answerFeatures({ question: 'x', answer: 'if the try fails, end here', context: [] }).commandsNamed, []);
  });

  it('features: foreign markers only inside code', () => {
    const f = answerFeatures({ question: QUESTION, answer: 'Do not use a for loop or import anything.\n```avap\naddVar(a, 1)\n```', context: [] });
    assert.deepEqual(f.foreignMarkers, []);
    const g = answerFeatures({ question: QUESTION, answer: '```\nfor x in items:\n  console.log(x)\nif(a && b)\n```', context: [] });
    assert.deepEqual(g.foreignMarkers.sort(), ['&&', 'console.log', 'for'].sort());
  });
});
