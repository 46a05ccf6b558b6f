import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evidenceForBound, gapInterval, wilsonInterval } from './gap-bound.js';
import { retirementReach } from './skillc-curriculum.js';

const Z95 = 1.959964;

describe('gap bounds', () => {
  it("matches Newcombe (1998)'s published intervals, method 10 (golden)", () => {
    // Newcombe, Statistics in Medicine 17:873–890, Table II, 95 % intervals for θ = π1 − π2.
    const cases: [number, number, number, number, number, number][] = [
      [56, 70, 48, 80, 0.0524, 0.3339],
      [9, 10, 3, 10, 0.1705, 0.809],
      [6, 7, 2, 7, 0.0582, 0.8062],
      [5, 56, 0, 29, -0.0381, 0.1926],
      [0, 10, 0, 20, -0.1611, 0.2775],
      [0, 10, 0, 10, -0.2775, 0.2775],
      [10, 10, 0, 20, 0.6791, 1],
      [10, 10, 0, 10, 0.6075, 1],
    ];
    for (const [k1, n1, k0, n0, lower, upper] of cases) {
      const i = gapInterval({ successes: k1, episodes: n1 }, { successes: k0, episodes: n0 }, Z95);
      expect(i.lower).toBeCloseTo(lower, 4);
      expect(i.upper).toBeCloseTo(upper, 4);
    }
    // Wilson's interval for 0/10 (Newcombe's Table I): [0, 0.2775].
    const [l, u] = wilsonInterval(0, 10, Z95);
    expect(l).toBe(0);
    expect(u).toBeCloseTo(0.2775, 4);
  });

  it('derives the evidence a closed gap needs from τ and z (golden)', () => {
    // 4/8-style halves: upper(18/36 vs 18/36) at z = 1.2816 is 0.1475 < 0.15; at 34 it is 0.1516.
    expect(evidenceForBound(0.15, 1.2816)).toBe(36);
    const half = (n: number) =>
      gapInterval({ successes: n / 2, episodes: n }, { successes: n / 2, episodes: n }, 1.2816);
    expect(half(36).upper).toBeLessThan(0.15);
    expect(half(34).upper).toBeGreaterThanOrEqual(0.15);
    expect(evidenceForBound(0, 1.2816)).toBe(Number.POSITIVE_INFINITY);
    expect(evidenceForBound(0.02, 1.2816)).toBeGreaterThan(1000);
  });

  it('contains the observed gap, stays in [−1, 1], narrows with more episodes and a smaller z (property)', () => {
    const side = fc
      .integer({ min: 1, max: 200 })
      .chain((n) => fc.record({ successes: fc.integer({ min: 0, max: n }), episodes: fc.constant(n) }));
    fc.assert(
      fc.property(side, side, fc.double({ min: 0.1, max: 4, noNaN: true }), (a, b, z) => {
        const i = gapInterval(a, b, z);
        expect(i.lower).toBeLessThanOrEqual(i.gap + 1e-12);
        expect(i.upper).toBeGreaterThanOrEqual(i.gap - 1e-12);
        expect(i.lower).toBeGreaterThanOrEqual(-1 - 1e-12);
        expect(i.upper).toBeLessThanOrEqual(1 + 1e-12);
        const wider = gapInterval(a, b, z * 1.5);
        expect(wider.upper).toBeGreaterThanOrEqual(i.upper - 1e-12);
        // Four times the episodes at the same rates: no wider.
        const more = gapInterval(
          { successes: 4 * a.successes, episodes: 4 * a.episodes },
          { successes: 4 * b.successes, episodes: 4 * b.episodes },
          z,
        );
        expect(more.upper - more.gap).toBeLessThanOrEqual(i.upper - i.gap + 1e-12);
      }),
      { numRuns: 500 },
    );
  });
});

describe('retirementReach', () => {
  it("says when a run's validation can retire a type, and why not (golden)", () => {
    // The bench: 8 a side, 37 validations (steps 0–360): first pass at the 5th, retired at the 6th.
    expect(retirementReach({ families: ['k'] }, 8, 37)).toEqual({
      canRetire: true,
      earliestValidation: 6,
      minEvidence: 36,
    });
    // The old quick start: 2 a side, 5 validations: needs 18 + 1.
    const quick = retirementReach({ families: ['k'] }, 2, 5);
    expect(quick).toMatchObject({ canRetire: false, earliestValidation: null });
    expect(quick.reason).toMatch(/needs 19 validations of 2 episodes a side.*the run has 5/);
    // τ too small for the evidence the pool gathers: 40/40 vs 40/40 at z = 1.2816 bounds at
    // z² / (40 + z²) = 0.0394, not below 0.03.
    const tight = retirementReach({ families: ['k'], tau: 0.03, minEvidence: 36 }, 8, 100);
    expect(tight.canRetire).toBe(false);
    expect(tight.reason).toMatch(
      /40\/40 vs 40\/40 \(5 validations of 8 a side\).*0\.039, not below tau 0\.03/,
    );
    expect(retirementReach({ families: ['k'], prune: false }, 8, 37).reason).toMatch(/prune: false/);
    expect(retirementReach({ families: ['k'] }, 0, 37).reason).toMatch(/no episode/);
  });
});
