/**
 * The reward of a training signal (the quality-validator design's
 * `computed_reward`), versioned: a training pipeline can tell which formula
 * produced a reward and recompute it when the formula changes. Pure.
 *
 * Reward version 1 — three components, each in [0, 1], absent when unknown:
 *
 *   automated      the quality judge's composite of the answer that was kept;
 *                  for code without a judge score, the parser's verdict on the
 *                  last attempt: valid 1, invalid 0 (unavailable: absent)
 *   human_feedback thumbs up 1, thumbs down 0 (the last thumbs given)
 *   outcome        accepted 1, edited before saving 0.5, discarded 0
 *
 *   computed_reward = Σ wᵢ·cᵢ / Σ wᵢ over the components present,
 *   w = automated 0.3, human_feedback 0.4, outcome 0.3; rounded to 4 decimals;
 *   null when no component is present.
 *
 * A person's judgement weighs most; the outcome (did the code survive?) and
 * the automated score share the rest. `reward_computed_at` is the time of the
 * newest fact the reward reflects, so the same store always gives the same
 * reward.
 */
import type { Outcome, Thumbs } from './schema';

export const REWARD_VERSION = 1;

/** @internal */
export const REWARD_WEIGHTS = { automated: 0.3, human_feedback: 0.4, outcome: 0.3 } as const;

export const THUMBS_SCORE: Record<Thumbs, number> = { up: 1, down: 0 };

const OUTCOME_SCORE: Record<Outcome, number> = { accepted: 1, edited: 0.5, discarded: 0 };

export interface RewardComponents {
  automated: number | null;
  human_feedback: number | null;
  outcome: number | null;
}

/** What the reward reads of a folded signal. */
export interface RewardInput {
  created_at: string;
  automated: { score: { composite: number } | null; parser: readonly string[] };
  feedback: { score: number; at: string } | null;
  outcome: { outcome: Outcome; at: string } | null;
}

export interface Reward {
  reward_version: number;
  reward_components: RewardComponents;
  computed_reward: number | null;
  reward_computed_at: string | null;
}

/** @internal */
export function rewardComponents(signal: RewardInput): RewardComponents {
  const lastVerdict = signal.automated.parser.at(-1);
  const automated = signal.automated.score
    ? signal.automated.score.composite
    : lastVerdict === 'valid'
      ? 1
      : lastVerdict === 'invalid'
        ? 0
        : null;
  return {
    automated,
    human_feedback: signal.feedback ? signal.feedback.score : null,
    outcome: signal.outcome ? OUTCOME_SCORE[signal.outcome.outcome] : null,
  };
}

/**
 * The weighted mean of the components present; null when none is.
 * @internal
 */
export function combineReward(components: RewardComponents): number | null {
  let sum = 0;
  let weights = 0;
  for (const key of Object.keys(REWARD_WEIGHTS) as (keyof RewardComponents)[]) {
    const value = components[key];
    if (value === null) continue;
    sum += REWARD_WEIGHTS[key] * value;
    weights += REWARD_WEIGHTS[key];
  }
  return weights === 0 ? null : Math.round((sum / weights) * 10_000) / 10_000;
}

export function computeReward(signal: RewardInput): Reward {
  const components = rewardComponents(signal);
  const reward = combineReward(components);
  const times = [
    components.automated !== null ? signal.created_at : undefined,
    signal.feedback?.at,
    signal.outcome?.at,
  ].filter((t): t is string => t !== undefined);
  return {
    reward_version: REWARD_VERSION,
    reward_components: components,
    computed_reward: reward,
    reward_computed_at: reward === null ? null : times.reduce((a, b) => (b > a ? b : a)),
  };
}
