import { describe, expect, it } from 'vitest';
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

  it('rejects empty lists, bad weights and unknown names', () => {
    expect(() => combineEstimators([])).toThrow(/non-empty/);
    expect(() => combineEstimators([['grpo', Number.NaN]])).toThrow(/parts\[0\]\[1\]/);
    expect(() => combineEstimators([['nope', 1]])).toThrow(/Unknown advantage estimator "nope"/);
  });
});
