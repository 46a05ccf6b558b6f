import { MissingFieldError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { expectAdvantages } from '../test-support.js';
import { createRemax } from './remax.js';

describe('remax', () => {
  it("subtracts the greedy rollout's reward", () => {
    // [1 − 0.25, 0.5 − 1, 0 (baseline NaN)].
    const { advantages, metrics } = createRemax().estimate({
      scores: [1, 0.5, 1],
      groupIds: [1, 1, 2],
      baselines: [0.25, 1, Number.NaN],
    });
    expectAdvantages(advantages, [0.75, -0.5, 0]);
    expect(metrics.nonfinite_baselines).toBe(1);
  });

  it('needs baselines and takes no options', () => {
    expect(() => createRemax().estimate({ scores: [1], groupIds: [1] })).toThrow(MissingFieldError);
    expect(() => createRemax({ epsilon: 1 } as never)).toThrow(/remax has no option "epsilon"/);
  });
});
