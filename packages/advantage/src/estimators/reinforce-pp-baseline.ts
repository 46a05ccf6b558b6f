import type { AdvantageEstimator } from '@skillrl/core';
import { outputArray } from '../batch/output-array.js';
import { prepareGroups } from '../group/prepare-groups.js';
import { OptionReader } from '../options/read-options.js';
import { whitenInPlace } from './batch-whiten.js';

export interface ReinforcePpBaselineOptions {
  /** Inside the square root of the whitening (verl's `masked_whiten`), default 1e-8. */
  epsilon?: number;
  /** One-sample groups: `raw` (verl: group mean taken as 0, default) or `zero`. */
  singleton?: 'raw' | 'zero';
}

/**
 * REINFORCE++ with a group baseline (arXiv 2501.03262, verl `reinforce_plus_plus_baseline`): subtract the
 * group mean, then whiten over the whole batch. verl whitens over tokens (longer responses weigh more);
 * here every sample weighs one. Not group-local: the whitening couples every group.
 */
export function createReinforcePpBaseline(options?: ReinforcePpBaselineOptions): AdvantageEstimator {
  const reader = new OptionReader('reinforce-pp-baseline', options, ['epsilon', 'singleton']);
  const epsilon = reader.number('epsilon', 1e-8, { min: 0 });
  const singleton = reader.choice('singleton', ['raw', 'zero'] as const, 'raw');
  return {
    name: 'reinforce-pp-baseline',
    estimate(batch, options) {
      const { checked, index, moments, bookkeeping } = prepareGroups('reinforce-pp-baseline', batch);
      const { groupOf, size } = index;
      const scores = checked.scores;
      const advantages = outputArray('reinforce-pp-baseline', size, options, true);
      for (let i = 0; i < size; i++) {
        const x = scores[i] as number;
        if (x - x !== 0) {
          // Stays non-finite so the whitening leaves it out; written as 0 by whitenInPlace.
          advantages[i] = Number.NaN;
          continue;
        }
        const g = groupOf[i] as number;
        const c = moments.count[g] as number;
        advantages[i] = c === 1 ? (singleton === 'raw' ? x : 0) : x - (moments.mean[g] as number);
      }
      const { mean, std } = whitenInPlace(advantages, epsilon);
      return { advantages, metrics: { ...bookkeeping, whiten_mean: mean, whiten_std: std } };
    },
  };
}
