import { describe, expect, it } from 'vitest';
import { expectAdvantages } from '../test-support.js';
import { createReinforcePpBaseline } from './reinforce-pp-baseline.js';

describe('reinforce-pp-baseline', () => {
  it('subtracts the group mean, then whitens over the batch', () => {
    // Group x [1, 0] → centred [0.5, −0.5]; group y [3, 1, 2] (mean 2) → [1, −1, 0].
    // Batch of centred values: mean 0, unbiased variance (0.25 + 0.25 + 1 + 1 + 0)/4 = 0.625.
    // A = c / sqrt(0.625 + 1e-8): 0.5 → 0.6324555270, 1 → 1.2649110540.
    const { advantages, metrics } = createReinforcePpBaseline().estimate({
      scores: [1, 0, 3, 1, 2],
      groupIds: ['x', 'x', 'y', 'y', 'y'],
    });
    const r = Math.sqrt(0.625 + 1e-8);
    expectAdvantages(advantages, [0.5 / r, -0.5 / r, 1 / r, -1 / r, 0]);
    expect(advantages[0]).toBeCloseTo(0.6324555269740316, 12);
    expect(metrics.whiten_std).toBeCloseTo(Math.sqrt(0.625), 12);
  });

  it('treats a one-sample group as mean 0 (verl), or as 0 with singleton zero', () => {
    // Centred [2, 0.5, −0.5] (raw singleton 2): mean 2/3, deviations [4/3, −1/6, −7/6],
    // unbiased variance (16/9 + 1/36 + 49/36)/2 = 1.5833333.
    const b = { scores: [2, 1, 0], groupIds: [1, 2, 2] };
    const v = (16 / 9 + 1 / 36 + 49 / 36) / 2;
    const r = Math.sqrt(v + 1e-8);
    expectAdvantages(createReinforcePpBaseline().estimate(b).advantages, [4 / 3 / r, -1 / 6 / r, -7 / 6 / r]);
    // singleton zero: centred [0, 0.5, −0.5], mean 0, variance 0.5/2 = 0.25.
    const r0 = Math.sqrt(0.25 + 1e-8);
    expectAdvantages(createReinforcePpBaseline({ singleton: 'zero' }).estimate(b).advantages, [
      0,
      0.5 / r0,
      -0.5 / r0,
    ]);
  });
});
