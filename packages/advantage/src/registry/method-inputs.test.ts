import type { AdvantageBatch } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { createEstimator, listEstimators } from './estimator-registry.js';

// One batch with every field some built-in needs, two tasks with both conditions and Δ̂ > 0 in task 1.
const batch: AdvantageBatch = {
  scores: [1, 1, 0, 0, 1, 0, 0, 1],
  groupIds: [1, 1, 1, 1, 2, 2, 2, 2],
  instanceIds: [1, 1, 1, 1, 2, 2, 2, 2],
  generations: [1, 1, 2, 2, 1, 1, 2, 2],
  conditions: [1, 1, 0, 0, 1, 0, 1, 0],
  lengths: [3, 5, 2, 8, 1, 1, 4, 2],
  baselines: [0.5, 0.5, 0.5, 0.5, 0, 0, 0, 0],
};
const methodInputs = { lambdas: [2, 2, 2, 2, 0.5, 0.5, 0.5, 0.5], previousMeans: { 1: 0.25, 2: 0.75 } };

describe('method inputs in the batch (lambdas, previousMeans)', () => {
  it('reach skillc and skill-r1 and leave every other built-in unchanged', () => {
    const readers: Record<string, keyof typeof methodInputs> = {
      skillc: 'lambdas',
      'skill-r1': 'previousMeans',
    };
    for (const name of listEstimators()) {
      const plain = createEstimator(name).estimate(batch).advantages;
      const withInputs = createEstimator(name).estimate({ ...batch, ...methodInputs }).advantages;
      if (name in readers) expect(withInputs, name).not.toEqual(plain);
      else expect(withInputs, name).toEqual(plain);
    }
  });

  it('are checked for length by every estimator, as every per-sample field', () => {
    for (const name of listEstimators()) {
      expect(() => createEstimator(name).estimate({ ...batch, lambdas: [1] }), name).toThrow(
        /batch\.lambdas/,
      );
    }
  });
});
