import { InvalidArgumentError } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectAdvantages } from '../test-support.js';
import { createDrGrpo } from './dr-grpo.js';
import { createGrpo, GRPO_PRESETS } from './grpo.js';

// Group 1: [1, 0, 0, 1]: mean 0.5, deviations ±0.5, Σd² = 1;
//   unbiased std = sqrt(1/3) = 0.5773502692, population std = sqrt(1/4) = 0.5.
// Group 2: [0.7] alone. Group 3: [2, 2, 2], constant.
const batch = {
  scores: [1, 0, 0.7, 0, 2, 1, 2, 2],
  groupIds: [1, 1, 2, 1, 3, 1, 3, 3],
};

describe('grpo presets differ exactly as PAPERS.md says', () => {
  it('verl: unbiased std, ε = 1e-6, a one-sample group keeps its raw score', () => {
    // ±0.5 / (0.5773502692 + 1e-6) = ±0.8660239038; singleton 0.7 / (1 + 1e-6) = 0.6999993000.
    const a = 0.5 / (Math.sqrt(1 / 3) + 1e-6);
    const { advantages, metrics } = createGrpo({ preset: 'verl' }).estimate(batch);
    expectAdvantages(advantages, [a, -a, 0.7 / (1 + 1e-6), -a, 0, a, 0, 0]);
    expect(advantages[2]).toBeCloseTo(0.6999993000007, 13);
    // Groups 2 and 3 have no spread; group 1 is mixed; group 3 all pass (2 > 0), group 2 passes (0.7 > 0).
    expect(metrics).toMatchObject({
      groups: 3,
      frac_zero_std: 2 / 3,
      groups_all_pass: 2,
      groups_all_fail: 0,
    });
  });

  it('trl: unbiased std, ε = 1e-4, a one-sample group gets 0', () => {
    // ±0.5 / (0.5773502692 + 1e-4) = ±0.8658754298.
    const a = 0.5 / (Math.sqrt(1 / 3) + 1e-4);
    expect(a).toBeCloseTo(0.8658754297607016, 13);
    expectAdvantages(createGrpo({ preset: 'trl' }).estimate(batch).advantages, [a, -a, 0, -a, 0, a, 0, 0]);
  });

  it('art: population std, ε = 1e-6, a one-sample group gets 0', () => {
    // ±0.5 / (0.5 + 1e-6) = ±0.9999980000.
    const a = 0.5 / (0.5 + 1e-6);
    expectAdvantages(createGrpo({ preset: 'art' }).estimate(batch).advantages, [a, -a, 0, -a, 0, a, 0, 0]);
  });

  it('defaults to verl, and explicit options override the preset', () => {
    expect(createGrpo().estimate(batch).advantages).toEqual(
      createGrpo({ preset: 'verl' }).estimate(batch).advantages,
    );
    const a = 0.5 / (0.5 + 1e-4);
    expectAdvantages(createGrpo({ preset: 'trl', std: 'population' }).estimate(batch).advantages, [
      a,
      -a,
      0,
      -a,
      0,
      a,
      0,
      0,
    ]);
    expect(GRPO_PRESETS.verl).toEqual({ scale: 'group', std: 'unbiased', epsilon: 1e-6, singleton: 'raw' });
  });

  it("scale 'batch' keeps group means and divides by the std of every score (TRL's scale_rewards='batch')", () => {
    // Scores [1, 0, 0, 1 | 3, 5]: batch mean 10/6, Σd² = 19.3333, unbiased std = sqrt(19.3333/5) = 1.9663841605.
    // Group 1: ±0.5 / (1.9663841605 + 1e-4); group 2 (mean 4): ±1 / (1.9663841605 + 1e-4).
    const m = 10 / 6;
    const sd = Math.sqrt((2 * (1 - m) ** 2 + 2 * (0 - m) ** 2 + (3 - m) ** 2 + (5 - m) ** 2) / 5);
    expect(sd).toBeCloseTo(1.96638416050035, 12);
    const b = { scores: [1, 0, 0, 1, 3, 5], groupIds: ['a', 'a', 'a', 'a', 'b', 'b'] };
    const { advantages } = createGrpo({ preset: 'trl', scale: 'batch' }).estimate(b);
    const d = sd + 1e-4;
    expectAdvantages(advantages, [0.5 / d, -0.5 / d, -0.5 / d, 0.5 / d, -1 / d, 1 / d]);
  });

  it("scale 'none' and dr-grpo subtract the group mean only", () => {
    const expected = [0.5, -0.5, 0.7, -0.5, 0, 0.5, 0, 0];
    expectAdvantages(createGrpo({ scale: 'none' }).estimate(batch).advantages, expected);
    expectAdvantages(createDrGrpo().estimate(batch).advantages, expected);
    expectAdvantages(
      createDrGrpo({ singleton: 'zero' }).estimate(batch).advantages,
      [0.5, -0.5, 0, -0.5, 0, 0.5, 0, 0],
    );
  });

  it('gives non-finite scores 0, leaves them out of the group, and counts them', () => {
    // Group 1 without the NaN: [1, 0, 1] → mean 2/3, Σd² = 1/9 + 4/9 + 1/9 = 2/3, unbiased std = sqrt(1/3).
    const { advantages, metrics } = createGrpo().estimate({
      scores: [1, Number.NaN, 0, 1, Number.POSITIVE_INFINITY],
      groupIds: [1, 1, 1, 1, 2],
    });
    const sd = Math.sqrt(1 / 3) + 1e-6;
    expectAdvantages(advantages, [1 / 3 / sd, 0, -2 / 3 / sd, 1 / 3 / sd, 0]);
    expect(metrics.nonfinite).toBe(2);
    expect(metrics.groups).toBe(1);
  });

  it('decides all-pass / all-fail on `successes` when given, not on the score', () => {
    const { metrics } = createGrpo().estimate({
      scores: [0.9, 0.8, 0.1, 0.2],
      groupIds: [1, 1, 2, 2],
      successes: [true, true, 0, 0],
    });
    expect(metrics).toMatchObject({ groups_all_pass: 1, groups_all_fail: 1, frac_zero_std: 0 });
  });

  it('rejects bad options naming them', () => {
    expect(() => createGrpo({ epsilon: -1 })).toThrow(/options\.epsilon.*>= 0, got -1/);
    expect(() => createGrpo({ preset: 'openrlhf' as never })).toThrow(InvalidArgumentError);
    expect(() => createGrpo({ epsilion: 1e-6 } as never)).toThrow(/grpo has no option "epsilion"/);
    expect(() => createGrpo({ std: 'biased' as never })).toThrow(/options\.std/);
  });
});

