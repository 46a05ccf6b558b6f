import type { AdvantageEstimator } from '@skillrl/core';
import { InvalidArgumentError, MissingFieldError } from '@skillrl/core';
import { outputArray } from '../batch/output-array.js';
import { requireField } from '../batch/read-batch.js';
import { isSuccess, type OutcomeRule } from '../group/group-bookkeeping.js';
import { buildGroupIndex, type GroupIndex } from '../group/group-index.js';
import { computeGroupMoments, type StdKind } from '../group/group-moments.js';
import { prepareGroups } from '../group/prepare-groups.js';
import { OptionReader } from '../options/read-options.js';
import { normalizationParams } from './group-normalize.js';

export interface SkillcOptions {
  /** Attribution strength λ, >= 0, default 1. */
  lambda?: number;
  /** λ_k per skill type (needs `families`); a family not listed uses `lambda`. */
  lambdaByFamily?: Record<string, number> | Map<string, number>;
  /** Weight of the within-condition stream A2, in [0, 1], default 0.4. */
  w?: number;
  /** Where A1 is normalised: over the task group, both conditions (`group`, default), or the whole `batch`. */
  scope?: 'group' | 'batch';
  /** Which rollouts the correction applies to: `success` (default) or `all`. */
  gate?: 'success' | 'all';
  /** A rollout is a success when score >= this; default: the batch's `successes`, else score > 0. */
  successThreshold?: number;
  /** Std of A1 and A2, default `unbiased` (verl's). */
  std?: StdKind;
  /** Added to the std, default 1e-6. */
  epsilon?: number;
}

/**
 * SKILLC's dual-stream advantage (arXiv 2605.27899) for paired rollouts with (z = 1) and without (z = 0)
 * the skill; a task is a `groupIds` group.
 *
 *     Δ̂(x) = mean R over z=1 − mean R over z=0          (0 if either side has no finite score)
 *     A1_i  = (R_i − μ) / (σ + ε)                        over the task group (or the batch: `scope`)
 *     A2_i  = (R_i − μ_{x,z_i}) / (σ_{x,z_i} + ε)        within the task and the rollout's own condition
 *     C(x)  = λ_k · max(Δ̂(x), 0)                        one-sided: only skill dependence corrects
 *     A_i   = (1 − w)·A1_i + w·A2_i + s_i·C(x)           s_i = −1 if z_i = 1, +1 if z_i = 0, on gated rollouts
 *
 * With every Δ̂ ≤ 0 and w = 0 this is GRPO (`singleton: 'zero'`, same std and ε). λ_k is the sample's
 * family's. Metrics: `gap_mean` and `gap_positive` over tasks with both conditions, `correction_mean`
 * (mean C over the rollouts it was applied to, λ_k included), `corrected` (how many rollouts it moved).
 */
