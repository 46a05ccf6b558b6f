import type { OptionReader } from '../options/read-options.js';
import type { NormalizeConvention } from './group-normalize.js';

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

export const GRPO_PRESET_NAMES = ['verl', 'trl', 'art'] as const;

/** A convention an estimator may expose as an option of the same name. */
export type ConventionOption = keyof NormalizeConvention;

const ALL_CONVENTION_OPTIONS: readonly ConventionOption[] = ['scale', 'std', 'epsilon', 'singleton'];

/**
 * The one reader of the GRPO family's conventions, shared by every estimator that divides by a group std
 * or has a one-sample rule. For each convention in `options` (those the estimator exposes): the option
 * when given, else the `preset`'s value when a preset is given, else `fallback` (the estimator's own
 * defaults). Conventions the estimator does not expose keep `fallback`'s value, so a preset never switches
 * on, say, Dr.GRPO's std division. The estimator must list `preset` and `options` among its known options.
 */
export function readConvention(
  reader: OptionReader,
  fallback: NormalizeConvention,
  options: readonly ConventionOption[] = ALL_CONVENTION_OPTIONS,
): NormalizeConvention {
  const preset = reader.has('preset') ? reader.choice('preset', GRPO_PRESET_NAMES, 'verl') : undefined;
  const base = preset === undefined ? fallback : GRPO_PRESETS[preset];
  const exposed = (name: ConventionOption) => options.includes(name);
  return {
    scale: exposed('scale')
      ? reader.choice('scale', ['group', 'batch', 'none'] as const, base.scale)
      : fallback.scale,
    std: exposed('std') ? reader.choice('std', ['unbiased', 'population'] as const, base.std) : fallback.std,
    epsilon: exposed('epsilon') ? reader.number('epsilon', base.epsilon, { min: 0 }) : fallback.epsilon,
    singleton: exposed('singleton')
      ? reader.choice('singleton', ['raw', 'zero'] as const, base.singleton)
      : fallback.singleton,
  };
}