const groupedScores = fc
  .array(
    fc.record({
      group: fc.integer({ min: 0, max: 5 }),
      score: fc.double({ min: -10, max: 10, noNaN: true }),
    }),
    {
      minLength: 1,
      maxLength: 40,
    },
  )
  .map((rows) => ({ scores: rows.map((r) => r.score), groupIds: rows.map((r) => r.group) }));

describe('grpo properties', () => {
  it('is invariant to shifting every score by a constant (groups of two or more, or singleton zero)', () => {
    fc.assert(
      fc.property(
        groupedScores,
        fc.double({ min: -100, max: 100, noNaN: true }),
        fc.constantFrom('verl', 'trl', 'art'),
        (b, shift, preset) => {
          const estimator = createGrpo({ preset, singleton: 'zero' });
          const a = estimator.estimate(b).advantages;
          const shifted = estimator.estimate({ ...b, scores: b.scores.map((s) => s + shift) }).advantages;
          a.forEach((v, i) => {
            expect(Math.abs(v - (shifted[i] as number))).toBeLessThan(1e-6 * Math.max(1, Math.abs(v)));
          });
        },
      ),
    );
  });

  it('sums to zero within each group (group scale, one-sample groups zero)', () => {
    fc.assert(
      fc.property(groupedScores, fc.constantFrom('verl', 'trl', 'art'), (b, preset) => {
        const { advantages } = createGrpo({ preset, singleton: 'zero' }).estimate(b);
        const sums = new Map<number, number>();
        b.groupIds.forEach((g, i) => {
          sums.set(g, (sums.get(g) ?? 0) + (advantages[i] as number));
        });
        for (const sum of sums.values()) expect(Math.abs(sum)).toBeLessThan(1e-9 * b.scores.length);
      }),
    );
  });

  it('gives the same advantages for integer ids (look-up table) and string ids (Map)', () => {
    fc.assert(
      fc.property(groupedScores, (b) => {
        const viaTable = createGrpo().estimate({ ...b, groupIds: Int32Array.from(b.groupIds) }).advantages;
        const viaMap = createGrpo().estimate({ ...b, groupIds: b.groupIds.map((g) => `g${g}`) }).advantages;
        expect(viaTable).toEqual(viaMap);
      }),
    );
  });

  it('gives the same advantages whether groups are contiguous runs or scattered', () => {
    fc.assert(
      fc.property(groupedScores, fc.constantFrom('verl', 'trl', 'art'), (b, preset) => {
        const order = b.scores
          .map((_, i) => i)
          .sort((i, j) => (b.groupIds[i] as number) - (b.groupIds[j] as number) || i - j);
        const runs = createGrpo({ preset }).estimate({
          scores: order.map((i) => b.scores[i] as number),
          groupIds: order.map((i) => b.groupIds[i] as number),
        });
        const scattered = createGrpo({ preset }).estimate(b);
        order.forEach((i, k) => {
          expect(Math.abs((runs.advantages[k] as number) - (scattered.advantages[i] as number))).toBeLessThan(
            1e-9,
          );
        });
        expect(runs.metrics).toEqual(scattered.metrics);
      }),
    );
  });

  it('matches a straightforward reference implementation of verl', () => {
    fc.assert(
      fc.property(groupedScores, (b) => {
        const groups = new Map<number, number[]>();
        b.groupIds.forEach((g, i) => {
          groups.set(g, [...(groups.get(g) ?? []), b.scores[i] as number]);
        });
        const expected = b.scores.map((s, i) => {
          const xs = groups.get(b.groupIds[i] as number)!;
          if (xs.length === 1) return s / (1 + 1e-6);
          const mean = xs.reduce((p, x) => p + x, 0) / xs.length;
          const sd = Math.sqrt(xs.reduce((p, x) => p + (x - mean) ** 2, 0) / (xs.length - 1));
          return (s - mean) / (sd + 1e-6);
        });
        const { advantages } = createGrpo().estimate(b);
        expected.forEach((e, i) => {
          expect(Math.abs((advantages[i] as number) - e)).toBeLessThan(1e-6 * Math.max(1, Math.abs(e)));
        });
      }),
    );
  });
});

describe('dr-grpo presets', () => {
  it('take only the one-sample rule from a preset (verl raw, TRL and ART zero); never a std division', () => {
    const b = { scores: [1, 0, 0.7], groupIds: [1, 1, 2] };
    expectAdvantages(createDrGrpo().estimate(b).advantages, [0.5, -0.5, 0.7]);
    expectAdvantages(createDrGrpo({ preset: 'verl' }).estimate(b).advantages, [0.5, -0.5, 0.7]);
    expectAdvantages(createDrGrpo({ preset: 'trl' }).estimate(b).advantages, [0.5, -0.5, 0]);
    expectAdvantages(createDrGrpo({ preset: 'art' }).estimate(b).advantages, [0.5, -0.5, 0]);
    expectAdvantages(
      createDrGrpo({ preset: 'art', singleton: 'raw' }).estimate(b).advantages,
      [0.5, -0.5, 0.7],
    );
    expect(() => createDrGrpo({ std: 'population' } as never)).toThrow(/options\.std/);
  });
});
