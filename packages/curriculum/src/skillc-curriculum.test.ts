import { InvalidArgumentError, type ValidationResult } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attributionRatio } from './attribution-ratio.js';
import { restoreCurriculum } from './restore-curriculum.js';
import {
  createSkillcCurriculum,
  type SkillcCurriculum,
  type SkillcCurriculumJSON,
} from './skillc-curriculum.js';

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
    // pick: Δ = 0 → Δ̄ = 0.009: the old rule (Δ̄ < τ after 16 episodes a side) retired it here; two
    // validations of 8 a side are not the 36 the retirement bound needs, so it stays.
    s = c.observe(v(10, { heat: [0.8, 0.6], pick: [0.5, 0.5] }));
    expect(c.smoothedGaps().heat).toBeCloseTo(0.38, 12);
    expect(s.lambda.heat).toBeCloseTo(0.95, 12);
    expect(s.rho.heat).toBeCloseTo(0.48125, 12);
    expect(s.retired).toEqual([]);
    expect(c.smoothedGaps().pick).toBeCloseTo(0.009, 12);
    expect(s.lambda.pick).toBeCloseTo(0.009 / 0.125, 12);
    // Δ = −0.2 → Δ̄ = 0.9·0.38 − 0.02 = 0.322 → ratio 0.805 → ρ = 0.125 + 0.375·0.805 = 0.426875.
    s = c.observe(v(20, { heat: [0.7, 0.9], pick: [1, 0] }));
    expect(s.lambda.heat).toBeCloseTo(0.805, 12);
    expect(s.rho.heat).toBeCloseTo(0.426875, 12);
    expect(s.retired).toEqual([]);
    expect(c.evidence().heat).toMatchObject({
      validations: 3,
      withSkillEpisodes: 24,
      withoutSkillEpisodes: 24,
    });
    // heat's pool: 0.8·8 + 0.8·8 + 0.7·8 → 6 + 6 + 6 (rounded counts) = 18/24 with, 3 + 5 + 7 = 15/24 without.
    expect(c.evidence().heat?.pool).toMatchObject({
      validations: 3,
      withSkill: { successes: 18, episodes: 24 },
      withoutSkill: { successes: 15, episodes: 24 },
    });
  });

  it('retires on information: a truly closed gap at 8 a side in 6 validations, never on all-fail ones (golden)', () => {
    // Defaults: τ = 0.15, z = 1.2816, minEvidence = 36 per side, minSkillRate 0.5, confirmations 2.
    const c = createSkillcCurriculum({ families: ['pick'] });
    expect((c.toJSON() as SkillcCurriculumJSON).options).toMatchObject({
      tau: 0.15,
      boundZ: 1.2816,
      minEvidence: 36,
      minSkillSuccesses: 1,
      minSkillRate: 0.5,
      confirmations: 2,
    });
    // 4/8 vs 4/8 each time (the widest case, p = ½). Validations 1–4 pool at most 32 a side (< 36); the
    // fifth pools 20/40 vs 20/40: Wilson at z = 1.2816 gives 0.5 ± 0.0993, Newcombe's upper bound
    // √2 · 0.0993 = 0.1404 < 0.15, a first pass; the sixth passes again → retired at step 50.
    const active = [0, 10, 20, 30, 40, 50].map((t) => c.observe(v(t, { pick: [0.5, 0.5] })).active.length);
    expect(active).toEqual([1, 1, 1, 1, 1, 0]);
    expect(c.retirements()).toEqual([{ family: 'pick', step: 50 }]);
    expect(c.evidence().pick?.pool?.upper).toBeCloseTo(0.1404, 4);

    // The demo's case: 0/8 vs 0/8 says nothing — the interval is narrow around 0, but no with-skill
    // success was seen. Never retired, however many (the old rule retired it at step 10).
    const zero = createSkillcCurriculum({ families: ['pick'] });
    for (let t = 0; t <= 360; t += 10) expect(zero.observe(v(t, { pick: [0, 0] })).active).toEqual(['pick']);
    expect(zero.evidence().pick?.pool).toMatchObject({ validations: 5, gap: 0 });
    expect(zero.evidence().pick?.pool?.upper).toBeLessThan(0.15);

    // Pick2's start: its skill helps to 1/8 and the policy alone to 0/8. 5/40 with-skill successes, but
    // the bound (0.125 + 0.08 = 0.21) is above τ: the skill still adds something, kept. Even with no rate
    // floor it is kept on the bound alone.
    for (const minSkillRate of [0.5, 0]) {
      const pick2 = createSkillcCurriculum({ families: ['pick2'], minSkillRate });
      for (let t = 0; t <= 100; t += 10) pick2.observe(v(t, { pick2: [0.125, 0] }));
      expect(pick2.state().active).toEqual(['pick2']);
      expect(pick2.evidence().pick2?.pool?.upper).toBeGreaterThan(0.15);
    }
    // Measured at 360 steps (seed 1): pick2 at 12 % with its skill, 7 % without, bounds below τ; the rate
    // floor keeps it (retired, it ended 5 points lower on its held-out test).
    const hard = (minSkillRate: number) => {
      const c = createSkillcCurriculum({ families: ['pick2'], minSkillRate });
      for (let t = 0; t <= 60; t += 10) c.observe(v(t, { pick2: [0.125, 0.125] }));
      return c.state().active;
    };
    expect(hard(0.5)).toEqual(['pick2']);
    expect(hard(0)).toEqual([]);

    // A closed gap on a skill that hardly works yet: 3/40 vs 3/40 bounds at ≈ 0.09 < τ, but the skill works
    // 7.5 % of the time, below minSkillRate 0.5: kept. With minSkillRate 0 it retires at the sixth validation.
    const rare = (rate?: number) => {
      const r = createSkillcCurriculum({
        families: ['k'],
        ...(rate === undefined ? {} : { minSkillRate: rate }),
      });
      const counts = [1, 0, 1, 0, 1, 0];
      return counts.map((k, i) => r.observe(v(10 * i, { k: [k / 8, k / 8] })).active.length);
    };
    expect(rare()).toEqual([1, 1, 1, 1, 1, 1]);
    expect(rare(0)).toEqual([1, 1, 1, 1, 1, 0]);

    // The bound pools the latest validations only: a large gap long ago is forgotten once 36 a side of
    // newer evidence exist. 8/8 vs 0/8 four times, then 6/8 vs 6/8: at step 80 the pool is the last five
    // (a first pass), at step 90 again → retired.
    const closing = createSkillcCurriculum({ families: ['heat'] });
    const seen = [];
    for (let t = 0; t <= 90; t += 10) {
      seen.push(closing.observe(v(t, { heat: t < 40 ? [1, 0] : [0.75, 0.75] })).active.length);
    }
    expect(seen).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);
    expect(closing.retirements()).toEqual([{ family: 'heat', step: 90 }]);

    // 4 episodes a side per validation: 36 a side first holds at the ninth validation, the second pass
    // at the tenth (step 90).
    const small = createSkillcCurriculum({ families: ['pick'] });
    const steps = Array.from({ length: 10 }, (_, i) => small.observe(v(10 * i, { pick: [0.5, 0.5, 4, 4] })));
    expect(steps.map((x) => x.active.length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);

    // Per side: 40 with-skill but 20 skill-free episodes is not enough on the skill-free side.
    const lopsided = createSkillcCurriculum({ families: ['pick'] });
    for (const t of [0, 10, 20, 30, 40, 50]) lopsided.observe(v(t, { pick: [0.5, 0.5, 8, 4] }));
    expect(lopsided.state().active).toEqual(['pick']);

    // A family without a skill ran no with-skill episode: withSkill is a placeholder, so it is no
    // evidence at all — no smoothing, no count, no retirement, however many validations.
    const noSkill = createSkillcCurriculum({ families: ['look'] });
    for (const t of [0, 10, 20, 30, 40, 50]) noSkill.observe(v(t, { look: [0.5, 0.5, 0, 8] }));
    expect(noSkill.smoothedGaps()).toEqual({ look: null });
    expect(noSkill.evidence().look).toEqual({
      validations: 0,
      withSkillEpisodes: 0,
      withoutSkillEpisodes: 0,
      pool: null,
    });
    expect(noSkill.state()).toMatchObject({ active: ['look'], lambda: { look: 1 }, rho: { look: 0.25 } });
  });

  it('retires once the upper bound is below τ, not at it; τ and boundZ set how sure', () => {
    // 8/8 vs 8/8: Wilson's lower end at n = 40, z = 1 is 40/41, so the bound is 1/41 = 0.02439….
    const at = (tau: number) => {
      const c = createSkillcCurriculum({
        families: ['cool'],
        tau,
        boundZ: 1,
        minEvidence: 40,
        confirmations: 1,
      });
      for (const t of [0, 10, 20, 30, 40]) c.observe(v(t, { cool: [1, 1] }));
      return c.state().active;
    };
    expect(at(1 / 41)).toEqual(['cool']);
    expect(at(1 / 41 + 1e-9)).toEqual([]);
    // A stricter z widens the bound: at z = 3 the fifth validation of 4/8 vs 4/8 does not retire.
    const strict = createSkillcCurriculum({
      families: ['cool'],
      boundZ: 3,
      minEvidence: 40,
      confirmations: 1,
    });
    for (const t of [0, 10, 20, 30, 40]) strict.observe(v(t, { cool: [0.5, 0.5] }));
    expect(strict.state().active).toEqual(['cool']);
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
    // Fixed ρ still retires on the same evidence (6 validations of 4/8 vs 4/8, as above).
    const fixedClosed = createSkillcCurriculum({ families: ['heat'], fixedRho: 0.5 });
    for (const t of [0, 10, 20, 30, 40]) fixedClosed.observe(v(t, { heat: [0.5, 0.5] }));
    expect(fixedClosed.observe(v(50, { heat: [0.5, 0.5] })).retired).toEqual(['heat']);
    const noPrune = createSkillcCurriculum({ families: ['heat'], prune: false });
    for (const t of [0, 10, 20, 30])
      expect(noPrune.observe(v(t, { heat: [0.1, 0.9] })).active).toEqual(['heat']);
  });

  it('never retires on all-fail validations, however many, with any options (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(count, count), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 0, max: 40 }),
        fc.double({ min: 0.001, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 4, noNaN: true }),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        (counts, minEvidence, tau, boundZ, alpha) => {
          const c = createSkillcCurriculum({ families: ['k'], minEvidence, tau, boundZ, alpha });
          for (const [i, [nw, nwo]] of counts.entries()) {
            expect(c.observe(v(10 * i, { k: [0, 0, nw, nwo] })).retired).toEqual([]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never retires on one validation, nor on less pooled evidence than minEvidence a side (property)', () => {
    fc.assert(
      fc.property(
        fc.tuple(rate, rate, count, count),
        fc.array(fc.tuple(rate, rate, count, count), { maxLength: 12 }),
        fc.integer({ min: 0, max: 60 }),
        fc.double({ min: 0.001, max: 1, noNaN: true }),
        (first, more, minEvidence, tau) => {
          // Even with the loosest rule (any bound, one success), one validation never retires.
          const loose = {
            families: ['k'],
            minEvidence,
            tau,
            boundZ: 0,
            minSkillRate: 0,
            confirmations: 1,
          };
          const once = createSkillcCurriculum(loose);
          expect(once.observe(v(0, { k: first })).retired).toEqual([]);
          // With the defaults, a type retires only once its pool holds minEvidence episodes on each side.
          const c = createSkillcCurriculum({ families: ['k'] });
          for (const [i, r] of [first, ...more].entries()) {
            const s = c.observe(v(10 * i, { k: r }));
            const pool = c.evidence().k?.pool;
            if (s.retired!.length > 0 && c.retirements()[0]?.step === 10 * i) {
              expect(pool!.withSkill.episodes).toBeGreaterThanOrEqual(36);
              expect(pool!.withoutSkill.episodes).toBeGreaterThanOrEqual(36);
              expect(pool!.withSkill.successes).toBeGreaterThanOrEqual(0.5 * pool!.withSkill.episodes);
              expect(pool!.upper).toBeLessThan(0.15);
              expect(pool!.validations).toBeGreaterThanOrEqual(2);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('always retires a truly closed gap by the sixth validation at the bench size, 8 a side (property)', () => {
    fc.assert(
      fc.property(
        // Equal counts on both sides (the gap is exactly 0), on a skill that works half the time or more.
        fc.array(fc.integer({ min: 4, max: 8 }), { minLength: 6, maxLength: 6 }),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        fc.option(fc.double({ min: -1, max: 1, noNaN: true }), { nil: undefined }),
        (successes, alpha, optimisticStart) => {
          const c = createSkillcCurriculum({
            families: ['k'],
            alpha,
            ...(optimisticStart === undefined ? {} : { optimisticStart }),
          });
          const active = successes.map((k, i) => c.observe(v(10 * i, { k: [k / 8, k / 8] })).active.length);
          expect(active).toEqual([1, 1, 1, 1, 1, 0]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('retires by sampling noise as the interval says: closed gaps soon, open gaps almost never (seeded)', () => {
    // Binomial draws, seeded: each validation draws 8 episodes a side at the true success rates.
    let state = 12345;
    const uniform = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 2 ** 32;
    };
    const draw = (p: number) => Array.from({ length: 8 }, () => uniform() < p).filter(Boolean).length;
    const retiredBy = (p1: number, p0: number, validations: number, runs: number) => {
      let retired = 0;
      for (let r = 0; r < runs; r++) {
        const c = createSkillcCurriculum({ families: ['k'] });
        for (let i = 0; i < validations; i++) c.observe(v(10 * i, { k: [draw(p1) / 8, draw(p0) / 8] }));
        if ((c.state().retired?.length ?? 0) > 0) retired++;
      }
      return retired / runs;
    };
    const rates = {
      closedMid: retiredBy(0.6, 0.6, 10, 400),
      closedMidLater: retiredBy(0.6, 0.6, 16, 400),
      closedHigh: retiredBy(0.9, 0.9, 10, 400),
      open30: retiredBy(0.6, 0.3, 36, 400),
      hardClosed: retiredBy(0.3, 0.3, 36, 400),
      pick2: retiredBy(0.06, 0, 36, 400),
    };
    // A closed gap at p = 0.6 (near the widest case) retires within 10 validations in most runs, within 16
    // in nearly all …
    expect(rates.closedMid).toBeGreaterThan(0.6);
    expect(rates.closedMidLater).toBeGreaterThan(0.8);
    // … a closed gap at p = 0.9 likewise …
    expect(rates.closedHigh).toBeGreaterThan(0.75);
    // … a skill that still adds 30 points (0.6 vs 0.3) rarely, in 36 validations (360 steps) …
    expect(rates.open30).toBeLessThan(0.08);
    // … and a skill that works 30 % of the time, or pick2's 6 % at its start, never: not yet a skill that
    // works, so not one the policy has shown it no longer needs.
    expect(rates.hardClosed).toBeLessThan(0.01);
    expect(rates.pick2).toBe(0);
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
          const original = createSkillcCurriculum({
            families: ['x'],
            tau: 0.3,
            minEvidence: 10,
            minSkillRate: 0,
          });
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
    const c = restoreCurriculum(old) as SkillcCurriculum;
    expect(c.state().retired).toEqual(['pick']); // retired stays retired
    const json = c.toJSON() as SkillcCurriculumJSON;
    // Its stored τ is kept; what it lacks takes the defaults, minEvidence derived from that τ and z.
    expect(json.options).toMatchObject({ tau: 0.02, gapFloor: 0.125, boundZ: 1.2816, minSkillRate: 0.5 });
    expect(json.options.minEvidence).toBeGreaterThan(1000);
    expect(json.families.heat).toMatchObject({ withSkillEpisodes: 0, withoutSkillEpisodes: 0, recent: [] });
    expect(c.observe(v(20, { heat: [0.5, 0.5] })).active).toEqual(['heat']);
    expect(c.evidence().heat?.pool).toMatchObject({
      validations: 1,
      withSkill: { successes: 4, episodes: 8 },
    });
    const bad = JSON.parse(JSON.stringify(json)) as SkillcCurriculumJSON;
    (bad.families.heat as { withSkillEpisodes: number }).withSkillEpisodes = -2;
    expect(() => restoreCurriculum(bad)).toThrow(/families\.heat\.withSkillEpisodes/);
    const badPool = JSON.parse(JSON.stringify(c.toJSON())) as SkillcCurriculumJSON;
    (badPool.families.heat as { recent: unknown }).recent = [[5, 4, 0, 8]];
    expect(() => restoreCurriculum(badPool)).toThrow(/families\.heat\.recent/);
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
    expect(() => createSkillcCurriculum({ families: ['a'], minSkillSuccesses: 0 })).toThrow(
      /options\.minSkillSuccesses.*0\/n vs 0\/n/,
    );
    expect(() => createSkillcCurriculum({ families: ['a'], boundZ: -1 })).toThrow(/options\.boundZ/);
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
    expect(c.evidence().a).toEqual({
      validations: 0,
      withSkillEpisodes: 0,
      withoutSkillEpisodes: 0,
      pool: null,
    });
    expect(c.smoothedGaps().a).toBeNull();

    c.observe(v(10, { a: [1, 0] }));
    expect(() => c.observe(v(5, { a: [1, 0] }))).toThrow(/went backwards/);
    expect(c.validationDue(20)).toBe(true);
    expect(c.validationDue(25)).toBe(false);
  });
});

describe('holdUntilSkillWorks (issue 38: Pick2)', () => {
  it('keeps a type whose skill does not work yet at the full λ and ρ_max; once it works, the schedule as without the option', () => {
    // Pick2-like: 1 of 8 with the skill at step 0 (Δ̄_first = 0.125), then 0 of 8 on both sides ten times.
    // Without the option the gap decays as 0.125·0.9^k and is read as internalization: r = 0.9^10.
    const held = createSkillcCurriculum({ families: ['pick2'], holdUntilSkillWorks: true, prune: false });
    const plain = createSkillcCurriculum({ families: ['pick2'], prune: false });
    for (const c of [held, plain]) c.observe(v(0, { pick2: [0.125, 0] }));
    let h = held.state();
    let p = plain.state();
    for (let t = 10; t <= 100; t += 10) {
      h = held.observe(v(t, { pick2: [0, 0] }));
      p = plain.observe(v(t, { pick2: [0, 0] }));
    }
    expect(p.lambda.pick2).toBeCloseTo(0.9 ** 10, 10);
    expect(p.rho.pick2).toBeCloseTo(0.125 + 0.125 * 0.9 ** 10, 10);
    expect(h.lambda.pick2).toBe(1);
    expect(h.rho.pick2).toBe(0.25);
    // The skill starts to work: 6 of 8 on both sides, five validations (40 per side ≥ minEvidence 36, rate
    // 0.75 ≥ minSkillRate 0.5). From then on both follow the same smoothed gap: 0.125·0.9^15 over 0.125.
    for (let t = 110; t <= 150; t += 10) {
      h = held.observe(v(t, { pick2: [0.75, 0.75] }));
      p = plain.observe(v(t, { pick2: [0.75, 0.75] }));
    }
    expect(h.lambda.pick2).toBeCloseTo(0.9 ** 15, 10);
    expect(h.lambda.pick2).toBeCloseTo(p.lambda.pick2 ?? Number.NaN, 12);
    expect(h.rho.pick2).toBeCloseTo(p.rho.pick2 ?? Number.NaN, 12);
  });

  it('survives a checkpoint: restored, the option holds', () => {
    const c = createSkillcCurriculum({ families: ['pick2'], holdUntilSkillWorks: true });
    c.observe(v(0, { pick2: [0.125, 0] }));
    for (let t = 10; t <= 50; t += 10) c.observe(v(t, { pick2: [0, 0] }));
    const restored = restoreCurriculum(JSON.parse(JSON.stringify(c.toJSON())));
    expect(restored.state().lambda.pick2).toBe(1);
    // A checkpoint written before the option existed restores with it off.
    const old = JSON.parse(JSON.stringify(c.toJSON())) as SkillcCurriculumJSON;
    delete (old.options as Partial<SkillcCurriculumJSON['options']>).holdUntilSkillWorks;
    expect(restoreCurriculum(old as never).state().lambda.pick2).toBeLessThan(1);
  });
});
