import type { AdvantageEstimator } from '@skillrl/core';
import { outputArray } from '../batch/output-array.js';
import { computeGroupMoments } from '../group/group-moments.js';
import { prepareGroups } from '../group/prepare-groups.js';
import { computeWeightedGroupMoments } from '../group/weighted-group-moments.js';
import { OptionReader } from '../options/read-options.js';
import { groupAnchorStates, stepGroupMetrics } from './gigpo-step-groups.js';
import { readStepRows } from './gigpo-step-rows.js';
import { type NormalizeConvention, normalizationParams } from './group-normalize.js';

/** verl-agent's `algorithm.gigpo.mode`, spelt as there so a verl-agent config carries over. */
export type GigpoMode = 'mean_norm' | 'mean_std_norm';

export interface GigpoOptions {
  /**
   * `mean_norm` (default, verl-agent's default): subtract the group mean at both levels. `mean_std_norm`:
   * also divide by the group's unbiased std + ε.
   */
  mode?: GigpoMode;
  /**
   * Discount γ of the step returns G_t = r_t + γ·G_{t+1}, in [0, 1]; default 0.95 (`algorithm.gamma` in
   * verl-agent's ALFWorld and WebShop GiGPO scripts; its config file's own default is 1).
   */
  gamma?: number;
  /** ω in A = A^E + ω·A^S (verl-agent's `step_advantage_w`), >= 0; default 1. */
  stepAdvantageWeight?: number;
  /** Added to the std under `mean_std_norm`, >= 0; default 1e-6 (verl-agent's). */
  epsilon?: number;
  /**
   * Where the episode level takes its group mean and std: `steps` (default; verl-agent's
   * `compute_mean_std_cross_steps=True`), over every step row of the group, each carrying its trajectory's
   * reward, so a trajectory weighs as many times as it has steps; `trajectories`, once per trajectory (the
   * paper's Eq. 3 as written, verl-agent's `False`). In either, a group of one row (one trajectory) gets
   * mean 0 and std 1.
   */
  episodeMoments?: 'steps' | 'trajectories';
}

/**
 * GiGPO (arXiv 2505.10978), as verl-agent's `gigpo/core_gigpo.py` computes it. Samples are trajectories,
 * `groupIds` their task group, `scores` the episode reward R; `stepRewards` and `stepKeys` give each step's
 * reward and anchor state.
 *
 *     A^E_i     = R_i − mean                 (÷ (std + ε) under mean_std_norm)   Eq. 3, over the task group
 *     G_{i,t}   = r_{i,t} + γ·G_{i,t+1}                                         Eq. 5
 *     A^S_{i,t} = G_{i,t} − mean            (÷ (std + ε))   over the step group: rows of the task group with
 *                                                            the same anchor key (Eq. 6–7); a lone row: 0
 *     stepAdvantages[i][t] = A^E_i + ω·A^S_{i,t}                                 Eq. 8
 *     advantages[i]        = A^E_i          what a learner without step support broadcasts over the steps
 *
 * A sample with a non-finite score (an errored rollout) is skipped everywhere: advantage 0, no
 * `stepAdvantages` entry, and its steps enter no mean or std. A trajectory with no steps has no rows either:
 * advantage 0 and an empty `stepAdvantages` entry (verl-agent's batch has no row for it).
 *
 * Differences from verl-agent: float64 instead of float32; a group whose values are all equal gets exactly 0
 * (verl-agent divides rounding noise by ε under mean_std_norm); no similarity grouping (our keys are hashes);
 * no invalid-action penalty inside the estimator (verl-agent subtracts it from both levels' rows; here it
 * belongs in the step rewards and the score).
 */
export function createGigpo(options?: GigpoOptions): AdvantageEstimator {
  const reader = new OptionReader('gigpo', options, [
    'mode',
    'gamma',
    'stepAdvantageWeight',
    'epsilon',
    'episodeMoments',
  ]);
  const mode = reader.choice('mode', ['mean_norm', 'mean_std_norm'] as const, 'mean_norm');
  const gamma = reader.number('gamma', 0.95, { min: 0, max: 1 });
  const omega = reader.number('stepAdvantageWeight', 1, { min: 0 });
  const epsilon = reader.number('epsilon', 1e-6, { min: 0 });
  const episodeMoments = reader.choice('episodeMoments', ['steps', 'trajectories'] as const, 'steps');
  const scale = mode === 'mean_std_norm' ? 'group' : 'none';
  // verl-agent's episode_norm_reward: a group of one row gets mean 0 and std 1, i.e. its raw reward.
  const episodeConvention: NormalizeConvention = { scale, std: 'unbiased', epsilon, singleton: 'raw' };
  // step_norm_reward: a lone row is centred on itself (mean = G, std 1), i.e. 0.
  const stepConvention: NormalizeConvention = { scale, std: 'unbiased', epsilon, singleton: 'zero' };

  return {
    name: 'gigpo',
    estimate(batch, estimateOptions) {
      const { checked, index, bookkeeping } = prepareGroups('gigpo', batch);
      const { scores, size } = checked;
      const rows = readStepRows(checked, index, gamma, 'gigpo');
      const { rowStart, stepCount } = rows;

      // Episode level: each trajectory weighs its step count (steps) or 1 if it has any row (trajectories).
      const weights =
        episodeMoments === 'steps' ? stepCount : Int32Array.from(stepCount, (c) => (c > 0 ? 1 : 0));
      const episode = normalizationParams(
        scores,
        computeWeightedGroupMoments(scores, weights, index),
        episodeConvention,
      );

      // Step level: returns centred within each anchor-state group of the task group.
      const stepIndex = groupAnchorStates(rows.keys, rows.taskOf, index.groupCount);
      const stepMoments = computeGroupMoments(rows.returns, stepIndex);
      const step = normalizationParams(rows.returns, stepMoments, stepConvention);

      const advantages = outputArray('gigpo', size, estimateOptions, true);
      const stepAdvantages: (Float64Array | undefined)[] = new Array(size);
      const groupOf = index.groupOf;
      const stepGroupOf = stepIndex.groupOf;
      let emptyTrajectories = 0;
      for (let i = 0; i < size; i++) {
        const x = scores[i] as number;
        if (x - x !== 0) {
          advantages[i] = 0;
          stepAdvantages[i] = undefined;
          continue;
        }
        const steps = stepCount[i] as number;
        if (steps === 0) {
          emptyTrajectories++;
          advantages[i] = 0;
          stepAdvantages[i] = new Float64Array(0);
          continue;
        }
        const g = groupOf[i] as number;
        const aE = (x - (episode.centre[g] as number)) / (episode.denom[g] as number);
        advantages[i] = aE;
        const perStep = new Float64Array(steps);
        const start = rowStart[i] as number;
        for (let t = 0; t < steps; t++) {
          const row = start + t;
          const s = stepGroupOf[row] as number;
          const aS = ((rows.returns[row] as number) - (step.centre[s] as number)) / (step.denom[s] as number);
          perStep[t] = aE + omega * aS;
        }
        stepAdvantages[i] = perStep;
      }
      return {
        advantages,
        stepAdvantages,
        metrics: { ...bookkeeping, ...stepGroupMetrics(stepMoments), empty_trajectories: emptyTrajectories },
      };
    },
  };
}
