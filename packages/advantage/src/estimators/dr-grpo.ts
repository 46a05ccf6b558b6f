import type { AdvantageEstimator } from '@skillrl/core';
import { OptionReader } from '../options/read-options.js';
import type { NormalizeConvention } from './group-normalize.js';
import { estimateGroupNormalized } from './grpo.js';

export interface DrGrpoOptions {
  /** One-sample groups: `raw` score (verl's mean 0, default) or `zero`. */
  singleton?: 'raw' | 'zero';
}

/** Dr.GRPO: GRPO without the std division, A_i = r_i − mean (verl's `norm_adv_by_std_in_grpo=False`). */
export function createDrGrpo(options?: DrGrpoOptions): AdvantageEstimator {
  const reader = new OptionReader('dr-grpo', options, ['singleton']);
  const convention: NormalizeConvention = {
    scale: 'none',
    std: 'unbiased',
    epsilon: 0,
    singleton: reader.choice('singleton', ['raw', 'zero'] as const, 'raw'),
  };
  return {
    name: 'dr-grpo',
    estimate: (batch, options) => estimateGroupNormalized('dr-grpo', batch, convention, options),
  };
}