export function createSkillc(options?: SkillcOptions): AdvantageEstimator {
  const reader = new OptionReader('skillc', options, [
    'lambda',
    'lambdaByFamily',
    'w',
    'scope',
    'gate',
    'successThreshold',
    'std',
    'epsilon',
  ]);
  const lambda = reader.number('lambda', 1, { min: 0 });
  const lambdaByFamily = reader.numberMap('lambdaByFamily', { min: 0 });
  const w = reader.number('w', 0.4, { min: 0, max: 1 });
  const scope = reader.choice('scope', ['group', 'batch'] as const, 'group');
  const gate = reader.choice('gate', ['success', 'all'] as const, 'success');
  const successThreshold = reader.optionalNumber('successThreshold');
  const std = reader.choice('std', ['unbiased', 'population'] as const, 'unbiased');
  const epsilon = reader.number('epsilon', 1e-6, { min: 0 });
  return {
    name: 'skillc',
    estimate(batch, options) {
      const { checked, index, moments, bookkeeping } = prepareGroups('skillc', batch, successThreshold);
      const conditions = requireField(
        checked,
        'conditions',
        'skillc',
        'give each rollout its condition: 1 with the skill in the prompt, 0 without',
      ) as ArrayLike<unknown>;
      const { groupCount, groupOf, size } = index;
      const scores = checked.scores;
      let familyLambda: Float64Array | undefined;
      if (lambdaByFamily) {
        if (!batch.families) {
          throw new MissingFieldError(
            'skillc',
            'families',
            'options.lambdaByFamily needs each rollout’s skill type',
          );
        }
        familyLambda = new Float64Array(size);
        for (let i = 0; i < size; i++)
          familyLambda[i] = lambdaByFamily.get(String(batch.families[i])) ?? lambda;
      }

      // Cells (task, condition) numbered task * 2 + z, so the two sides of a task sit side by side.
      const cellOf = new Int32Array(size);
      for (let i = 0; i < size; i++) {
        const z = conditions[i];
        if (z !== 0 && z !== 1) {
          throw new InvalidArgumentError(
            `batch.conditions[${i}]`,
            `skillc: expected 0 or 1, got ${String(z)}`,
          );
        }
        cellOf[i] = (groupOf[i] as number) * 2 + z;
      }
      const cellIndex: GroupIndex = {
        size,
        groupCount: groupCount * 2,
        groupOf: cellOf,
        firstSample: new Int32Array(0),
      };
      const cellMoments = computeGroupMoments(scores, cellIndex);

      // A1 and A2 as (x − centre) / denom per group and per cell: the same arithmetic as grpo's, so w = 0
      // with no correction gives grpo's values exactly.
      const convention = { scale: 'group', std, epsilon, singleton: 'zero' } as const;
      const scopeMoments =
        scope === 'group' ? moments : computeGroupMoments(scores, buildGroupIndex(new Int32Array(size)));
      const a1 = normalizationParams(scores, scopeMoments, convention);
      const a2 = normalizationParams(scores, cellMoments, convention);

      const positiveGap = new Float64Array(groupCount);
      let gapSum = 0;
      let gapTasks = 0;
      let gapPositive = 0;
      for (let g = 0; g < groupCount; g++) {
        const without = 2 * g;
        const withSkill = without + 1;
        if (cellMoments.count[without] === 0 || cellMoments.count[withSkill] === 0) continue;
        const gap = (cellMoments.mean[withSkill] as number) - (cellMoments.mean[without] as number);
        gapSum += gap;
        gapTasks++;
        if (gap > 0) {
          gapPositive++;
          positiveGap[g] = gap;
        }
      }

      const rule: OutcomeRule =
        successThreshold === undefined ? { successes: batch.successes } : { threshold: successThreshold };
      const advantages = outputArray('skillc', size, options);
      let correctionSum = 0;
      let corrected = 0;
      for (let i = 0; i < size; i++) {
        const x = scores[i] as number;
        if (x - x !== 0) continue;
        const g = scope === 'group' ? (groupOf[i] as number) : 0;
        const cell = cellOf[i] as number;
        const first = (x - (a1.centre[g] as number)) / (a1.denom[g] as number);
        const second = (x - (a2.centre[cell] as number)) / (a2.denom[cell] as number);
        let a = (1 - w) * first + w * second;
        const gap = positiveGap[cell >> 1] as number;
        if (gap > 0 && (gate === 'all' || isSuccess(rule, i, x))) {
          const c = (familyLambda ? (familyLambda[i] as number) : lambda) * gap;
          if (c !== 0) {
            a += (cell & 1) === 1 ? -c : c;
            correctionSum += c;
            corrected++;
          }
        }
        advantages[i] = a;
      }
      return {
        advantages,
        metrics: {
          ...bookkeeping,
          gap_mean: gapTasks === 0 ? 0 : gapSum / gapTasks,
          gap_positive: gapPositive,
          paired_tasks: gapTasks,
          correction_mean: corrected === 0 ? 0 : correctionSum / corrected,
          corrected,
        },
      };
    },
  };
}
