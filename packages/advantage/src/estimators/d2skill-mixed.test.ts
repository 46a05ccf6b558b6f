import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectAdvantages } from '../test-support.js';
import { createD2SkillMixed } from './d2skill-mixed.js';
import { createGrpo } from './grpo.js';

describe('d2skill-mixed', () => {
  // z=1 [1, 1], z=0 [1, 0]: s̄0 = 0.5.
  const batch = { scores: [1, 1, 1, 0], groupIds: [1, 1, 1, 1], conditions: [1, 1, 0, 0] };

  it('adds c·(s − s̄0) to every rollout, then normalises over the mixed group', () => {
    // Shaped [1.5, 1.5, 1.5, −0.5]: mean 1, deviations [0.5, 0.5, 0.5, −1.5], Σd² = 3, unbiased std 1.
    const { advantages, metrics } = createD2SkillMixed().estimate(batch);
    const d = 1 + 1e-6;
    expectAdvantages(advantages, [0.5 / d, 0.5 / d, 0.5 / d, -1.5 / d]);
    expect(metrics.intrinsic_mean).toBeCloseTo(0.25, 14);
    // Bookkeeping on the outcome: one mixed group, not all-pass even though the shaped rewards differ.
    expect(metrics).toMatchObject({ groups_all_pass: 0, groups_all_fail: 0, frac_zero_std: 0 });
  });

  it("with intrinsicOn 'skill' shapes only the rollouts with the skill", () => {
    // Shaped [1.5, 1.5, 1, 0]: mean 1, deviations [0.5, 0.5, 0, −1], Σd² = 1.5, unbiased std sqrt(0.5).
    const d = Math.sqrt(0.5) + 1e-6;
    expectAdvantages(createD2SkillMixed({ intrinsicOn: 'skill' }).estimate(batch).advantages, [
      0.5 / d,
      0.5 / d,
      0,
      -1 / d,
    ]);
  });

  it('takes std, ε and the one-sample rule from a preset; options beside it override it', () => {
    // Shaped [1.5, 1.5, 1.5, −0.5] as above (Σd² = 3): population std sqrt(0.75) (art), ε 1e-4 (trl).
    const art = Math.sqrt(0.75) + 1e-6;
    expectAdvantages(createD2SkillMixed({ preset: 'art' }).estimate(batch).advantages, [
      0.5 / art,
      0.5 / art,
      0.5 / art,
      -1.5 / art,
    ]);
    const trl = 1 + 1e-4;
    expectAdvantages(createD2SkillMixed({ preset: 'trl' }).estimate(batch).advantages, [
      0.5 / trl,
      0.5 / trl,
      0.5 / trl,
      -1.5 / trl,
    ]);
    // A one-sample group without a no-skill rollout keeps its raw score under verl's rule, 0 by default.
    const lone = { scores: [0.7], groupIds: [1], conditions: [1] };
    expectAdvantages(createD2SkillMixed({ preset: 'verl' }).estimate(lone).advantages, [0.7 / (1 + 1e-6)]);
    expectAdvantages(createD2SkillMixed().estimate(lone).advantages, [0]);
    expectAdvantages(
      createD2SkillMixed({ preset: 'verl', singleton: 'zero' }).estimate(lone).advantages,
      [0],
    );
  });

  it('with 0/1 rewards and the intrinsic reward on every rollout, it is GRPO over the mixed group', () => {
    // r + c·(r − s̄0) = (1 + c)·r − c·s̄0 is affine within a group, so normalisation erases it, up to ε:
    // (1 + c)·d / ((1 + c)·σ + ε) against d / (σ + ε), a relative difference below ε/σ ≈ 1e-5.
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 0, max: 1 })), {
          minLength: 2,
          maxLength: 16,
        }),
        fc.double({ min: 0, max: 4, noNaN: true }),
        (rows, c) => {
          const batch = {
            scores: rows.map((r) => r[0]),
            groupIds: rows.map(() => 'task'),
            conditions: rows.map((r) => r[1]),
          };
          const mixed = createD2SkillMixed({ c }).estimate(batch).advantages;
          const grpo = createGrpo({ singleton: 'zero' }).estimate(batch).advantages;
          for (const [i, a] of mixed.entries()) expect(a).toBeCloseTo(grpo[i] as number, 4);
        },
      ),
    );
  });
});
