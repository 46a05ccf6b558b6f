import { describe, expect, it } from 'vitest';
import { groupBookkeeping } from './group-bookkeeping.js';
import { buildGroupIndex } from './group-index.js';
import { computeGroupMoments, stdFrom } from './group-moments.js';

describe('computeGroupMoments', () => {
  it('computes count, mean and Σd² over finite values only', () => {
    // Group 0: [1, 3] (NaN left out): mean 2, Σd² = 2. Group 1: [0.1, 0.1, 0.1]: constant.
    const values = Float64Array.of(1, 0.1, Number.NaN, 3, 0.1, 0.1);
    const m = computeGroupMoments(values, buildGroupIndex([0, 1, 0, 0, 1, 1]), {});
    expect(Array.from(m.count)).toEqual([2, 3]);
    expect(Array.from(m.mean)).toEqual([2, 0.1]);
    expect(Array.from(m.m2)).toEqual([2, 0]);
    expect(Array.from(m.constant)).toEqual([0, 1]);
    expect(m.nonfinite).toBe(1);
    // Summing 0.1 three times is not exactly 0.3, so a naive mean would leave rounding noise in Σd².
    expect((0.1 + 0.1 + 0.1) / 3).not.toBe(0.1);
  });

  it('gives the std conventions', () => {
    expect(stdFrom(2, 2, 'unbiased')).toBe(Math.sqrt(2));
    expect(stdFrom(2, 2, 'population')).toBe(1);
    expect(stdFrom(0, 1, 'unbiased')).toBe(0);
  });
});

describe('groupBookkeeping', () => {
  const values = Float64Array.of(1, 1, 0, 0, 0.5, 0, Number.NaN);
  const index = buildGroupIndex([0, 0, 1, 1, 2, 2, 3]);

  it('counts all-pass and all-fail groups on score > 0 by default, and skips all-non-finite groups', () => {
    const b = groupBookkeeping(computeGroupMoments(values, index, {}));
    // Group 0 [1, 1] all pass and constant; group 1 [0, 0] all fail and constant; group 2 mixed; group 3 empty.
    expect(b).toEqual({
      groups: 3,
      frac_zero_std: 2 / 3,
      groups_all_pass: 1,
      groups_all_fail: 1,
      nonfinite: 1,
    });
  });

  it('uses `successes`, or a threshold, instead of the score sign', () => {
    const successes = [1, 0, 0, 0, 1, 1, 1];
    expect(groupBookkeeping(computeGroupMoments(values, index, { successes }))).toMatchObject({
      groups_all_pass: 1,
      groups_all_fail: 1,
    });
    // Threshold 0.75: group 0 all pass, group 1 all fail, group 2 [0.5, 0] all fail.
    expect(groupBookkeeping(computeGroupMoments(values, index, { threshold: 0.75 }))).toMatchObject({
      groups_all_pass: 1,
      groups_all_fail: 2,
    });
  });
});
