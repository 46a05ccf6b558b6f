import type { AdvantageEstimator, EstimatorBatchOverrides } from '@skillrl/core';
import { InvalidArgumentError, MissingFieldError } from '@skillrl/core';
import { outputArray } from '../batch/output-array.js';
import { type CheckedBatch, requireField } from '../batch/read-batch.js';
import { readSampleWeights } from '../batch/sample-weights.js';
import { isSuccess, type OutcomeRule } from '../group/group-bookkeeping.js';
import { buildGroupIndex, type GroupIndex } from '../group/group-index.js';
import { computeGroupMoments, type StdKind } from '../group/group-moments.js';
import { prepareGroups } from '../group/prepare-groups.js';
import { OptionReader } from '../options/read-options.js';
import { type NormalizeConvention, normalizationParams } from './group-normalize.js';
import { type GrpoPreset, readConvention } from './grpo-presets.js';

/** How C enters the advantage: `multiplicative` (the default) or `additive` (the earlier form, an ablation). */
export type SkillcCorrection = 'multiplicative' | 'additive';

export interface SkillcOptions {
  /**
   * `multiplicative` (default): the form documented on `createSkillc`. `additive`: the earlier
   * reconstruction A = (1 − w)·A1 + w·A2 ∓ C with C in reward units, kept only for ablations: it pushes
   * with-skill successes below zero (see the README).
   */
  correction?: SkillcCorrection;
  /**
   * Attribution strength λ, >= 0, default 1. For standalone use: the batch's `attributionStrengths`, when
   * present, replace it (`SKILLC_BATCH_OVERRIDES`), and the internalize run always fills them.
   */
  lambda?: number;
  /**
   * λ_k per skill type (needs `families`); a family not listed uses `lambda`. For standalone use, as
   * `lambda`: the batch's `attributionStrengths`, when present, replace it.
   */
  lambdaByFamily?: Record<string, number> | Map<string, number>;
  /** Weight of the within-condition stream A2, in [0, 1], default 0.4. */
  w?: number;
  /**
   * Stream 1's scope, where A1's mean and std are taken: the task group, both conditions (`group`, the
   * default), or every rollout in the batch (`batch`, the paper's wording). A2 is always per task. Why
   * `group` is the default: see `createSkillc`.
   */
  scope?: 'group' | 'batch';
  /** Which rollouts the correction applies to: `success` (default) or `all`. */
  gate?: 'success' | 'all';
  /** A rollout is a success when score >= this; default: the batch's `successes`, else score > 0. */
  successThreshold?: number;
  /** Take `std`, `epsilon` and `singleton` from a library's GRPO convention; options beside it override it. */
  preset?: GrpoPreset;
  /** Std of A1 and A2, default `unbiased` (verl's). */
  std?: StdKind;
  /** Added to the std, default 1e-6. */
  epsilon?: number;
  /** A1 of a one-sample task (or batch, with scope `batch`): `zero` (default) or verl's `raw`. */
  singleton?: 'raw' | 'zero';
}

const SKILLC_DEFAULTS: NormalizeConvention = {
  scale: 'group',
  std: 'unbiased',
  epsilon: 1e-6,
  singleton: 'zero',
};

