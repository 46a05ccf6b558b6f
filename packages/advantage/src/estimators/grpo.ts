import type { AdvantageBatch, AdvantageEstimator, AdvantageResult, EstimateOptions } from '@skillrl/core';
import { outputArray } from '../batch/output-array.js';
import type { StdKind } from '../group/group-moments.js';
import { prepareGroups } from '../group/prepare-groups.js';
import { OptionReader } from '../options/read-options.js';
import { groupNormalize, type NormalizeConvention } from './group-normalize.js';
import { GRPO_PRESETS, type GrpoPreset, readConvention } from './grpo-presets.js';

export { GRPO_PRESETS, type GrpoPreset } from './grpo-presets.js';

export interface GrpoOptions {
  /** Start from a library's conventions (default `verl`); options given beside it override it. */
  preset?: GrpoPreset;
  /** `group` (default), `batch` (std of all scores in the batch, group means kept), `none` (Dr.GRPO). */
  scale?: 'group' | 'batch' | 'none';
  /** Default from the preset (`unbiased` for verl). */
  std?: StdKind;
  /** Added to the std; default from the preset (1e-6 for verl). */
  epsilon?: number;
  /** One-sample groups: `raw` score (verl) or `zero`. */
  singleton?: 'raw' | 'zero';
}

/** Group-normalised scores under an explicit convention, with the shared bookkeeping metrics. */
export function estimateGroupNormalized(
  name: string,
  batch: AdvantageBatch,
  convention: NormalizeConvention,
  options?: EstimateOptions,
): AdvantageResult {
  const { checked, index, moments, bookkeeping } = prepareGroups(name, batch);
  const advantages = outputArray(name, checked.size, options, true);
  groupNormalize(checked.scores, index, moments, convention, advantages);
  return { advantages, metrics: { ...bookkeeping } };
}

/** GRPO: A_i = (r_i − mean) / (std + ε) per group, under the chosen library convention. */
export function createGrpo(options?: GrpoOptions): AdvantageEstimator {
  const reader = new OptionReader('grpo', options, ['preset', 'scale', 'std', 'epsilon', 'singleton']);
  // verl when no preset is given; an explicit preset replaces it.
  const convention = readConvention(reader, GRPO_PRESETS.verl);
  return {
    name: 'grpo',
    estimate: (batch, options) => estimateGroupNormalized('grpo', batch, convention, options),
  };
}
