import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { restoreCurriculum } from './restore-curriculum.js';
import { createSkillcCurriculum, type SkillcCurriculumJSON } from './skillc-curriculum.js';

const v = (step: number, families: Record<string, [number, number]>) => ({
  step,
  families: Object.fromEntries(
    Object.entries(families).map(([f, [w, wo]]) => [f, { withSkill: w, withoutSkill: wo }]),
  ),
});

describe('SKILLC curriculum', () => {
  it('follows the smoothed-gap formulas (hand-computed)', () => {
    const c = createSkillcCurriculum({ families: ['heat', 'pick'] });
    // Before any validation every skill is assumed needed: λ_k = λ, ρ_k = ρ_max.
    expect(c.state()).toEqual({
      step: 0,
      lambda: { heat: 1, pick: 1 },
      rho: { heat: 0.5, pick: 0.5 },
      active: ['heat', 'pick'],
      retired: [],
    });
    // Δ_heat = 0.8 − 0.4 = 0.4 → Δ̄ = Δ̄_first = 0.4, ratio 1. Δ_pick = 0.01 < τ = 0.02 → retired at once.
    let s = c.observe(v(0, { heat: [0.8, 0.4], pick: [0.5, 0.49] }));
    expect(s.lambda.heat).toBeCloseTo(1, 12);
    expect(s.rho.heat).toBeCloseTo(0.5, 12);
    expect(s.retired).toEqual(['pick']);
    expect(s.lambda.pick).toBe(0);
    expect(s.rho.pick).toBe(0);
    // Δ = 0.2 → Δ̄ = 0.9·0.4 + 0.1·0.2 = 0.38 → ratio 0.95 → λ = 0.95, ρ = 0.125 + 0.375·0.95 = 0.48125.
    s = c.observe(v(10, { heat: [0.8, 0.6], pick: [1, 0] }));
    expect(c.smoothedGaps().heat).toBeCloseTo(0.38, 12);
    expect(s.lambda.heat).toBeCloseTo(0.95, 12);
    expect(s.rho.heat).toBeCloseTo(0.48125, 12);
    // Retired for good: a large gap later does not bring pick back.
    expect(s.retired).toEqual(['pick']);
    // Δ = −0.2 → Δ̄ = 0.9·0.38 − 0.02 = 0.322 → ratio 0.805 → ρ = 0.125 + 0.375·0.805 = 0.426875.
    s = c.observe(v(20, { heat: [0.7, 0.9] }));
    expect(s.lambda.heat).toBeCloseTo(0.805, 12);
    expect(s.rho.heat).toBeCloseTo(0.426875, 12);
    expect(c.retirements()).toEqual([{ family: 'pick', step: 0 }]);
  });

  it('retires a type once its smoothed gap falls below τ', () => {
    // Binary-exact numbers, so the boundary case Δ̄ = τ is tested exactly.
    const c = createSkillcCurriculum({ families: ['cool'], alpha: 0.5, tau: 0.125 });
    c.observe(v(0, { cool: [0.75, 0.25] })); // Δ̄ = 0.5
    c.observe(v(10, { cool: [0.5, 0.5] })); // Δ̄ = 0.25
    expect(c.state().active).toEqual(['cool']);
    c.observe(v(20, { cool: [0.5, 0.5] })); // Δ̄ = 0.125, not < τ
    expect(c.state().active).toEqual(['cool']);
    c.observe(v(30, { cool: [0.5, 0.5] })); // Δ̄ = 0.0625 < τ
    expect(c.state()).toMatchObject({ active: [], retired: ['cool'], rho: { cool: 0 }, lambda: { cool: 0 } });
  });

  it("supports the paper's ablations: optimistic start, fixed ρ, no pruning", () => {
    // Optimistic: Δ̄_first = 1, Δ̄ = 0.9·1 + 0.1·0.4 = 0.94 → λ = 0.94 at the first measurement.
    const optimistic = createSkillcCurriculum({ families: ['heat'], optimisticStart: 1 });
    expect(optimistic.observe(v(0, { heat: [0.8, 0.4] })).lambda.heat).toBeCloseTo(0.94, 12);
    const fixed = createSkillcCurriculum({ families: ['heat'], fixedRho: 0.5, rhoMax: 0.9 });
    fixed.observe(v(0, { heat: [0.8, 0.4] }));
    expect(fixed.observe(v(10, { heat: [0.5, 0.5] })).rho.heat).toBe(0.5);
    const noPrune = createSkillcCurriculum({ families: ['heat'], prune: false });
    expect(noPrune.observe(v(0, { heat: [0.1, 0.9] })).active).toEqual(['heat']);
  });

  it('never brings a retired type back, and keeps λ and ρ in range (property)', () => {
    const rate = fc.double({ min: 0, max: 1, noNaN: true });
    const families = ['a', 'b', 'c'];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(rate, rate, rate, rate, rate, rate), { minLength: 1, maxLength: 30 }),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        fc.double({ min: -0.2, max: 0.3, noNaN: true }),
        (rounds, alpha, tau) => {
          const c = createSkillcCurriculum({ families, alpha, tau, rhoMin: 0.1, rhoMax: 0.7, lambda: 2 });
          let retired = new Set<string>();
          rounds.forEach((r, i) => {
            const s = c.observe(v(i * 10, { a: [r[0], r[1]], b: [r[2], r[3]], c: [r[4], r[5]] }));
            const now = new Set(s.retired);
            for (const f of retired) expect(now.has(f)).toBe(true);
            for (const f of s.active) {
              expect(s.lambda[f]).toBeGreaterThanOrEqual(0);
              expect(s.lambda[f]).toBeLessThanOrEqual(2 + 1e-12);
              expect(s.rho[f]).toBeGreaterThanOrEqual(0.1 - 1e-12);
              expect(s.rho[f]).toBeLessThanOrEqual(0.7 + 1e-12);
            }
            expect([...s.active, ...s.retired!].sort()).toEqual(families);
            retired = now;
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('round-trips through JSON: the restored curriculum continues identically (property)', () => {
    const rate = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(rate, rate), { minLength: 2, maxLength: 12 }),
        fc.integer({ min: 1, max: 10 }),
        (rounds, cut) => {
          const k = Math.min(cut, rounds.length - 1);
          const original = createSkillcCurriculum({ families: ['x'], tau: 0.05 });
          for (const [i, r] of rounds.slice(0, k).entries()) original.observe(v(i, { x: r }));
          const json = JSON.parse(JSON.stringify(original.toJSON())) as SkillcCurriculumJSON;
          const restored = restoreCurriculum(json);
          expect(restored.state()).toEqual(original.state());
          expect(restored.toJSON()).toEqual(original.toJSON());
          rounds.slice(k).forEach((r, i) => {
            expect(restored.observe(v(k + i, { x: r }))).toEqual(original.observe(v(k + i, { x: r })));
          });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('rejects bad options and bad validations, naming the field', () => {
    expect(() => createSkillcCurriculum({ families: [] })).toThrow(/options\.families/);
    expect(() => createSkillcCurriculum({ families: ['a'], alpha: 1.5 })).toThrow(/options\.alpha.*\[0, 1\]/);
    expect(() => createSkillcCurriculum({ families: ['a'], rhoMin: 0.8, rhoMax: 0.5 })).toThrow(
      /options\.rhoMin/,
    );
    expect(() => createSkillcCurriculum({ families: ['a'], d: 0 })).toThrow(/options\.d/);
    const c = createSkillcCurriculum({ families: ['a'] });
    expect(() => c.observe(v(0, { a: [1.2, 0] }))).toThrow(/validation\.families\.a/);
    c.observe(v(10, { a: [1, 0] }));
    expect(() => c.observe(v(5, { a: [1, 0] }))).toThrow(/went backwards/);
    expect(c.validationDue(20)).toBe(true);
    expect(c.validationDue(25)).toBe(false);
  });
});
