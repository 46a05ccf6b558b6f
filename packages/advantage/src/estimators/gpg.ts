import type { AdvantageEstimator } from '@skillrl/core';
import { outputArray } from '../batch/output-array.js';
import { prepareGroups } from '../group/prepare-groups.js';
import { OptionReader } from '../options/read-options.js';

export interface GpgOptions {
  /** Divisor of the advantage (verl's `f_norm`), > 0, default 1. */
  fNorm?: number;
  /** One-sample groups: `raw` (verl: group mean taken as 0, default) or `zero`. */
  singleton?: 'raw' | 'zero';
}

/**
 * GPG (verl `gpg`): A_i = α · (r_i − mean_group) / f_norm with α = B / max(1, M), B the finite samples of
 * the batch and M those with a non-zero score; α compensates for groups that carry no gradient. α couples
 * the batch, so GPG is not group-local. Reported as `alpha`.
 */
export function createGpg(options?: GpgOptions): AdvantageEstimator {
  const reader = new OptionReader('gpg', options, ['fNorm', 'singleton']);
  const fNorm = reader.number('fNorm', 1, { above: 0 });
  const singleton = reader.choice('singleton', ['raw', 'zero'] as const, 'raw');
  return {
    name: 'gpg',
    estimate(batch, options) {
      const { checked, index, moments, bookkeeping } = prepareGroups('gpg', batch);
      const { groupCount, groupOf, size } = index;
      const scores = checked.scores;
      let finite = 0;
      let nonzero = 0;
      for (let i = 0; i < size; i++) {
        const x = scores[i] as number;
        if (x - x !== 0) continue;
        finite++;
        if (x !== 0) nonzero++;
      }
      const alpha = finite / Math.max(1, nonzero);
      const centre = new Float64Array(groupCount);
      for (let g = 0; g < groupCount; g++) {
        const raw = moments.count[g] === 1 && singleton === 'raw';
        centre[g] = raw ? 0 : (moments.mean[g] as number);
      }
      const scale = alpha / fNorm;
      const advantages = outputArray('gpg', size, options);
      for (let i = 0; i < size; i++) {
        const x = scores[i] as number;
        if (x - x === 0) advantages[i] = scale * (x - (centre[groupOf[i] as number] as number));
      }
      return { advantages, metrics: { ...bookkeeping, alpha } };
    },
  };
}
