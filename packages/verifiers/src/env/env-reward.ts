import { InvalidArgumentError, type Trajectory } from '@skillrl/core';
import { type AsyncVerifier, checkThreshold, makeVerdict } from '../shared/index.js';

export interface EnvRewardOptions {
  name?: string;
  /**
   * Which reward: `final-step` (the last step's reward: ALFWorld and WebShop pay at the end), `sum` (all step
   * rewards), `trajectory` (`trajectory.reward` as recorded), or `auto` (default): the last step's reward when
   * the trajectory has steps, else `trajectory.reward`.
   */
  source?: 'auto' | 'final-step' | 'sum' | 'trajectory';
  /**
   * The reward range mapped linearly onto [0, 1], clamped: `score = clamp((r − min) / (max − min))`.
   * Default `[0, 1]` (rewards already in [0, 1] pass through; negative ones become 0).
   */
  range?: [number, number];
  /** A custom mapping instead of `range`; its result is clamped to [0, 1]. */
  map?: (reward: number, trajectory: Trajectory) => number;
  /** Default 1: the environment's full reward counts as success. */
  threshold?: number;
}

/** The environment's own reward as a verdict. A trajectory that ended with `error` scores 0. */
export function envReward(options: EnvRewardOptions = {}): AsyncVerifier {
  const name = options.name ?? 'envReward';
  const threshold = checkThreshold(name, options.threshold, 1);
  const [min, max] = options.range ?? [0, 1];
  if (!(Number.isFinite(min) && Number.isFinite(max) && max > min)) {
    throw new InvalidArgumentError(
      `${name} options.range`,
      `expected [min, max] with min < max, got [${min}, ${max}]`,
    );
  }
  const source = options.source ?? 'auto';
  return {
    name,
    async verify(_task, trajectory) {
      if (trajectory.error) {
        return makeVerdict(
          0,
          threshold,
          `episode failed (${trajectory.error.code}): ${trajectory.error.message}`,
        );
      }
      const last = trajectory.steps[trajectory.steps.length - 1];
      let reward: number;
      let from: string;
      if (source === 'sum') {
        reward = trajectory.steps.reduce((s, step) => s + step.reward, 0);
        from = `sum of ${trajectory.steps.length} step rewards`;
      } else if (source === 'trajectory' || (source === 'auto' && !last)) {
        reward = trajectory.reward;
        from = 'trajectory.reward';
      } else if (last) {
        reward = last.reward;
        from = `step ${last.index} reward`;
      } else {
        return makeVerdict(0, threshold, 'trajectory has no steps, so there is no final-step reward');
      }
      if (!Number.isFinite(reward))
        return makeVerdict(0, threshold, `${from} is ${reward}, not a finite number`);
      const score = options.map ? options.map(reward, trajectory) : (reward - min) / (max - min);
      return makeVerdict(score, threshold, `${from} = ${reward}`, { reward });
    },
  };
}
