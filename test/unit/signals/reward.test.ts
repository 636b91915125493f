import assert from 'node:assert/strict';
import {
  combineReward,
  computeReward,
  REWARD_VERSION,
  REWARD_WEIGHTS,
  rewardComponents,
  type RewardInput,
} from '../../../src/signals';

const input = (patch: Partial<RewardInput>): RewardInput => ({
  created_at: '2026-01-01T00:00:00.000Z',
  automated: { score: null, parser: [] },
  feedback: null,
  outcome: null,
  ...patch,
});

describe('training signals: the reward (version 1)', () => {
  it('weights automated 0.3, human feedback 0.4, outcome 0.3', () => {
    assert.equal(REWARD_VERSION, 1);
    assert.deepEqual(REWARD_WEIGHTS, { automated: 0.3, human_feedback: 0.4, outcome: 0.3 });
    assert.equal(combineReward({ automated: 1, human_feedback: 0, outcome: 0.5 }), 0.45);
    assert.equal(combineReward({ automated: 0.86, human_feedback: 1, outcome: 1 }), 0.958);
  });

  it('averages over the components that are known, and is null when none is', () => {
    assert.equal(
      combineReward({ automated: 0.6, human_feedback: null, outcome: null }),
      0.6,
      'the automated score alone',
    );
    assert.equal(combineReward({ automated: null, human_feedback: 1, outcome: 0 }), 0.5714, '0.4 / 0.7');
    assert.equal(combineReward({ automated: null, human_feedback: null, outcome: null }), null);
  });

  it("reads the judge composite, else the parser's last verdict; thumbs and outcomes as scores", () => {
    assert.deepEqual(
      rewardComponents(input({ automated: { score: { composite: 0.57 }, parser: ['invalid'] } })),
      { automated: 0.57, human_feedback: null, outcome: null },
      'the judge wins',
    );
    assert.equal(rewardComponents(input({ automated: { score: null, parser: ['invalid', 'valid'] } })).automated, 1);
    assert.equal(rewardComponents(input({ automated: { score: null, parser: ['valid', 'invalid'] } })).automated, 0);
    assert.equal(
      rewardComponents(input({ automated: { score: null, parser: ['invalid', 'unavailable'] } })).automated,
      null,
      'no verdict, no score',
    );
    assert.equal(rewardComponents(input({ feedback: { score: 0, at: 't' } })).human_feedback, 0);
    assert.deepEqual(
      ['accepted', 'edited', 'discarded'].map(
        (o) => rewardComponents(input({ outcome: { outcome: o as 'accepted', at: 't' } })).outcome,
      ),
      [1, 0.5, 0],
    );
  });

  it('is computed as of the newest fact it reflects', () => {
    const r = computeReward(
      input({
        automated: { score: null, parser: ['valid'] },
        feedback: { score: 1, at: '2026-01-03T00:00:00.000Z' },
        outcome: { outcome: 'discarded', at: '2026-01-02T00:00:00.000Z' },
      }),
    );
    assert.deepEqual(r, {
      reward_version: 1,
      reward_components: { automated: 1, human_feedback: 1, outcome: 0 },
      computed_reward: 0.7,
      reward_computed_at: '2026-01-03T00:00:00.000Z',
    });
    assert.deepEqual(computeReward(input({})), {
      reward_version: 1,
      reward_components: { automated: null, human_feedback: null, outcome: null },
      computed_reward: null,
      reward_computed_at: null,
    });
    assert.equal(
      computeReward(input({ automated: { score: { composite: 0.4 }, parser: [] } })).reward_computed_at,
      '2026-01-01T00:00:00.000Z',
    );
  });
});
