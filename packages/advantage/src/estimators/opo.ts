import type { AdvantageEstimator } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import { outputArray } from '../batch/output-array.js';
import { numericField, requireField } from '../batch/read-batch.js';
import { prepareGroups } from '../group/prepare-groups.js';
import { OptionReader } from '../options/read-options.js';

export interface OpoOptions {
  /** One-sample groups: `raw` score (verl: baseline 0, default) or `zero`. */
  singleton?: 'raw' | 'zero';
}

/**
 * OPO (arXiv 2505.23585, verl `opo`): a length-weighted group baseline, b = Σ len_i·r_i / Σ len_i, and
 * A_i = r_i − b. The advantages sum to zero weighted by length. A group whose lengths are all 0 falls back
 * to the plain mean (verl would divide 0 by 0).
 */
export function createOpo(options?: OpoOptions): AdvantageEstimator {
  const reader = new OptionReader('opo', options, ['singleton']);
  const singleton = reader.choice('singleton', ['raw', 'zero'] as const, 'raw');
  return {
    name: 'opo',
    estimate(batch, options) {
      const { checked, index, moments, bookkeeping } = prepareGroups('opo', batch);
      const lengths = numericField(
        requireField(checked, 'lengths', 'opo', 'give the response length (tokens) of each sample'),
      );
      const { groupCount, groupOf, size } = index;
      const scores = checked.scores;
      const weighted = new Float64Array(groupCount);
      const totalLength = new Float64Array(groupCount);
      for (let i = 0; i < size; i++) {
        const len = lengths[i] as number;
        if (!(len >= 0) || len === Number.POSITIVE_INFINITY) {
          throw new InvalidArgumentError(
            `batch.lengths[${i}]`,
            `opo: expected a finite number >= 0, got ${len}`,
          );
        }
        const x = scores[i] as number;
        if (x - x !== 0) continue;
        const g = groupOf[i] as number;
        weighted[g]! += len * x;
        totalLength[g]! += len;
      }
      const baseline = new Float64Array(groupCount);
      for (let g = 0; g < groupCount; g++) {
        const c = moments.count[g] as number;
        if (c === 1) baseline[g] = singleton === 'raw' ? 0 : (moments.mean[g] as number);
        else if ((totalLength[g] as number) > 0)
          baseline[g] = (weighted[g] as number) / (totalLength[g] as number);
        else baseline[g] = moments.mean[g] as number;
      }
      const advantages = outputArray('opo', size, options);
      for (let i = 0; i < size; i++) {
        const x = scores[i] as number;
        if (x - x === 0) advantages[i] = x - (baseline[groupOf[i] as number] as number);
      }
      return { advantages, metrics: { ...bookkeeping } };
    },
  };
}
