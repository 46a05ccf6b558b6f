import type { AdvantageEstimator } from '@skillrl/core';
import { outputArray } from '../batch/output-array.js';
import { numericField, requireField } from '../batch/read-batch.js';
import { prepareGroups } from '../group/prepare-groups.js';
import { OptionReader } from '../options/read-options.js';

/**
 * ReMax (arXiv 2310.10505, verl `remax`): A_i = r_i − b_i, where b_i is the reward of a greedy rollout for
 * the same prompt (`baselines`). A non-finite baseline makes the sample's advantage 0, counted in
 * `nonfinite_baselines`.
 */
export function createRemax(options?: Record<string, never>): AdvantageEstimator {
  new OptionReader('remax', options, []);
  return {
    name: 'remax',
    estimate(batch, options) {
      const { checked, bookkeeping } = prepareGroups('remax', batch);
      const baselines = numericField(
        requireField(checked, 'baselines', 'remax', "give each sample its greedy rollout's reward"),
      );
      const { scores, size } = checked;
      const advantages = outputArray('remax', size, options);
      let nonfiniteBaselines = 0;
      for (let i = 0; i < size; i++) {
        const x = scores[i] as number;
        if (x - x !== 0) continue;
        const b = baselines[i] as number;
        if (b - b !== 0) {
          nonfiniteBaselines++;
          continue;
        }
        advantages[i] = x - b;
      }
      return { advantages, metrics: { ...bookkeeping, nonfinite_baselines: nonfiniteBaselines } };
    },
  };
}