/**
 * SKILLC's dual-stream advantage (arXiv 2605.27899) for paired rollouts with (z = 1) and without (z = 0)
 * the skill. A task x is a `groupIds` group; a rollout's outcome is decided by `successThreshold`, else the
 * batch's `successes`, else score > 0; its λ_i is `batch.attributionStrengths[i]`, else `lambdaByFamily`
 * of its family, else `lambda`.
 *
 *     Δ̂(x) = SR(x, z=1) − SR(x, z=0)       success-rate gap over finite rollouts (0 unless both sides have one)
 *     A1_i  = (R_i − μ_x) / (σ_x + ε)       global stream: the task, both conditions (`scope: 'batch'`: the batch)
 *     C_i   = λ_i · clip(Δ̂(x), 0, 1)       one-sided: only skill dependence corrects
 *     m_i   = μ_{x,z_i}                     when C_i = 0: the mean of the rollout's own condition
 *           = max(μ_{x,0}, μ_{x,1})         when C_i > 0 and z_i = 1
 *           = min(μ_{x,0}, μ_{x,1})         when C_i > 0 and z_i = 0
 *     A2_i  = (R_i − m_i) / (σ_x + ε)       within-condition stream, on the task's scale
 *     B_i   = (1 − w)·A1_i + w·A2_i
 *     A_i   = B_i·(1 + C_i) or B_i/(1 + C_i) on gated rollouts with C_i > 0, else B_i:
 *             a skill-free (z = 0) rollout moves up (credit × (1 + C), blame ÷ (1 + C)), a with-skill one
 *             down (credit ÷ (1 + C), blame × (1 + C)); the sign never changes.
 *
 * Why this form satisfies PAPERS.md's five properties (each a fast-check property in skillc.test.ts):
 * 1. Signs kept: the factors are positive, so A has B's sign. With two-level rewards (every success scores
 *    hi, every failure lo < hi) in a task with both and w < 1, a success has A1 > 0 and A2 >= 0 (hi is at or
 *    above every mean) and a failure A1 < 0, A2 <= 0. The paper-style factor 1 − C would make a with-skill
 *    success <= 0 once C >= 1 (λ_k > 1, or Δ̂ = 1); 1/(1 + C) agrees with it to first order and stays
 *    positive. With graded rewards grpo itself gives a below-mean success A < 0, so no form that reduces to
 *    grpo keeps signs there; with w = 1 (no global stream) a success in an all-success condition gets 0.
 * 2. Credit redirected: two rollouts of one task with the same reward have the same A1. With A2 on each
 *    condition's own std (the earlier form) a with-skill success can outrank a skill-free one at any small
 *    C: unbiased std, 5/8 successes with the skill and 1/2 without give A2 = 0.725 and 0.707 at Δ̂ = 0.125.
 *    On the task's common scale the two A2 differ by the difference of their centres, and centring z = 1 on
 *    the larger condition mean and z = 0 on the smaller once C > 0 gives B(z=0) >= B(z=1) for every reward;
 *    the factors only widen that, monotonically in C = λ·Δ̂. (With two-level rewards Δ̂ > 0 already means
 *    μ_{x,1} > μ_{x,0}, so m_i is the own mean; the swap acts only when graded rewards' means disagree with
 *    the success rates.)
 * 3. One-sided: Δ̂ <= 0 (or λ_i = 0) gives C_i = 0 and A = B, the plain mix of the two streams.
 * 4. Scale-free: Δ̂ counts outcomes, not reward units (the earlier C was 10 on ALFWorld's 10·won); A1 and A2
 *    are reward differences over a std; the factors depend on C alone. ε stays absolute, as grpo's, so that
 *    property 5 holds exactly: invariance is exact up to ε/σ. A `successThreshold` is in reward units.
 * 5. λ = 0 (a retired type) and w = 0: A = A1, grpo's arithmetic under the same std, ε and one-sample rule.
 *
 * Stream 1's scope. The paper takes A1's mean and variance "of all trajectories in the batch"; the default
 * here is the task group (`scope: 'group'`), for two reasons. (a) It is GRPO's own normalisation, and the
 * baselines' (`grpo`, SKILL0's GRPO, `d2skill-mixed`), so property 5 reads "equals `grpo`" and the table's
 * rows differ from SKILLC in the method alone. (b) A task's advantages depend on its own rollouts only: with
 * `batch`, an easy task's rollouts sit above the batch mean (A1 > 0 even where every rollout of the task
 * scored the same) and a hard task's below, so the same rollouts get other advantages depending on which
 * tasks share the step — the dependence on batch composition that verl's users complain of. `scope:
 * 'batch'` is the paper's wording, offered to be measured against the default; properties 1–4 hold under
 * either scope (the property tests draw both), and 5 holds with `grpo` over the batch as one group.
 *
 * `correction: 'additive'` (ablation only) keeps the earlier reconstruction exactly: Δ̂ the reward-mean gap,
 * A2 on each condition's own mean and std, A = B + C on gated z = 0 and B − C on gated z = 1 rollouts.
 *
 * Metrics: `gap_mean` and `gap_positive` over `paired_tasks` (tasks with both conditions), `correction_mean`
 * (mean C over the rollouts it was applied to, λ_i included), `corrected` (how many), and the bookkeeping.
 */
