import { InvalidArgumentError, type ValidationResult } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attributionRatio } from './attribution-ratio.js';
import { restoreCurriculum } from './restore-curriculum.js';
import { createSkillcCurriculum, type SkillcCurriculumJSON } from './skillc-curriculum.js';

/** [withSkill, withoutSkill, withSkillEpisodes = 8, withoutSkillEpisodes = 8] per family. */
type Entry = [number, number, number?, number?];
const v = (step: number, families: Record<string, Entry>): ValidationResult => ({
  step,
  families: Object.fromEntries(
    Object.entries(families).map(([f, [w, wo, nw = 8, nwo = 8]]) => [
      f,
      { withSkill: w, withoutSkill: wo, withSkillEpisodes: nw, withoutSkillEpisodes: nwo },
    ]),
  ),
});

const rate = fc.double({ min: 0, max: 1, noNaN: true });
const count = fc.integer({ min: 0, max: 12 });

describe('SKILLC curriculum', () => {
  it('follows the smoothed-gap formulas from the step-0 validation (hand-computed)', () => {
    // ρ_max 0.5 as in the paper-style even split (the default is 0.25, checked below).
    const c = createSkillcCurriculum({ families: ['heat', 'pick'], rhoMax: 0.5 });
    expect(createSkillcCurriculum({ families: ['heat'] }).state().rho).toEqual({ heat: 0.25 });
    expect(c.validationDue(0)).toBe(true);
    // Before any validation every skill is assumed needed: λ_k = λ, ρ_k = ρ_max.
    expect(c.state()).toEqual({
      step: 0,
      lambda: { heat: 1, pick: 1 },
      rho: { heat: 0.5, pick: 0.5 },
      active: ['heat', 'pick'],
      retired: [],
    });
    // Step 0, before any update: Δ̄_first. heat: 0.8 − 0.4 = 0.4, ratio 1. pick: 0.01 < τ, but no type
    // retires on its first validation; its ratio is 0.01 / max(0.01, gapFloor 0.125) = 0.08.
    let s = c.observe(v(0, { heat: [0.8, 0.4], pick: [0.5, 0.49] }));
    expect(s.step).toBe(0);
    expect(s.lambda.heat).toBeCloseTo(1, 12);
    expect(s.rho.heat).toBeCloseTo(0.5, 12);
    expect(s.retired).toEqual([]);
    expect(s.lambda.pick).toBeCloseTo(0.08, 12);
    expect(s.rho.pick).toBeCloseTo(0.125 + 0.375 * 0.08, 12);
    // Step 10. heat: Δ = 0.2 → Δ̄ = 0.9·0.4 + 0.1·0.2 = 0.38 → ratio 0.95 → λ = 0.95, ρ = 0.48125.
    // pick: Δ = 0 → Δ̄ = 0.009 < τ, second validation, 16 episodes per side ≥ minEvidence → retired.
    s = c.observe(v(10, { heat: [0.8, 0.6], pick: [0.5, 0.5] }));
    expect(c.smoothedGaps().heat).toBeCloseTo(0.38, 12);
    expect(s.lambda.heat).toBeCloseTo(0.95, 12);
    expect(s.rho.heat).toBeCloseTo(0.48125, 12);
    expect(s.retired).toEqual(['pick']);
    expect(s.lambda.pick).toBe(0);
    expect(s.rho.pick).toBe(0);
    // Δ = −0.2 → Δ̄ = 0.9·0.38 − 0.02 = 0.322 → ratio 0.805 → ρ = 0.125 + 0.375·0.805 = 0.426875.
    // Retired for good: a large gap later does not bring pick back.
    s = c.observe(v(20, { heat: [0.7, 0.9], pick: [1, 0] }));
    expect(s.lambda.heat).toBeCloseTo(0.805, 12);
    expect(s.rho.heat).toBeCloseTo(0.426875, 12);
    expect(s.retired).toEqual(['pick']);
    expect(c.retirements()).toEqual([{ family: 'pick', step: 10 }]);
    expect(c.evidence()).toEqual({
      heat: { validations: 3, withSkillEpisodes: 24, withoutSkillEpisodes: 24 },
      pick: { validations: 2, withSkillEpisodes: 16, withoutSkillEpisodes: 16 },
    });
  });

  it('retires on evidence only: 0/8 vs 0/8 twice, per-side minimum, a side that ran nothing (golden)', () => {
    const zero: Entry = [0, 0, 8, 8];
    // The demo's case: 0/8 vs 0/8 says nothing on its own. First validation: kept, λ = 0 / 0.125 = 0.
    const c = createSkillcCurriculum({ families: ['pick'] });
    let s = c.observe(v(0, { pick: zero }));
    expect(s).toMatchObject({ active: ['pick'], lambda: { pick: 0 }, rho: { pick: 0.125 } });
    // Second: 16 per side = minEvidence, gap still 0 < τ → retired at step 10.
    s = c.observe(v(10, { pick: zero }));
    expect(s.retired).toEqual(['pick']);
    expect(c.retirements()).toEqual([{ family: 'pick', step: 10 }]);

    // minEvidence 24: 16 per side at step 10 is not enough; 24 at step 20 is.
    const strict = createSkillcCurriculum({ families: ['pick'], minEvidence: 24 });
    expect(strict.observe(v(0, { pick: zero })).active).toEqual(['pick']);
    expect(strict.observe(v(10, { pick: zero })).active).toEqual(['pick']);
    expect(strict.observe(v(20, { pick: zero })).retired).toEqual(['pick']);

    // 4 episodes per side per validation: 16 per side first holds at the fourth validation (step 30).
    const small = createSkillcCurriculum({ families: ['pick'] });
    const steps = [0, 10, 20, 30].map((t) => small.observe(v(t, { pick: [0, 0, 4, 4] })).active.length);
    expect(steps).toEqual([1, 1, 1, 0]);

    // Per side: 30 with-skill but 12 skill-free episodes is not enough on the skill-free side.
    const lopsided = createSkillcCurriculum({ families: ['pick'] });
    lopsided.observe(v(0, { pick: [0, 0, 15, 6] }));
    expect(lopsided.observe(v(10, { pick: [0, 0, 15, 6] })).active).toEqual(['pick']);
    expect(lopsided.observe(v(20, { pick: [0, 0, 15, 6] })).retired).toEqual(['pick']);

    // A family without a skill ran no with-skill episode: withSkill is a placeholder, so it is no
    // evidence at all — no smoothing, no count, no retirement, however many validations.
    const noSkill = createSkillcCurriculum({ families: ['look'] });
    for (const t of [0, 10, 20, 30]) noSkill.observe(v(t, { look: [0.5, 0.5, 0, 8] }));
    expect(noSkill.smoothedGaps()).toEqual({ look: null });
    expect(noSkill.evidence().look).toEqual({
      validations: 0,
      withSkillEpisodes: 0,
      withoutSkillEpisodes: 0,
    });
    expect(noSkill.state()).toMatchObject({ active: ['look'], lambda: { look: 1 }, rho: { look: 0.25 } });
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

  it('measures a first gap below gapFloor against the floor: λ and ρ move smoothly (golden)', () => {
    // First gap 0.0625 < gapFloor 0.125: r = 0.0625 / 0.125 = 0.5 (the old rule said 1).
    const small = createSkillcCurriculum({ families: ['heat'], rhoMax: 0.5 });
    expect(small.observe(v(0, { heat: [0.5625, 0.5] })).lambda.heat).toBe(0.5);
    expect(small.state().rho.heat).toBe(0.125 + 0.375 * 0.5);
    // A skill that hurt at first (Δ̄_first = −0.25): r = clip(Δ̄_t / 0.125, 0, 1), 0 while Δ̄_t ≤ 0 and rising
    // smoothly once a gap opens (the old rule jumped from 0 to 1 as soon as Δ̄_t > 0).
    const hurt = createSkillcCurriculum({ families: ['heat'], alpha: 0.5, prune: false, rhoMax: 0.5 });
    expect(hurt.observe(v(0, { heat: [0.25, 0.5] })).lambda.heat).toBe(0);
    expect(hurt.observe(v(10, { heat: [0.5, 0.25] })).lambda.heat).toBe(0); // Δ̄ = 0
    const s = hurt.observe(v(20, { heat: [0.375, 0.25] })); // Δ̄ = 0.0625 → r = 0.5
    expect(s.lambda.heat).toBe(0.5);
    expect(s.rho.heat).toBe(0.3125);
    // Either side of Δ̄_first = 0 gives (nearly) the same λ.
    const at = (first: number) =>
      createSkillcCurriculum({ families: ['k'] }).observe(v(0, { k: [0.5 + first, 0.5] })).lambda.k ??
      Number.NaN;
    expect(Math.abs(at(0.001) - at(-0.001))).toBeLessThanOrEqual(0.002 / 0.125 + 1e-12);
  });

  it("supports the paper's ablations: optimistic start, fixed ρ, no pruning", () => {
    // Optimistic: Δ̄_first = 1, Δ̄ = 0.9·1 + 0.1·0.4 = 0.94 → λ = 0.94 / max(1, 0.125) = 0.94.
    const optimistic = createSkillcCurriculum({ families: ['heat'], optimisticStart: 1 });
    expect(optimistic.observe(v(0, { heat: [0.8, 0.4] })).lambda.heat).toBeCloseTo(0.94, 12);
    const fixed = createSkillcCurriculum({ families: ['heat'], fixedRho: 0.5, rhoMax: 0.9 });
    fixed.observe(v(0, { heat: [0.8, 0.4] }));
    expect(fixed.observe(v(10, { heat: [0.5, 0.5] })).rho.heat).toBe(0.5);
    // Fixed ρ still retires on evidence.
    const fixedZero = createSkillcCurriculum({ families: ['heat'], fixedRho: 0.5 });
    fixedZero.observe(v(0, { heat: [0, 0] }));
    expect(fixedZero.observe(v(10, { heat: [0, 0] })).retired).toEqual(['heat']);
    const noPrune = createSkillcCurriculum({ families: ['heat'], prune: false });
    for (const t of [0, 10, 20, 30])
      expect(noPrune.observe(v(t, { heat: [0.1, 0.9] })).active).toEqual(['heat']);
  });

  it('retires a near-zero gap at the first validation with the evidence, never without it (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            base: fc.double({ min: 0.05, max: 0.9, noNaN: true }),
            delta: fc.double({ min: -0.01, max: 0.01, noNaN: true }),
            nw: count,
            nwo: count,
          }),
          { minLength: 1, maxLength: 20 },
        ),
        fc.integer({ min: 0, max: 40 }),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        (rounds, minEvidence, alpha) => {
          // |Δ̄| ≤ 0.01 < τ = 0.02 throughout: only the evidence rule decides.
          const c = createSkillcCurriculum({ families: ['k'], minEvidence, alpha });
          let measured = 0;
          let withN = 0;
          let withoutN = 0;
          let expected: number | null = null;
          rounds.forEach((r, i) => {
            if (r.nw > 0 && r.nwo > 0) {
              measured++;
              withN += r.nw;
              withoutN += r.nwo;
              if (expected === null && measured >= 2 && withN >= minEvidence && withoutN >= minEvidence)
                expected = i;
            }
            const s = c.observe(v(10 * i, { k: [r.base + r.delta, r.base, r.nw, r.nwo] }));
            expect(s.retired).toEqual(expected !== null && i >= expected ? ['k'] : []);
          });
          expect(c.retirements()).toEqual(expected === null ? [] : [{ family: 'k', step: 10 * expected }]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never retires with fewer than minEvidence episodes on a side (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(count, count), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 300 }),
        fc.boolean(),
        (counts, extra, short) => {
          const side = (i: 0 | 1) => counts.reduce((a, c) => a + c[i], 0);
          // minEvidence just above what one side (or both) will ever reach.
          const minEvidence = (short ? Math.min(side(0), side(1)) : Math.max(side(0), side(1))) + extra;
          const c = createSkillcCurriculum({ families: ['k'], minEvidence });
          for (const [i, [nw, nwo]] of counts.entries()) {
            expect(c.observe(v(i, { k: [0, 0, nw, nwo] })).retired).toEqual([]);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never brings a retired type back, and keeps λ and ρ in range (property)', () => {
    const families = ['a', 'b', 'c'];
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(rate, rate, count, count), { minLength: 3, maxLength: 3 }), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        fc.double({ min: -0.2, max: 0.3, noNaN: true }),
        fc.integer({ min: 0, max: 30 }),
        (rounds, alpha, tau, minEvidence) => {
          const c = createSkillcCurriculum({
            families,
            alpha,
            tau,
            minEvidence,
            rhoMin: 0.1,
            rhoMax: 0.7,
            lambda: 2,
          });
          let retired = new Set<string>();
          rounds.forEach((r, i) => {
            const s = c.observe(v(i * 10, { a: r[0]!, b: r[1]!, c: r[2]! }));
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

  it('the ratio is Lipschitz in Δ̄_t and Δ̄_first, across Δ̄_first ≤ 0 too (property)', () => {
    const gap = fc.double({ min: -1, max: 1, noNaN: true });
    const eps = fc.double({ min: -0.01, max: 0.01, noNaN: true });
    fc.assert(
      fc.property(gap, gap, eps, fc.double({ min: 0.01, max: 1, noNaN: true }), (t, first, e, floor) => {
        const r = attributionRatio(t, first, floor);
        expect(r).toBeGreaterThanOrEqual(0);
        expect(r).toBeLessThanOrEqual(1);
        expect(Math.abs(attributionRatio(t + e, first, floor) - r)).toBeLessThanOrEqual(
          Math.abs(e) / floor + 1e-12,
        );
        expect(Math.abs(attributionRatio(t, first + e, floor) - r)).toBeLessThanOrEqual(
          (Math.abs(t) * Math.abs(e)) / floor ** 2 + 1e-12,
        );
      }),
      { numRuns: 1000 },
    );
    expect(attributionRatio(null, null, 0.125)).toBe(1);
  });

  it('small changes of either validation give small changes of λ_k and ρ_k (property)', () => {
    // Two validations: Δ̄_first = g0, Δ̄_t = α·g0 + (1 − α)·g1; perturb g0 or g1 by ε. Half the draws put
    // a gap near 0, where a ratio without a floor has no limit.
    const g = fc.oneof(
      fc.double({ min: 0.03, max: 0.97, noNaN: true }),
      fc.double({ min: 0.47, max: 0.53, noNaN: true }),
    );
    fc.assert(
      fc.property(
        g,
        g,
        fc.double({ min: -0.02, max: 0.02, noNaN: true }),
        fc.boolean(),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        fc.double({ min: 0.02, max: 0.5, noNaN: true }),
        (w0, w1, e, perturbFirst, alpha, gapFloor) => {
          const opts = { families: ['k'], alpha, gapFloor, prune: false, lambda: 2 };
          const run = (d0: number, d1: number) => {
            const c = createSkillcCurriculum(opts);
            c.observe(v(0, { k: [w0 + d0, 0.5] }));
            return c.observe(v(10, { k: [w1 + d1, 0.5] }));
          };
          const a = run(0, 0);
          const b = perturbFirst ? run(e, 0) : run(0, e);
          // |Δr| ≤ |ΔΔ̄_t|/floor + |Δ̄_t|·|ΔΔ̄_first|/floor², with |Δ̄_t| ≤ 1.
          const bound = perturbFirst
            ? Math.abs(e) * (alpha / gapFloor + 1 / gapFloor ** 2)
            : (Math.abs(e) * (1 - alpha)) / gapFloor;
          expect(Math.abs(b.lambda.k! - a.lambda.k!)).toBeLessThanOrEqual(2 * bound + 1e-9);
          expect(Math.abs(b.rho.k! - a.rho.k!)).toBeLessThanOrEqual(0.375 * bound + 1e-9);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('round-trips through JSON: the restored curriculum continues identically (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(rate, rate, count, count), { minLength: 2, maxLength: 12 }),
        fc.integer({ min: 1, max: 10 }),
        (rounds, cut) => {
          const k = Math.min(cut, rounds.length - 1);
          const original = createSkillcCurriculum({ families: ['x'], tau: 0.05, minEvidence: 10 });
          for (const [i, r] of rounds.slice(0, k).entries()) original.observe(v(i, { x: r }));
          const json = JSON.parse(JSON.stringify(original.toJSON())) as SkillcCurriculumJSON;
          const restored = restoreCurriculum(json);
          expect(restored.state()).toEqual(original.state());
          expect(restored.toJSON()).toEqual(original.toJSON());
          rounds.slice(k).forEach((r, i) => {
            expect(restored.observe(v(k + i, { x: r }))).toEqual(original.observe(v(k + i, { x: r })));
          });
          expect(restored.toJSON()).toEqual(original.toJSON());
        },
      ),
      { numRuns: 150 },
    );
  });

  it('restores a checkpoint written before episode counts with 0 accumulated and the new defaults', () => {
    // The shape an earlier version wrote: no counts, no minEvidence, no gapFloor.
    const old = {
      kind: 'skillc',
      options: {
        families: ['heat', 'pick'],
        lambda: 1,
        alpha: 0.9,
        d: 10,
        tau: 0.02,
        rhoMin: 0.125,
        rhoMax: 0.5,
        fixedRho: null,
        prune: true,
        optimisticStart: null,
      },
      step: 10,
      families: {
        heat: { smoothed: 0.01, first: 0.01, retired: false, retiredAt: null, validations: 1 },
        pick: { smoothed: 0, first: 0, retired: true, retiredAt: 10, validations: 1 },
      },
    } as unknown as SkillcCurriculumJSON;
    const c = restoreCurriculum(old);
    expect(c.state().retired).toEqual(['pick']); // retired stays retired
    const json = c.toJSON() as SkillcCurriculumJSON;
    expect(json.options).toMatchObject({ minEvidence: 16, gapFloor: 0.125 });
    expect(json.families.heat).toMatchObject({ withSkillEpisodes: 0, withoutSkillEpisodes: 0 });
    // heat needs 16 fresh episodes per side: 8 at step 20 is not enough, 16 at step 30 is.
    expect(c.observe(v(20, { heat: [0.5, 0.5] })).active).toEqual(['heat']);
    expect(c.observe(v(30, { heat: [0.5, 0.5] })).retired).toEqual(['heat', 'pick']);
    const bad = JSON.parse(JSON.stringify(json)) as SkillcCurriculumJSON;
    (bad.families.heat as { withSkillEpisodes: number }).withSkillEpisodes = -2;
    expect(() => restoreCurriculum(bad)).toThrow(/families\.heat\.withSkillEpisodes/);
  });

  it('rejects bad options and bad validations, naming the field and the fix', () => {
    expect(() => createSkillcCurriculum({ families: [] })).toThrow(/options\.families/);
    expect(() => createSkillcCurriculum({ families: ['a'], alpha: 1.5 })).toThrow(/options\.alpha.*\[0, 1\]/);
    expect(() => createSkillcCurriculum({ families: ['a'], rhoMin: 0.8, rhoMax: 0.5 })).toThrow(
      /options\.rhoMin/,
    );
    expect(() => createSkillcCurriculum({ families: ['a'], d: 0 })).toThrow(/options\.d/);
    expect(() => createSkillcCurriculum({ families: ['a'], minEvidence: -1 })).toThrow(
      /options\.minEvidence/,
    );
    expect(() => createSkillcCurriculum({ families: ['a'], minEvidence: 2.5 })).toThrow(
      /options\.minEvidence/,
    );
    expect(() => createSkillcCurriculum({ families: ['a'], gapFloor: 0 })).toThrow(/options\.gapFloor/);
    const c = createSkillcCurriculum({ families: ['a'] });
    expect(() => c.observe(v(0, { a: [1.2, 0] }))).toThrow(/validation\.families\.a/);

    // A validation without the counts: typed, names the field, says how to fill it.
    let error: unknown;
    try {
      c.observe({ step: 0, families: { a: { withSkill: 1, withoutSkill: 0 } } } as never);
    } catch (e) {
      error = e;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe('validation.families.a.withSkillEpisodes');
    expect((error as Error).message).toMatch(/non-negative integer.*summariseValidation/);
    expect(() => c.observe(v(0, { a: [1, 0, 8, -1] }))).toThrow(
      /validation\.families\.a\.withoutSkillEpisodes.*non-negative integer, got -1/,
    );
    expect(() => c.observe(v(0, { a: [1, 0, 2.5, 8] }))).toThrow(/withSkillEpisodes.*got 2\.5/);
    const mismatched = v(0, { a: [1, 0, 8, 8] });
    mismatched.families.a!.episodes = 8;
    expect(() => c.observe(mismatched)).toThrow(/validation\.families\.a\.episodes.*= 16, got 8/);
    expect(() => c.observe({ step: -1, families: {} })).toThrow(/Invalid validation:/);
    // Nothing above changed the state.
    expect(c.evidence().a).toEqual({ validations: 0, withSkillEpisodes: 0, withoutSkillEpisodes: 0 });
    expect(c.smoothedGaps().a).toBeNull();

    c.observe(v(10, { a: [1, 0] }));
    expect(() => c.observe(v(5, { a: [1, 0] }))).toThrow(/went backwards/);
    expect(c.validationDue(20)).toBe(true);
    expect(c.validationDue(25)).toBe(false);
  });
});
