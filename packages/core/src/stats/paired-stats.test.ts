import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  binomialSe,
  fCdf,
  fQuantile,
  hierarchicalBootstrap,
  pairByTask,
  pairedBootstrap,
  pairedDifference,
  sdRatio,
  tCdf,
  tInterval,
  tQuantile,
  verdict,
} from './paired-stats.js';

const bySeed = (xs: readonly number[]) => xs.map((x, i) => [i + 1, x] as const);

describe('pairedStats', () => {
  it("gives Student's t quantiles of the printed tables", () => {
    // t(0.975, df) from any statistics table.
    const table: [number, number][] = [
      [1, 12.7062],
      [2, 4.3027],
      [3, 3.1824],
      [4, 2.7764],
      [5, 2.5706],
      [9, 2.2622],
      [29, 2.0452],
      [120, 1.9799],
    ];
    for (const [df, t] of table) expect(tQuantile(0.975, df)).toBeCloseTo(t, 4);
    expect(tQuantile(0.95, 4)).toBeCloseTo(2.1318, 4);
    expect(tQuantile(0.025, 4)).toBeCloseTo(-2.7764, 4);
    // df = 1 is Cauchy: P(T ≤ 1) = 3/4.
    expect(tCdf(1, 1)).toBeCloseTo(0.75, 12);
  });

  it('puts the paired t interval where a hand computation does', () => {
    // Differences 1..5: mean 3, sd √2.5, SE √0.5, t(0.975, 4) = 2.776445 → 3 ± 1.963243.
    const d = pairedDifference(bySeed([11, 12, 13, 14, 15]), bySeed([10, 10, 10, 10, 10]));
    expect(d.mean).toBe(3);
    expect(d.lo).toBeCloseTo(1.036757, 6);
    expect(d.hi).toBeCloseTo(4.963243, 6);
    expect(d.verdict).toBe('ahead');
    expect([d.ahead, d.behind]).toEqual([5, 0]);
    // Pairs are by seed: a seed missing on either side, or non-finite, is left out.
    const partial = pairedDifference(
      [
        [1, 0.5],
        [2, 0.6],
        [3, Number.NaN],
      ],
      [
        [2, 0.4],
        [1, 0.45],
        [3, 0.1],
        [4, 0.2],
      ],
    );
    expect(partial.seeds).toEqual([1, 2]);
    expect(partial.differences.map((x) => Number(x.toFixed(12)))).toEqual([0.05, 0.2]);
    // 0.125 ± 12.706 · 0.075.
    expect(partial.lo).toBeCloseTo(0.125 - 12.706205 * 0.075, 5);
  });

  it('calls an interval that contains 0 a tie, and one value no interval', () => {
    expect(verdict(-0.01, 0.2)).toBe('tie');
    expect(verdict(0.01, 0.2)).toBe('ahead');
    expect(verdict(-0.3, -0.01)).toBe('behind');
    const one = pairedDifference([[1, 0.6]], [[1, 0.4]]);
    expect(one.n).toBe(1);
    expect(Number.isNaN(one.lo)).toBe(true);
    expect(one.verdict).toBe('unknown');
    expect(Number.isNaN(tInterval([0.3]).hi)).toBe(true);
  });

  const arms = fc
    .integer({ min: 2, max: 8 })
    .chain((n) =>
      fc.tuple(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: n, maxLength: n }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: n, maxLength: n }),
      ),
    );

  it('holds the mean difference inside its interval, and shifts with either arm (property)', () => {
    fc.assert(
      fc.property(arms, fc.double({ min: -1, max: 1, noNaN: true }), ([a, b], c) => {
        const d = pairedDifference(bySeed(a), bySeed(b));
        expect(d.lo).toBeLessThanOrEqual(d.mean + 1e-12);
        expect(d.hi).toBeGreaterThanOrEqual(d.mean - 1e-12);
        // Shifting arm a by c shifts the interval by c; swapping the arms mirrors it.
        const shifted = pairedDifference(bySeed(a.map((x) => x + c)), bySeed(b));
        expect(shifted.lo).toBeCloseTo(d.lo + c, 9);
        expect(shifted.hi).toBeCloseTo(d.hi + c, 9);
        const swapped = pairedDifference(bySeed(b), bySeed(a));
        expect(swapped.lo).toBeCloseTo(-d.hi, 9);
        expect(swapped.hi).toBeCloseTo(-d.lo, 9);
      }),
    );
  });

  it('bootstraps the same interval from the same seed, inside the range of the differences (property)', () => {
    fc.assert(
      fc.property(arms, fc.integer({ min: 0, max: 1000 }), ([a, b], seed) => {
        const options = { resamples: 500, seed };
        const first = pairedBootstrap(bySeed(a), bySeed(b), options);
        expect(pairedBootstrap(bySeed(a), bySeed(b), options)).toEqual(first);
        const differences = a.map((x, i) => x - (b[i] as number));
        expect(first.lo).toBeGreaterThanOrEqual(Math.min(...differences) - 1e-12);
        expect(first.hi).toBeLessThanOrEqual(Math.max(...differences) + 1e-12);
        expect(first.lo).toBeLessThanOrEqual(first.hi);
      }),
      { numRuns: 50 },
    );
  });
});