export function createSkillc(options?: SkillcOptions): AdvantageEstimator {
  const reader = new OptionReader('skillc', options, [
    'correction',
    'lambda',
    'lambdaByFamily',
    'w',
    'scope',
    'gate',
    'successThreshold',
    'preset',
    'std',
    'epsilon',
    'singleton',
  ]);
  const correction = reader.choice('correction', ['multiplicative', 'additive'] as const, 'multiplicative');
  const lambda = reader.number('lambda', 1, { min: 0 });
  const lambdaByFamily = reader.numberMap('lambdaByFamily', { min: 0 });
  const w = reader.number('w', 0.4, { min: 0, max: 1 });
  const scope = reader.choice('scope', ['group', 'batch'] as const, 'group');
  const gate = reader.choice('gate', ['success', 'all'] as const, 'success');
  const successThreshold = reader.optionalNumber('successThreshold');
  const convention = readConvention(reader, SKILLC_DEFAULTS, ['std', 'epsilon', 'singleton']);
  // A one-sample condition, or task, has nothing to compare with inside it: stream 2 always gives it 0.
  const withinConvention: NormalizeConvention = { ...convention, singleton: 'zero' };
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
      const strengths = sampleLambdas(checked, lambdaByFamily, lambda);

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
      const rule: OutcomeRule =
        successThreshold === undefined ? { successes: batch.successes } : { threshold: successThreshold };
      const cellMoments = computeGroupMoments(scores, cellIndex, rule);
      const cellMean = cellMoments.mean;
      const cellPasses = cellMoments.passes as Int32Array;

      // A1 as (x − centre) / denom per group: the same arithmetic as grpo's, so w = 0 with no correction
      // gives grpo's values exactly.
      const scopeMoments =
        scope === 'group' ? moments : computeGroupMoments(scores, buildGroupIndex(new Int32Array(size)));
      const a1 = normalizationParams(scores, scopeMoments, convention);
      const multiplicative = correction === 'multiplicative';
      // Stream 2's denominator: the task's std (multiplicative), or each cell's own (additive, as before).
      const within = normalizationParams(scores, multiplicative ? moments : cellMoments, withinConvention);

      const positiveGap = new Float64Array(groupCount);
      let gapSum = 0;
      let gapTasks = 0;
      let gapPositive = 0;
      for (let g = 0; g < groupCount; g++) {
        const without = 2 * g;
        const withSkill = without + 1;
        const n0 = cellMoments.count[without] as number;
        const n1 = cellMoments.count[withSkill] as number;
        if (n0 === 0 || n1 === 0) continue;
        const gap = multiplicative
          ? (cellPasses[withSkill] as number) / n1 - (cellPasses[without] as number) / n0
          : (cellMean[withSkill] as number) - (cellMean[without] as number);
        gapSum += gap;
        gapTasks++;
        if (gap > 0) {
          gapPositive++;
          positiveGap[g] = gap;
        }
      }

      const advantages = outputArray('skillc', size, options);
      let correctionSum = 0;
      let corrected = 0;
      for (let i = 0; i < size; i++) {
        const x = scores[i] as number;
        if (x - x !== 0) continue;
        const g = groupOf[i] as number;
        const s = scope === 'group' ? g : 0;
        const cell = cellOf[i] as number;
        const withSkill = (cell & 1) === 1;
        const first = (x - (a1.centre[s] as number)) / (a1.denom[s] as number);
        const gap = positiveGap[g] as number;
        const c = gap > 0 ? (strengths ? (strengths[i] as number) : lambda) * gap : 0;
        let a: number;
        if (multiplicative) {
          let centre = cellMean[cell] as number;
          if (c > 0) {
            const mean0 = cellMean[cell & ~1] as number;
            const mean1 = cellMean[cell | 1] as number;
            centre = withSkill ? Math.max(mean0, mean1) : Math.min(mean0, mean1);
          }
          a = (1 - w) * first + (w * (x - centre)) / (within.denom[g] as number);
          if (c > 0 && (gate === 'all' || isSuccess(rule, i, x))) {
            const factor = 1 + c;
            // Up for z = 0, down for z = 1, whatever B's sign: credit grows or shrinks, blame the reverse.
            a = a > 0 === !withSkill ? a * factor : a / factor;
            correctionSum += c;
            corrected++;
          }
        } else {
          const second = (x - (within.centre[cell] as number)) / (within.denom[cell] as number);
          a = (1 - w) * first + w * second;
          if (c > 0 && (gate === 'all' || isSuccess(rule, i, x))) {
            a += withSkill ? -c : c;
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

/**
 * The options of `skillc` that a batch field replaces when present: a run that always fills
 * `attributionStrengths` (internalize does) makes `lambda` and `lambdaByFamily` do nothing. Also on the
 * factory, as `createSkillc.batchOverrides`, so it travels with it into any registry.
 */
export const SKILLC_BATCH_OVERRIDES: EstimatorBatchOverrides = {
  attributionStrengths: ['lambda', 'lambdaByFamily'],
};
createSkillc.batchOverrides = SKILLC_BATCH_OVERRIDES;

/**
 * λ_i per sample, or undefined when every sample uses `lambda`: the batch's `attributionStrengths` (what the
 * internalize loop fills, so a third-party estimator receives them too), else `lambdaByFamily` by the
 * sample's family.
 */
function sampleLambdas(
  checked: CheckedBatch,
  lambdaByFamily: Map<string, number> | undefined,
  lambda: number,
): Float64Array | undefined {
  const fromBatch = readSampleWeights(
    checked,
    'attributionStrengths',
    'skillc',
    'the skill type’s attribution strength, 0 once retired',
  );
  if (fromBatch) return fromBatch;
  if (!lambdaByFamily) return undefined;
  const { batch, size } = checked;
  if (!batch.families) {
    throw new MissingFieldError(
      'skillc',
      'families',
      'options.lambdaByFamily needs each rollout’s skill type',
    );
  }
  const out = new Float64Array(size);
  for (let i = 0; i < size; i++) out[i] = lambdaByFamily.get(String(batch.families[i])) ?? lambda;
  return out;
}
