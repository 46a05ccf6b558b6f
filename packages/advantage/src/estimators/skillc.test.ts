import { MissingFieldError } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectAdvantages } from '../test-support.js';
import { createGrpo } from './grpo.js';
import { createSkillc } from './skillc.js';

// Task T: with the skill (z=1) [1, 1, 1, 0] (mean 0.75), without (z=0) [1, 0, 0, 0] (mean 0.25) → Δ̂ = 0.5.
// Task U: z=1 [0, 0], z=0 [1, 0] → Δ̂ = −0.5, no correction.
const batch = {
  scores: [1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0],
  groupIds: ['T', 'T', 'T', 'T', 'T', 'T', 'T', 'T', 'U', 'U', 'U', 'U'],
  conditions: [1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0],
};

// T, both conditions: four 1s and four 0s, mean 0.5, unbiased std sqrt(8·0.25/7) = sqrt(2/7) = 0.5345224838
// → A1 = ±0.5/(0.5345224838 + 1e-6) = ±0.9354125967.
const a1 = 0.5 / (Math.sqrt(2 / 7) + 1e-6);
// Within T's conditions: z=1 [1, 1, 1, 0] and z=0 [1, 0, 0, 0] both have unbiased std 0.5, deviations
// 0.25 / −0.75 (z=1) and 0.75 / −0.25 (z=0).
const d = 0.5 + 1e-6;

describe('skillc', () => {
  it('combines the two streams and corrects skill-dependent success (w = 0.4, λ = 1, gate success)', () => {
    const { advantages, metrics } = createSkillc().estimate(batch);
    // C(T) = 1 · max(0.5, 0) = 0.5: successful z=1 rollouts −0.5, successful z=0 rollouts +0.5.
    const z1Pass = 0.6 * a1 + 0.4 * (0.25 / d) - 0.5; // 0.2612471580
    const z1Fail = 0.6 * -a1 + 0.4 * (-0.75 / d); // −1.1612463580 (failed: not corrected)
    const z0Pass = 0.6 * a1 + 0.4 * (0.75 / d) + 0.5; // 1.6612463580
    const z0Fail = 0.6 * -a1 + 0.4 * (-0.25 / d); // −0.7612471580
    expect(z1Pass).toBeCloseTo(0.26124715801885545, 12);
    // U: A1 over [0, 0, 1, 0]: mean 0.25, unbiased std 0.5; A2: z=1 constant → 0, z=0 [1, 0] std sqrt(0.5).
    const u1 = 0.75 / d;
    const u0 = 0.5 / (Math.sqrt(0.5) + 1e-6);
    const uFail = -0.25 / d;
    expectAdvantages(advantages, [
      z1Pass,
      z1Pass,
      z1Pass,
      z1Fail,
      z0Pass,
      z0Fail,
      z0Fail,
      z0Fail,
      0.6 * uFail,
      0.6 * uFail,
      0.6 * u1 + 0.4 * u0,
      0.6 * uFail - 0.4 * u0,
    ]);
    expect(metrics).toMatchObject({
      gap_mean: 0, // (0.5 − 0.5)/2
      gap_positive: 1,
      paired_tasks: 2,
      correction_mean: 0.5,
      corrected: 4,
      groups_all_pass: 0,
      groups_all_fail: 0,
    });
  });

  it("gate 'all' corrects failed rollouts too; λ_k comes from the rollout's family", () => {
    const { advantages } = createSkillc({ w: 0, gate: 'all', lambdaByFamily: { heat: 0.2 } }).estimate({
      ...batch,
      families: Array.from({ length: 12 }, () => 'heat'),
    });
    // C = 0.2 · 0.5 = 0.1 on every rollout of T, −0.1 with the skill and +0.1 without.
    expectAdvantages(advantages.slice(0, 8), [
      a1 - 0.1,
      a1 - 0.1,
      a1 - 0.1,
      -a1 - 0.1,
      a1 + 0.1,
      -a1 + 0.1,
      -a1 + 0.1,
      -a1 + 0.1,
    ]);
  });

  it('decides success with successThreshold when given', () => {
    const scores = [0.6, 0.6, 0.2, 0.2];
    const b = { scores, groupIds: [1, 1, 1, 1], conditions: [1, 1, 0, 0] };
    // Δ̂ = 0.6 − 0.2 = 0.4; with threshold 0.5 only the z=1 rollouts succeed and get −0.4.
    const withThreshold = createSkillc({ w: 0, successThreshold: 0.5 }).estimate(b).advantages;
    const plain = createSkillc({ w: 0, lambda: 0 }).estimate(b).advantages;
    expectAdvantages(withThreshold, [
      (plain[0] as number) - 0.4,
      (plain[1] as number) - 0.4,
      plain[2] as number,
      plain[3] as number,
    ]);
  });

  it('needs conditions, families with lambdaByFamily, and 0/1 conditions', () => {
    expect(() => createSkillc().estimate({ scores: [1], groupIds: [1] })).toThrow(MissingFieldError);
    expect(() =>
      createSkillc({ lambdaByFamily: { heat: 1 } }).estimate({ scores: [1], groupIds: [1], conditions: [1] }),
    ).toThrow(/"families"/);
    expect(() => createSkillc().estimate({ scores: [1], groupIds: [1], conditions: [2] })).toThrow(
      /batch\.conditions\[0\]/,
    );
    expect(() => createSkillc({ w: 1.5 })).toThrow(/options\.w/);
  });

  it('equals grpo when every Δ̂ <= 0 and w = 0 (same std and ε, one-sample groups zero)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 8 }), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.constantFrom('unbiased', 'population') as fc.Arbitrary<'unbiased' | 'population'>,
        fc.constantFrom(1e-6, 1e-4),
        (groups, std, epsilon) => {
          // The lower half of each sorted group runs with the skill: mean(z=1) <= mean(z=0), so Δ̂ <= 0.
          const scores: number[] = [];
          const groupIds: number[] = [];
          const conditions: number[] = [];
          groups.forEach((g, k) => {
            const sorted = [...g].sort((a, b) => a - b);
            sorted.forEach((s, j) => {
              scores.push(s);
              groupIds.push(k);
              conditions.push(j < sorted.length / 2 ? 1 : 0);
            });
          });
          const skillc = createSkillc({ w: 0, std, epsilon }).estimate({ scores, groupIds, conditions });
          const grpo = createGrpo({ std, epsilon, singleton: 'zero' }).estimate({ scores, groupIds });
          expect(skillc.advantages).toEqual(grpo.advantages);
          expect(skillc.metrics.corrected).toBe(0);
        },
      ),
    );
  });

  it('sums to zero within a task when there is no correction', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 1 })), {
          minLength: 1,
          maxLength: 16,
        }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (rows, w) => {
          const { advantages } = createSkillc({ w, lambda: 0 }).estimate({
            scores: rows.map((r) => r[0]),
            groupIds: rows.map(() => 'task'),
            conditions: rows.map((r) => r[1]),
          });
          expect(Math.abs(advantages.reduce((s, a) => s + a, 0))).toBeLessThan(1e-9);
        },
      ),
    );
  });
});
