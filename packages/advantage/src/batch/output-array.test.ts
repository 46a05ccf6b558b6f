import { InvalidArgumentError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { createEstimator, listEstimators } from '../registry/estimator-registry.js';

// Three groups of two in a layout every built-in accepts (skillc needs conditions, skill-r1 generations, gigpo steps...).
const batch = {
  scores: [1, 0, Number.NaN, 1, 0.5, 0.5],
  groupIds: [0, 0, 1, 1, 2, 2],
  instanceIds: [0, 0, 1, 1, 2, 2],
  generations: [1, 1, 1, 1, 1, 1],
  conditions: [1, 0, 1, 0, 1, 0],
  lengths: [3, 5, 2, 4, 1, 1],
  baselines: [0.5, 0.5, 0, 0, 0.5, 0.5],
  stepKeys: [['a', 'b'], ['a'], ['a'], ['a', 'c'], ['a'], ['b']],
  stepRewards: [[0, 1], [0], [0], [0, 1], [0.5], [0.5]],
};

describe('estimate(batch, { out })', () => {
  it.each(listEstimators())('%s writes into out, overwriting what it held, and returns it', (name) => {
    const fresh = createEstimator(name).estimate(batch).advantages;
    const out = new Float64Array(6).fill(-7);
    const { advantages } = createEstimator(name).estimate(batch, { out });
    expect(advantages).toBe(out);
    expect(Array.from(out)).toEqual(Array.from(fresh));
  });

  it('rejects an out of the wrong length, naming the field and the length to allocate', () => {
    const estimate = () => createEstimator('grpo').estimate(batch, { out: new Float64Array(5) });
    expect(estimate).toThrow(InvalidArgumentError);
    expect(estimate).toThrow(/options\.out.*expected length 6.*new Float64Array\(6\)/s);
  });

  it('rejects an out that is not a Float64Array', () => {
    const out = new Float32Array(6) as unknown as Float64Array;
    expect(() => createEstimator('rloo').estimate(batch, { out })).toThrow(/options\.out.*Float32Array/s);
  });
});
