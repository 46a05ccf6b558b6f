import type { AdvantageBatch, AdvantageResult } from '@skillrl/core';
import { InvalidArgumentError, MissingFieldError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { createEstimator } from '../registry/estimator-registry.js';
import { expectAdvantages } from '../test-support.js';
import { createGigpo } from './gigpo.js';

/** Each sample's step advantages, to 12 digits; `undefined` where the sample was skipped. */
function expectStepAdvantages(
  result: AdvantageResult,
  expected: ReadonlyArray<readonly number[] | undefined>,
) {
  const actual = result.stepAdvantages;
  expect(actual).toBeDefined();
  expect(actual).toHaveLength(expected.length);
  expected.forEach((row, i) => {
    const got = actual?.[i];
    if (row === undefined) {
      expect(got, `sample ${i}`).toBeUndefined();
      return;
    }
    expect(got, `sample ${i}`).toBeInstanceOf(Float64Array);
    expect(got?.length, `sample ${i}`).toBe(row.length);
    row.forEach((value, t) => {
      expect(got?.[t], `sample ${i} step ${t}`).toBeCloseTo(value, 12);
    });
  });
}

/**
 * Batch 1, γ = 0.5. Task A: three trajectories and an errored one (NaN); task B: one trajectory of two steps
 * whose keys equal task A's (they must not join A's step groups); task C: one trajectory of one step.
 *
 *   sample  task  R    keys          rewards    returns G_t (backwards, G = r + 0.5·G)
 *   0       A     1    s0 s1 s2      0 0 1      0.25 0.5 1
 *   1       A     0    s0 s3         0 0        0 0
 *   2       A     1    s0 s1         0 1        0.5 1
 *   3       A     NaN  s0 s1         5 5        (skipped: never read into a mean)
 *   4       B     1    s0 s1         0 1        0.5 1
 *   5       C     0.5  t0            0.5        0.5
 *
 * Step groups of A: s0 = {0.25, 0, 0.5} (mean 0.25), s1 = {0.5, 1} (mean 0.75), s2 = {1}, s3 = {0};
 * B: s0 = {0.5}, s1 = {1}; C: t0 = {0.5}. Singletons give A^S = 0.
 */
const batch1: AdvantageBatch = {
  scores: [1, 0, 1, Number.NaN, 1, 0.5],
  groupIds: ['A', 'A', 'A', 'A', 'B', 'C'],
  stepKeys: [['s0', 's1', 's2'], ['s0', 's3'], ['s0', 's1'], ['s0', 's1'], ['s0', 's1'], ['t0']],
  stepRewards: [[0, 0, 1], [0, 0], [0, 1], [5, 5], [0, 1], [0.5]],
};

/**
 * Batch 2, the default γ = 0.95, ω = 0.5, ALFWorld-style rewards (10 for a win), tasks interleaved (ids 7
 * and 9), an errored rollout with empty placeholders, and task 9 all-fail with repeated states whose returns
 * are all 0 (constant step groups: exactly 0, not rounding noise).
 *
 *   sample  task  R    keys       rewards     returns G_t
 *   0       7     10   p q r      0 0 10      0.95·9.5 = 9.025, 0.95·10 = 9.5, 10
 *   1       9     0    u v        0 0         0 0
 *   2       7     0    p w        0 0         0 0
 *   3       9     NaN  (none)                 (skipped)
 *   4       7     10   p q        0 10        9.5 10
 *   5       9     0    u v        0 0         0 0
 *
 * Step groups of 7: p = {9.025, 0, 9.5}, mean 18.525/3 = 6.175, A^S = 2.85, −6.175, 3.325;
 * q = {9.5, 10}, mean 9.75, A^S = ∓0.25; r = {10} and w = {0} singletons. Task 9: u = {0, 0}, v = {0, 0}.
 */
const batch2: AdvantageBatch = {
  scores: [10, 0, 0, Number.NaN, 10, 0],
  groupIds: [7, 9, 7, 9, 7, 9],
  stepKeys: [['p', 'q', 'r'], ['u', 'v'], ['p', 'w'], [], ['p', 'q'], ['u', 'v']],
  stepRewards: [[0, 0, 10], [0, 0], [0, 0], [], [0, 10], [0, 0]],
};

describe('gigpo: batch 1 (γ = 0.5)', () => {
  it('mean_norm, episode moments over step rows (the default)', () => {
    const result = createGigpo({ gamma: 0.5 }).estimate(batch1);
    // A: rows R = 1 ×3 (sample 0), 0 ×2 (sample 1), 1 ×2 (sample 2): mean (3 + 0 + 2)/7 = 5/7.
    //   A^E = 1 − 5/7 = 2/7, 0 − 5/7 = −5/7, 2/7.
    // B: two rows, both R = 1: mean 1, A^E = 0 (a one-trajectory group is not a one-row group).
    // C: one row: mean 0 (verl-agent's rule), A^E = 0.5.
    expectAdvantages(result.advantages, [2 / 7, -5 / 7, 2 / 7, 0, 0, 0.5]);
    // Joint, ω = 1: sample 0 = 2/7 + [0, −0.25, 0]; sample 1 = −5/7 + [−0.25, 0]; sample 2 = 2/7 + [0.25, 0.25].
    expectStepAdvantages(result, [
      [2 / 7, 2 / 7 - 0.25, 2 / 7],
      [-5 / 7 - 0.25, -5 / 7],
      [2 / 7 + 0.25, 2 / 7 + 0.25],
      undefined,
      [0, 0],
      [0.5],
    ]);
    expect(result.stepAdvantages?.[0]?.[1]).toBeCloseTo(0.0357142857142857, 14);
    // 10 rows in 7 step groups (A: 3, 2, 1, 1; B: 1, 1; C: 1); 5 rows alone; the 5 singletons are the
    // groups without spread. Bookkeeping on trajectories: B and C are one-sample groups, both pass.
    expect(result.metrics).toEqual({
      groups: 3,
      frac_zero_std: 2 / 3,
      groups_all_pass: 2,
      groups_all_fail: 0,
      nonfinite: 1,
      steps: 10,
      step_groups: 7,
      step_group_size_mean: 10 / 7,
      step_group_size_max: 3,
      step_frac_singleton: 0.5,
      step_frac_zero_std: 5 / 7,
      empty_trajectories: 0,
    });
  });

  it('mean_std_norm, episode moments over step rows', () => {
    const result = createGigpo({ gamma: 0.5, mode: 'mean_std_norm' }).estimate(batch1);
    // A's rows: five at 1 (deviation 2/7), two at 0 (−5/7): Σd² = 5·4/49 + 2·25/49 = 70/49 = 10/7,
    //   unbiased variance (10/7)/6 = 5/21, std sqrt(5/21) = 0.48795.
    const sA = Math.sqrt(5 / 21) + 1e-6;
    // B is constant: exactly 0. C: one row, mean 0 and std 1: 0.5/(1 + 1e-6).
    expectAdvantages(result.advantages, [2 / 7 / sA, -5 / 7 / sA, 2 / 7 / sA, 0, 0, 0.5 / (1 + 1e-6)]);
    expect(result.advantages[0]).toBeCloseTo(0.585538843771579, 12);
    // Step group s0 {0.25, 0, 0.5}: Σd² = 0 + 0.0625 + 0.0625 = 0.125, variance 0.0625, std 0.25.
    // s1 {0.5, 1}: Σd² = 0.125, variance 0.125, std sqrt(0.125) = 0.35355. Singletons: 0/(1 + ε) = 0.
    const s0 = 0.25 + 1e-6;
    const s1 = Math.sqrt(0.125) + 1e-6;
    expectStepAdvantages(result, [
      [2 / 7 / sA, 2 / 7 / sA - 0.25 / s1, 2 / 7 / sA],
      [-5 / 7 / sA - 0.25 / s0, -5 / 7 / sA],
      [2 / 7 / sA + 0.25 / s0, 2 / 7 / sA + 0.25 / s1],
      undefined,
      [0, 0],
      [0.5 / (1 + 1e-6)],
    ]);
    expect(result.stepAdvantages?.[1]?.[0]).toBeCloseTo(-2.463843109444948, 12);
  });

  it('episode moments over trajectories (compute_mean_std_cross_steps=False), both modes', () => {
    // A: R = [1, 0, 1], mean 2/3: A^E = 1/3, −2/3, 1/3. B: one trajectory, mean 0: A^E = 1. C: 0.5.
    const plain = createGigpo({ gamma: 0.5, episodeMoments: 'trajectories' }).estimate(batch1);
    expectAdvantages(plain.advantages, [1 / 3, -2 / 3, 1 / 3, 0, 1, 0.5]);
    // The step level does not depend on the episode moments: the same A^S as above.
    expectStepAdvantages(plain, [
      [1 / 3, 1 / 3 - 0.25, 1 / 3],
      [-2 / 3 - 0.25, -2 / 3],
      [1 / 3 + 0.25, 1 / 3 + 0.25],
      undefined,
      [1, 1],
      [0.5],
    ]);
    // mean_std_norm: A's Σd² = 1/9 + 4/9 + 1/9 = 2/3, variance 1/3, std 0.57735.
    const scaled = createGigpo({
      gamma: 0.5,
      mode: 'mean_std_norm',
      episodeMoments: 'trajectories',
    }).estimate(batch1);
    const sA = Math.sqrt(1 / 3) + 1e-6;
    expectAdvantages(scaled.advantages, [
      1 / 3 / sA,
      -2 / 3 / sA,
      1 / 3 / sA,
      0,
      1 / (1 + 1e-6),
      0.5 / (1 + 1e-6),
    ]);
    expect(scaled.advantages[1]).toBeCloseTo(-1.1546985383827153, 12);
  });
});

describe('gigpo: batch 2 (default γ = 0.95, ω = 0.5)', () => {
  it('mean_norm', () => {
    const result = createGigpo({ stepAdvantageWeight: 0.5 }).estimate(batch2);
    // Task 7 rows: R = 10 ×3, 0 ×2, 10 ×2: mean 50/7; A^E = 20/7, −50/7, 20/7. Task 9: all 0, A^E = 0.
    expectAdvantages(result.advantages, [20 / 7, 0, -50 / 7, 0, 20 / 7, 0]);
    // Joint = A^E + 0.5·A^S: sample 0 = 20/7 + 0.5·[2.85, −0.25, 0]; sample 2 = −50/7 + 0.5·[−6.175, 0];
    // sample 4 = 20/7 + 0.5·[3.325, 0.25].
    expectStepAdvantages(result, [
      [20 / 7 + 1.425, 20 / 7 - 0.125, 20 / 7],
      [0, 0],
      [-50 / 7 - 3.0875, -50 / 7],
      undefined,
      [20 / 7 + 1.6625, 20 / 7 + 0.125],
      [0, 0],
    ]);
    expect(result.stepAdvantages?.[0]?.[0]).toBeCloseTo(4.282142857142857, 12);
    // 11 rows in 6 step groups (p 3, q 2, r 1, w 1, u 2, v 2): r and w alone (2 of 11 rows); r, w, u and v
    // have no spread (4 of 6). Trajectory bookkeeping: task 9 is constant and all-fail; one NaN.
    expect(result.metrics).toMatchObject({
      groups: 2,
      frac_zero_std: 0.5,
      groups_all_pass: 0,
      groups_all_fail: 1,
      nonfinite: 1,
      steps: 11,
      step_groups: 6,
      step_group_size_mean: 11 / 6,
      step_group_size_max: 3,
      step_frac_singleton: 2 / 11,
      step_frac_zero_std: 4 / 6,
    });
  });

  it('mean_std_norm', () => {
    const result = createGigpo({ stepAdvantageWeight: 0.5, mode: 'mean_std_norm' }).estimate(batch2);
    // Task 7 rows: deviations 20/7 (×5) and −50/7 (×2): Σd² = (5·400 + 2·2500)/49 = 1000/7,
    //   variance (1000/7)/6 = 500/21, std sqrt(500/21) = 4.8795.
    const s7 = Math.sqrt(500 / 21) + 1e-6;
    expectAdvantages(result.advantages, [20 / 7 / s7, 0, -50 / 7 / s7, 0, 20 / 7 / s7, 0]);
    // p: Σd² = 2.85² + 6.175² + 3.325² = 8.1225 + 38.130625 + 11.055625 = 57.30875, variance 28.654375.
    // q: Σd² = 0.125, variance 0.125.
    const sp = Math.sqrt(28.654375) + 1e-6;
    const sq = Math.sqrt(0.125) + 1e-6;
    expectStepAdvantages(result, [
      [20 / 7 / s7 + (0.5 * 2.85) / sp, 20 / 7 / s7 - (0.5 * 0.25) / sq, 20 / 7 / s7],
      [0, 0],
      [-50 / 7 / s7 - (0.5 * 6.175) / sp, -50 / 7 / s7],
      undefined,
      [20 / 7 / s7 + (0.5 * 3.325) / sp, 20 / 7 / s7 + (0.5 * 0.25) / sq],
      [0, 0],
    ]);
    expect(result.stepAdvantages?.[4]?.[1]).toBeCloseTo(0.9390923143652465, 12);
    // Task 9's constant groups give exactly 0, not rounding noise divided by ε.
    expect(Array.from(result.stepAdvantages?.[1] ?? [])).toEqual([0, 0]);
  });
});

describe('gigpo: edge cases', () => {
  it('gives a trajectory without steps advantage 0 and an empty entry, out of every mean', () => {
    const result = createGigpo().estimate({
      scores: [1, 0, 5],
      groupIds: [1, 1, 1],
      stepKeys: [['a'], ['b'], []],
      stepRewards: [[1], [0], []],
    });
    // Rows of the group: R = 1 and 0 only: mean 0.5. Sample 2 has no row.
    expectAdvantages(result.advantages, [0.5, -0.5, 0]);
    expect(result.stepAdvantages?.[2]).toEqual(new Float64Array(0));
    expect(result.metrics.empty_trajectories).toBe(1);
  });

  it('writes into a reused `out` and reads no step row of a skipped sample', () => {
    const out = new Float64Array(6).fill(7);
    const result = createGigpo({ gamma: 0.5 }).estimate(
      // The errored rollout's rows are placeholders of the wrong shape: never read.
      {
        ...batch1,
        stepKeys: [
          ...(batch1.stepKeys as string[][]).slice(0, 3),
          null as never,
          ...(batch1.stepKeys as string[][]).slice(4),
        ],
      },
      { out },
    );
    expect(result.advantages).toBe(out);
    expectAdvantages(out, [2 / 7, -5 / 7, 2 / 7, 0, 0, 0.5]);
  });

  it('is registered as gigpo', () => {
    const estimator = createEstimator('gigpo', { gamma: 0.5 });
    expect(estimator.name).toBe('gigpo');
    expectAdvantages(estimator.estimate(batch1).advantages, [2 / 7, -5 / 7, 2 / 7, 0, 0, 0.5]);
  });
});

describe('gigpo: bad input', () => {
  const base = { scores: [1, 0], groupIds: [1, 1] };

  it('names a missing stepKeys or stepRewards and says who fills them', () => {
    const missing = (batch: AdvantageBatch) => {
      try {
        createGigpo().estimate(batch);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const noKeys = missing({ ...base, stepRewards: [[1], [0]] });
    expect(MissingFieldError.isInstance(noKeys) && noKeys.field).toBe('stepKeys');
    expect(String(noKeys)).toMatch(/stateKeyOf/);
    const noRewards = missing({ ...base, stepKeys: [['a'], ['a']] });
    expect(MissingFieldError.isInstance(noRewards) && noRewards.field).toBe('stepRewards');
    expect(String(noRewards)).toMatch(/stepRewardsOf/);
  });

  it('names the sample whose keys and rewards disagree, or whose entries are bad', () => {
    const run = (batch: Partial<AdvantageBatch>) => () =>
      createGigpo().estimate({ ...base, stepKeys: [['a'], ['a']], stepRewards: [[1], [0]], ...batch });
    expect(run({ stepKeys: [['a'], ['a', 'b']] })).toThrow(InvalidArgumentError);
    expect(run({ stepKeys: [['a'], ['a', 'b']] })).toThrow(
      /batch\.stepKeys\[1\].*stepRewards\[1\] has 1\), got 2/,
    );
    expect(run({ stepKeys: [['a'], 'a' as never] })).toThrow(/batch\.stepKeys\[1\]/);
    expect(run({ stepRewards: [[1], 0 as never] })).toThrow(/batch\.stepRewards\[1\]/);
    expect(run({ stepRewards: [[Number.NaN], [0]] })).toThrow(/batch\.stepRewards\[0\]\[0\]: .*finite/);
    expect(run({ stepKeys: [[3 as never], ['a']] })).toThrow(/batch\.stepKeys\[0\]\[0\]/);
    // One row per sample, as every per-sample field.
    expect(run({ stepKeys: [['a']] })).toThrow(/batch\.stepKeys: gigpo: expected 2 entries/);
  });

  it('checks its options when created', () => {
    expect(() => createGigpo({ mode: 'std' as never })).toThrow(/options\.mode/);
    expect(() => createGigpo({ gamma: 1.5 })).toThrow(/options\.gamma/);
    expect(() => createGigpo({ stepAdvantageWeight: -1 })).toThrow(/options\.stepAdvantageWeight/);
    expect(() => createGigpo({ epsilon: -1 })).toThrow(/options\.epsilon/);
    expect(() => createGigpo({ episodeMoments: 'rows' as never })).toThrow(/options\.episodeMoments/);
    expect(() => createGigpo({ similarityThreshold: 0.95 } as never)).toThrow(
      /no option "similarityThreshold"/,
    );
  });
});
