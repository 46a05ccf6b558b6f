import type { AdvantageEstimator } from '@skillrl/core';
import { outputArray } from '../batch/output-array.js';
import type { StdKind } from '../group/group-moments.js';
import { stdFrom } from '../group/group-moments.js';
import { prepareGroups } from '../group/prepare-groups.js';
import { OptionReader } from '../options/read-options.js';
import { type GrpoPreset, readConvention } from './grpo-presets.js';

export interface GrpoPasskOptions {
  /** Divide by the group's std + ε (verl's `norm_adv_by_std_in_grpo`, default true). */
  normalize?: boolean;
  /** Take `std` and `epsilon` from a library's GRPO convention; options given beside it override it. */
  preset?: GrpoPreset;
  /** Default `unbiased` (torch.std, as verl). */
  std?: StdKind;
  /** Default 1e-6. */
  epsilon?: number;
}

const PASSK_DEFAULTS = { scale: 'group', std: 'unbiased', epsilon: 1e-6, singleton: 'zero' } as const;

/**
 * GRPO pass@k (arXiv 2503.19595, verl `grpo_passk`): only the group's best sample gets a non-zero advantage,
 * r_max − r_second_max (over std + ε when `normalize`). Ties go to the earliest sample. Groups with fewer
 * than two finite scores get 0 (verl raises on them).
 */
export function createGrpoPassk(options?: GrpoPasskOptions): AdvantageEstimator {
  const reader = new OptionReader('grpo-passk', options, ['normalize', 'preset', 'std', 'epsilon']);
  const normalize = reader.boolean('normalize', true);
  // A group of one gets 0 whatever the library does, so only std and ε come from a preset.
  const { std, epsilon } = readConvention(reader, PASSK_DEFAULTS, ['std', 'epsilon']);
  return {
    name: 'grpo-passk',
    estimate(batch, options) {
      const { checked, index, moments, bookkeeping } = prepareGroups('grpo-passk', batch);
      const { groupCount, groupOf, size } = index;
      const scores = checked.scores;
      const best = new Float64Array(groupCount).fill(Number.NEGATIVE_INFINITY);
      const second = new Float64Array(groupCount).fill(Number.NEGATIVE_INFINITY);
      const bestAt = new Int32Array(groupCount).fill(-1);
      for (let i = 0; i < size; i++) {
        const x = scores[i] as number;
        if (x - x !== 0) continue;
        const g = groupOf[i] as number;
        if (x > (best[g] as number)) {
          second[g] = best[g] as number;
          best[g] = x;
          bestAt[g] = i;
        } else if (x > (second[g] as number)) {
          second[g] = x;
        }
      }
      const advantages = outputArray('grpo-passk', size, options);
      for (let g = 0; g < groupCount; g++) {
        const c = moments.count[g] as number;
        if (c < 2) continue;
        let a = (best[g] as number) - (second[g] as number);
        if (normalize && a !== 0) a /= stdFrom(moments.m2[g] as number, c, std) + epsilon;
        advantages[bestAt[g] as number] = a;
      }
      return { advantages, metrics: { ...bookkeeping } };
    },
  };
}
