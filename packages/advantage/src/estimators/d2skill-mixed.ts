import type { AdvantageEstimator } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import { outputArray } from '../batch/output-array.js';
import { numericField, requireField } from '../batch/read-batch.js';
import { isSuccess, type OutcomeRule } from '../group/group-bookkeeping.js';
import { computeGroupMoments, type StdKind } from '../group/group-moments.js';
import { prepareGroups } from '../group/prepare-groups.js';
import { OptionReader } from '../options/read-options.js';
import { groupNormalize, type NormalizeConvention } from './group-normalize.js';
import { type GrpoPreset, readConvention } from './grpo-presets.js';

export interface D2SkillMixedOptions {
  /** Weight c of the intrinsic reward, >= 0, default 1. */
  c?: number;
  /** Which rollouts get the intrinsic reward: `all` (default, as PAPERS.md reads D2Skill) or `skill` (z = 1). */
  intrinsicOn?: 'all' | 'skill';
  /** Take `std`, `epsilon` and `singleton` from a library's GRPO convention; options beside it override it. */
  preset?: GrpoPreset;
  /** Std of the GRPO step, default `unbiased`. */
  std?: StdKind;
  /** Added to the std, default 1e-6. */
  epsilon?: number;
  /** A one-sample group: `zero` (default) or its raw shaped reward / (1 + ε) (`raw`, verl's rule). */
  singleton?: 'raw' | 'zero';
}

const D2SKILL_DEFAULTS: NormalizeConvention = {
  scale: 'group',
  std: 'unbiased',
  epsilon: 1e-6,
  singleton: 'zero',
};

/**
 * D2Skill's mixed normalisation (arXiv 2603.28716), the baseline SKILLC replaces. In each group, the
 * no-skill rollouts' success rate s̄0 is measured; every rollout's reward becomes r_i + c·(s_i − s̄0), s_i its
 * outcome (1 pass, 0 fail); then GRPO normalises over the whole group, both conditions mixed. A group
 * without a finite no-skill rollout gets no intrinsic reward. The bookkeeping metrics use the raw outcome,
 * not the shaped reward; `intrinsic_mean` is the mean intrinsic reward over finite rollouts.
 */
export function createD2SkillMixed(options?: D2SkillMixedOptions): AdvantageEstimator {
  const reader = new OptionReader('d2skill-mixed', options, [
    'c',
    'intrinsicOn',
    'preset',
    'std',
    'epsilon',
    'singleton',
  ]);
  const c = reader.number('c', 1, { min: 0 });
  const intrinsicOn = reader.choice('intrinsicOn', ['all', 'skill'] as const, 'all');
  const convention = readConvention(reader, D2SKILL_DEFAULTS, ['std', 'epsilon', 'singleton']);
  return {
    name: 'd2skill-mixed',
    estimate(batch, options) {
      const { checked, index, bookkeeping } = prepareGroups('d2skill-mixed', batch);
      const conditions = numericField(
        requireField(
          checked,
          'conditions',
          'd2skill-mixed',
          'give each rollout 1 (with skills) or 0 (without)',
        ),
      );
      const { groupCount, groupOf, size } = index;
      const scores = checked.scores;
      const rule: OutcomeRule = { successes: batch.successes };
      const success = new Uint8Array(size);
      const noSkillPasses = new Float64Array(groupCount);
      const noSkillCount = new Float64Array(groupCount);
      for (let i = 0; i < size; i++) {
        const z = conditions[i];
        if (z !== 0 && z !== 1) {
          throw new InvalidArgumentError(
            `batch.conditions[${i}]`,
            `d2skill-mixed: expected 0 or 1, got ${z}`,
          );
        }
        const x = scores[i] as number;
        if (x - x !== 0) continue;
        const s = isSuccess(rule, i, x) ? 1 : 0;
        success[i] = s;
        if (z === 0) {
          const g = groupOf[i] as number;
          noSkillPasses[g]! += s;
          noSkillCount[g]!++;
        }
      }
      const shaped = new Float64Array(size);
      let intrinsicSum = 0;
      let finite = 0;
      for (let i = 0; i < size; i++) {
        const x = scores[i] as number;
        if (x - x !== 0) {
          shaped[i] = x;
          continue;
        }
        finite++;
        const g = groupOf[i] as number;
        const n0 = noSkillCount[g] as number;
        let bonus = 0;
        if (n0 > 0 && (intrinsicOn === 'all' || conditions[i] === 1)) {
          bonus = c * ((success[i] as number) - (noSkillPasses[g] as number) / n0);
        }
        intrinsicSum += bonus;
        shaped[i] = x + bonus;
      }
      const shapedMoments = computeGroupMoments(shaped, index);
      const advantages = outputArray('d2skill-mixed', size, options, true);
      groupNormalize(shaped, index, shapedMoments, convention, advantages);
      return {
        advantages,
        metrics: { ...bookkeeping, intrinsic_mean: finite === 0 ? 0 : intrinsicSum / finite },
      };
    },
  };
}
