import type { AdvantageBatch, AdvantageEstimator, AdvantageResult, EstimateOptions } from '@skillrl/core';
import { outputArray } from '../batch/output-array.js';
import type { StdKind } from '../group/group-moments.js';
import { prepareGroups } from '../group/prepare-groups.js';
import { OptionReader } from '../options/read-options.js';
import { groupNormalize, type NormalizeConvention } from './group-normalize.js';

export type GrpoPreset = 'verl' | 'trl' | 'art';

/**
 * Each library's GRPO convention (PAPERS.md):
 * - verl (`compute_grpo_outcome_advantage`): torch.std (unbiased), ε = 1e-6, a one-sample group gets mean 0
 *   and std 1, i.e. its raw score (divided by 1 + ε);
 * - TRL (`GRPOTrainer`): unbiased std, ε = 1e-4; TRL refuses groups of one, so `zero` (the centred value) here;
 * - ART: numpy's population std, ε = 1e-6; a one-sample group has std 0 and centred value 0.
 */
export const GRPO_PRESETS: Readonly<Record<GrpoPreset, Readonly<NormalizeConvention>>> = {
  verl: { scale: 'group', std: 'unbiased', epsilon: 1e-6, singleton: 'raw' },
  trl: { scale: 'group', std: 'unbiased', epsilon: 1e-4, singleton: 'zero' },
  art: { scale: 'group', std: 'population', epsilon: 1e-6, singleton: 'zero' },
};

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

const PRESET_NAMES = ['verl', 'trl', 'art'] as const;

/** Reads the GRPO convention options (`scale`, `std`, `epsilon`, `singleton`) over a base convention. */
export function readConvention(reader: OptionReader, base: NormalizeConvention): NormalizeConvention {
  return {
    scale: reader.choice('scale', ['group', 'batch', 'none'] as const, base.scale),
    std: reader.choice('std', ['unbiased', 'population'] as const, base.std),
    epsilon: reader.number('epsilon', base.epsilon, { min: 0 }),
    singleton: reader.choice('singleton', ['raw', 'zero'] as const, base.singleton),
  };
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
  const preset = reader.choice('preset', PRESET_NAMES, 'verl');
  const convention = readConvention(reader, GRPO_PRESETS[preset]);
  return {
    name: 'grpo',
    estimate: (batch, options) => estimateGroupNormalized('grpo', batch, convention, options),
  };
}
