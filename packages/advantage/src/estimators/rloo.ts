import type { AdvantageEstimator } from '@skillrl/core';
import { outputArray } from '../batch/output-array.js';
import { prepareGroups } from '../group/prepare-groups.js';
import { OptionReader } from '../options/read-options.js';

export interface RlooOptions {
  /** One-sample groups (no "others" to compare with): `raw` score (verl, default) or `zero`. */
  singleton?: 'raw' | 'zero';
}

/**
 * RLOO: each sample against the mean of the *other* samples of its group,
 * A_i = r_i − (Σ_j r_j − r_i)/(n − 1) = n/(n − 1) · (r_i − mean). Sums to zero within a group.
 */
export function createRloo(options?: RlooOptions): AdvantageEstimator {
  const reader = new OptionReader('rloo', options, ['singleton']);
  const singleton = reader.choice('singleton', ['raw', 'zero'] as const, 'raw');
  return {
    name: 'rloo',
    estimate(batch, options) {
      const { checked, index, moments, bookkeeping } = prepareGroups('rloo', batch);
      const { groupCount, size } = index;
      const centre = new Float64Array(groupCount);
      const factor = new Float64Array(groupCount);
      for (let g = 0; g < groupCount; g++) {
        const c = moments.count[g] as number;
        if (c > 1) {
          centre[g] = moments.mean[g] as number;
          factor[g] = c / (c - 1);
        } else {
          centre[g] = 0;
          factor[g] = singleton === 'raw' ? 1 : 0;
        }
      }
      const scores = checked.scores;
      const advantages = outputArray('rloo', size, options, true);
      const runStart = index.runStart;
      if (runStart) {
        for (let g = 0; g < groupCount; g++) {
          const c = centre[g] as number;
          const f = factor[g] as number;
          const end = runStart[g + 1] as number;
          for (let i = runStart[g] as number; i < end; i++) {
            const x = scores[i] as number;
            advantages[i] = x - x === 0 ? f * (x - c) : 0;
          }
        }
        return { advantages, metrics: { ...bookkeeping } };
      }
      const groupOf = index.groupOf;
      for (let i = 0; i < size; i++) {
        const x = scores[i] as number;
        if (x - x !== 0) {
          advantages[i] = 0;
          continue;
        }
        const g = groupOf[i] as number;
        advantages[i] = (factor[g] as number) * (x - (centre[g] as number));
      }
      return { advantages, metrics: { ...bookkeeping } };
    },
  };
}
