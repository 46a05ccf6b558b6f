import { describe, expect, it } from 'vitest';
import { createGigpo } from '../estimators/gigpo.js';
import { createRloo } from '../estimators/rloo.js';
import { expectAdvantages } from '../test-support.js';
import { combineEstimators } from './combine-estimators.js';

describe('combineEstimators', () => {
  it('sums the weighted advantages and prefixes each part’s metrics', () => {
    // [1, 0, 0, 1]: dr-grpo ±0.5, rloo ±2/3 → 0.5·0.5 + 2·2/3 = 1.5833333.
    const combined = combineEstimators([
      ['dr-grpo', 0.5],
      [createRloo(), 2],
    ]);
    expect(combined.name).toBe('0.5*dr-grpo+2*rloo');
    const { advantages, metrics } = combined.estimate({ scores: [1, 0, 0, 1], groupIds: [1, 1, 1, 1] });
    const a = 0.5 * 0.5 + (2 * 2) / 3;
    expectAdvantages(advantages, [a, -a, -a, a]);
    expect(metrics).toMatchObject({ frac_zero_std: 0, groups_all_pass: 0, '0.dr-grpo/groups': 1 });
    expect(metrics['1.rloo/frac_zero_std']).toBe(0);
  });

  it('combines step-level credit, broadcasting the sample-level parts over the steps', () => {
    // One task, γ = 0.5. Sample 0: R = 1, keys a b, rewards 0 1 → returns 0.5 1; sample 1: R = 0, key a,
    // return 0; sample 2 errored.
    // gigpo: rows R = 1, 1, 0 → mean 2/3, A^E = 1/3, −2/3; step group a = {0.5, 0} → ±0.25, b alone → 0:
    //   steps [1/3 + 0.25, 1/3], [−2/3 − 0.25]. dr-grpo: mean of [1, 0] = 0.5 → ±0.5.
    // Weights 1 and 2: advantages 1/3 + 1 = 4/3, −2/3 − 1 = −5/3, 0;
    //   steps [1/3 + 0.25 + 1, 1/3 + 1] = [19/12, 4/3], [−2/3 − 0.25 − 1] = [−23/12].
    const batch = {
      scores: [1, 0, Number.NaN],
      groupIds: [1, 1, 1],
      stepKeys: [['a', 'b'], ['a'], []],
      stepRewards: [[0, 1], [0], []],
    };
    const result = combineEstimators([
      [createGigpo({ gamma: 0.5 }), 1],
      ['dr-grpo', 2],
    ]).estimate(batch);
    expectAdvantages(result.advantages, [4 / 3, -5 / 3, 0]);
    expectAdvantages(result.stepAdvantages?.[0] as Float64Array, [19 / 12, 4 / 3]);
    expectAdvantages(result.stepAdvantages?.[1] as Float64Array, [-23 / 12]);
    expect(result.stepAdvantages?.[2]).toBeUndefined();
    // Without a step-level part there is no step-level credit to report.
    expect(combineEstimators([['dr-grpo', 1]]).estimate(batch)).not.toHaveProperty('stepAdvantages');
  });

  it('rejects empty lists, bad weights and unknown names', () => {
    expect(() => combineEstimators([])).toThrow(/non-empty/);
    expect(() => combineEstimators([['grpo', Number.NaN]])).toThrow(/parts\[0\]\[1\]/);
    expect(() => combineEstimators([['nope', 1]])).toThrow(/Unknown advantage estimator "nope"/);
  });
});
