import type { AdvantageEstimator } from '@skillrl/core';
import { OptionReader } from '../options/read-options.js';
import type { NormalizeConvention } from './group-normalize.js';
import { estimateGroupNormalized } from './grpo.js';
import { type GrpoPreset, readConvention } from './grpo-presets.js';

export interface DrGrpoOptions {
  /**
   * Take the one-sample rule from a library's GRPO convention (verl `raw`, TRL and ART `zero`); there is no
   * std to take. `singleton` given beside it overrides it.
   */
  preset?: GrpoPreset;
  /** One-sample groups: `raw` score (verl's mean 0, default) or `zero`. */
  singleton?: 'raw' | 'zero';
}

/** Dr.GRPO: GRPO without the std division, A_i = r_i − mean (verl's `norm_adv_by_std_in_grpo=False`). */
export function createDrGrpo(options?: DrGrpoOptions): AdvantageEstimator {
  const reader = new OptionReader('dr-grpo', options, ['preset', 'singleton']);
  const fallback: NormalizeConvention = { scale: 'none', std: 'unbiased', epsilon: 0, singleton: 'raw' };
  const convention = readConvention(reader, fallback, ['singleton']);
  return {
    name: 'dr-grpo',
    estimate: (batch, options) => estimateGroupNormalized('dr-grpo', batch, convention, options),
  };
}