describe('pairByTask and hierarchicalBootstrap', () => {
  it('pairs tasks within shared seeds only, in a fixed order (golden)', () => {
    const a: [number, Record<string, number>][] = [
      [2, { t1: 1, t2: 0, t3: 1 }],
      [1, { t1: 1, t2: 1 }],
      [9, { t1: 1 }],
    ];
    const b: [number, Record<string, number>][] = [
      [1, { t1: 0, t2: 1, t9: 1 }],
      [2, { t1: 1, t2: 1, t3: 0 }],
    ];
    expect(pairByTask(a, b)).toEqual({
      seeds: [1, 2],
      differences: [
        [1, 0],
        [0, -1, 1],
      ],
    });
  });

  it('gives the mean of the seeds’ mean differences, and an interval around it (golden point, seeded)', () => {
    // Seed means: (1 + 0) / 2 = 0.5 and (0 − 1 + 1) / 3 = 0; their mean 0.25.
    const a = new Map<number, Record<string, number>>([
      [1, { t1: 1, t2: 1 }],
      [2, { t1: 1, t2: 0, t3: 1 }],
    ]);
    const b = new Map<number, Record<string, number>>([
      [1, { t1: 0, t2: 1 }],
      [2, { t1: 1, t2: 1, t3: 0 }],
    ]);
    const r = hierarchicalBootstrap(a, b, { resamples: 500, seed: 3 });
    expect(r).toMatchObject({ seeds: 2, tasks: 5 });
    expect(r.mean).toBeCloseTo(0.25, 12);
    expect(r.lo).toBeLessThanOrEqual(r.mean);
    expect(r.hi).toBeGreaterThanOrEqual(r.mean);
    expect(hierarchicalBootstrap(a, b, { resamples: 500, seed: 3 })).toEqual(r);
    expect(hierarchicalBootstrap(new Map([[1, { t: 1 }]]), new Map([[1, { t: 0 }]])).lo).toBeNaN();
  });

  it('stays within the range of the per-task differences, seeded and repeatable (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 4, maxLength: 12 }), {
          minLength: 3,
          maxLength: 6,
        }),
        fc.integer({ min: 1, max: 1000 }),
        (rows, seed) => {
          const a = rows.map((r, s) => [s, Object.fromEntries(r.map((x, i) => [`t${i}`, x]))] as const);
          const b = rows.map((r, s) => [s, Object.fromEntries(r.map((_, i) => [`t${i}`, 0]))] as const);
          const h = hierarchicalBootstrap(a, b, { resamples: 200, seed });
          expect(h.lo).toBeGreaterThanOrEqual(0);
          expect(h.hi).toBeLessThanOrEqual(1);
          expect(h.lo).toBeLessThanOrEqual(h.hi);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('binomialSe', () => {
  it('is √(p(1 − p)/n) (golden: 120 tasks at 55 % → 4.54 points; 600 → 2.03)', () => {
    expect(binomialSe(0.55, 120)).toBeCloseTo(0.045415, 5);
    expect(binomialSe(0.55, 600)).toBeCloseTo(0.02031, 5);
    expect(binomialSe(0, 10)).toBe(0);
    expect(binomialSe(0.5, 0)).toBeNaN();
  });
});

describe('fQuantile and sdRatio', () => {
  it('match F tables (golden: F(0.975; 9, 9) = 4.0260, F(0.95; 5, 10) = 3.3258, F(0.975; 4, 4) = 9.6045)', () => {
    expect(fQuantile(0.975, 9, 9)).toBeCloseTo(4.025994, 5);
    expect(fQuantile(0.025, 9, 9)).toBeCloseTo(1 / 4.025994, 5);
    expect(fQuantile(0.95, 5, 10)).toBeCloseTo(3.325835, 5);
    expect(fQuantile(0.975, 4, 4)).toBeCloseTo(9.60453, 4);
    expect(fCdf(fQuantile(0.3, 7, 12), 7, 12)).toBeCloseTo(0.3, 10);
    expect(() => fQuantile(1, 3, 3)).toThrow(RangeError);
  });

  it('gives SD(a)/SD(b) with the F interval (hand-computed: ratio 0.5, 5 a side → [0.1613, 1.5496], a tie)', () => {
    const r = sdRatio([1, 2, 3, 4, 5], [2, 4, 6, 8, 10]);
    expect(r.ratio).toBeCloseTo(0.5, 12);
    // √(0.25 / 9.60453) and √(0.25 × 9.60453)
    expect(r.lo).toBeCloseTo(0.161337, 5);
    expect(r.hi).toBeCloseTo(1.549559, 5);
    expect(r.verdict).toBe('tie');
    // A spread ten times smaller over 10 values a side is decided.
    const wide = [1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
    expect(
      sdRatio(
        wide.map((x) => x / 10),
        wide,
      ).verdict,
    ).toBe('smaller');
    expect(
      sdRatio(
        wide,
        wide.map((x) => x / 10),
      ).verdict,
    ).toBe('larger');
    expect(sdRatio([1], wide).verdict).toBe('unknown');
  });

  it('inverts: the interval of b/a is the reciprocal of the interval of a/b', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: 3, maxLength: 12 }),
        fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: 3, maxLength: 12 }),
        (a, b) => {
          const ab = sdRatio(a, b);
          const ba = sdRatio(b, a);
          fc.pre(Number.isFinite(ab.lo) && Number.isFinite(ba.lo) && ab.ratio > 1e-6 && ab.ratio < 1e6);
          expect(ab.lo).toBeLessThanOrEqual(ab.ratio * (1 + 1e-9));
          expect(ab.hi).toBeGreaterThanOrEqual(ab.ratio * (1 - 1e-9));
          expect(ab.lo * ba.hi).toBeCloseTo(1, 6);
          expect(ab.hi * ba.lo).toBeCloseTo(1, 6);
        },
      ),
      { seed: 38, numRuns: 200 },
    );
  });
});
