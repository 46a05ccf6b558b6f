import type { AdvantageEstimator } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import { outputArray } from '../batch/output-array.js';
import { prepareGroups } from '../group/prepare-groups.js';
import { OptionReader } from '../options/read-options.js';
import { whitenInPlace } from './batch-whiten.js';

export interface ReinforcePpOptions {
  /** Discount over steps, in [0, 1]; default 1. */
  gamma?: number;
  /** Inside the square root of the whitening (verl's `masked_whiten`), default 1e-8. */
  epsilon?: number;
}

/**
 * REINFORCE++ (arXiv 2501.03262, verl `reinforce_plus_plus`): the discounted return from the first step,
 * G_i = Σ_t γ^t · stepRewards[i][t], whitened over the batch. Without `stepRewards` each sample is a one-step
 * episode and G_i is its score. verl keeps one return per token; an estimator here gives one value per
 * sample, the return from the start. A sample with a non-finite score or return gets 0 and is left out.
 */
export function createReinforcePp(options?: ReinforcePpOptions): AdvantageEstimator {
  const reader = new OptionReader('reinforce-pp', options, ['gamma', 'epsilon']);
  const gamma = reader.number('gamma', 1, { min: 0, max: 1 });
  const epsilon = reader.number('epsilon', 1e-8, { min: 0 });
  return {
    name: 'reinforce-pp',
    estimate(batch, options) {
      const { checked, bookkeeping } = prepareGroups('reinforce-pp', batch);
      const { scores, size } = checked;
      const steps = batch.stepRewards;
      const returns = outputArray('reinforce-pp', size, options, true);
      let nonfiniteReturns = 0;
      for (let i = 0; i < size; i++) {
        const x = scores[i] as number;
        if (x - x !== 0) {
          returns[i] = Number.NaN;
          continue;
        }
        if (!steps) {
          returns[i] = x;
          continue;
        }
        const row = steps[i];
        if (row === null || typeof row !== 'object' || typeof row.length !== 'number') {
          throw new InvalidArgumentError(
            `batch.stepRewards[${i}]`,
            'reinforce-pp: expected an array of per-step rewards',
          );
        }
        // Backwards, as a running return: G = r_t + γ·G.
        let g = 0;
        for (let t = row.length - 1; t >= 0; t--) g = (row[t] as number) + gamma * g;
        if (g - g !== 0) nonfiniteReturns++;
        returns[i] = g;
      }
      const { mean, std } = whitenInPlace(returns, epsilon);
      return {
        advantages: returns,
        metrics: { ...bookkeeping, nonfinite_returns: nonfiniteReturns, return_mean: mean, return_std: std },
      };
    },
  };
}
