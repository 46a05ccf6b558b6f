import { describe, expect, it } from 'vitest';
import { expectAdvantages } from '../test-support.js';
import { createReinforcePp } from './reinforce-pp.js';

describe('reinforce-pp', () => {
  it('whitens discounted returns over the batch', () => {
    // γ = 0.5: [0, 0, 1] → 0 + 0.5·(0 + 0.5·1) = 0.25; [1] → 1; [0, 2] → 0 + 0.5·2 = 1.
    // Returns [0.25, 1, 1]: mean 0.75, deviations [−0.5, 0.25, 0.25], unbiased variance 0.375/2 = 0.1875.
    const { advantages, metrics } = createReinforcePp({ gamma: 0.5 }).estimate({
      scores: [1, 1, 2],
      groupIds: [1, 2, 3],
      stepRewards: [[0, 0, 1], [1], [0, 2]],
    });
    const r = Math.sqrt(0.1875 + 1e-8);
    expectAdvantages(advantages, [-0.5 / r, 0.25 / r, 0.25 / r]);
    expect(advantages[0]).toBeCloseTo(-1.1547005075872385, 12);
    expect(metrics.return_mean).toBeCloseTo(0.75, 14);
  });

  it('uses the score as a one-step return without stepRewards', () => {
    // Scores [1, 0]: mean 0.5, unbiased variance 0.5.
    const r = Math.sqrt(0.5 + 1e-8);
    expectAdvantages(createReinforcePp().estimate({ scores: [1, 0], groupIds: [1, 1] }).advantages, [
      0.5 / r,
      -0.5 / r,
    ]);
  });

  it('rejects a gamma outside [0, 1] and a step-reward row that is not an array', () => {
    expect(() => createReinforcePp({ gamma: 1.5 })).toThrow(/options\.gamma/);
    expect(() =>
      createReinforcePp().estimate({ scores: [1], groupIds: [1], stepRewards: [5 as never] }),
    ).toThrow(/batch\.stepRewards\[0\]/);
  });
});
