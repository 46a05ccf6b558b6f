import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairedByTask, type TestOutcomes } from './paired-by-task.js';

const outcomes = (without: number[]): TestOutcomes =>
  Object.fromEntries(without.map((w, i) => [`t${i}`, { with: null, without: w }]));

describe('pairedByTask', () => {
  it('pairs by task id and gives the paired t interval (golden, by hand)', () => {
    // d = [1, 1, 0, 0, 1, −1, 0, 1]: mean 3/8 = 0.375; Σ(d − 0.375)² = 4·0.390625 + 3·0.140625 + 1.890625
    // = 3.875; sd = √(3.875 / 7) = 0.74402; t(0.975, 7) = 2.36462 → half = 2.36462 · 0.74402 / √8 = 0.62202.
    const a = outcomes([1, 1, 0, 1, 1, 0, 0, 1]);
    const b = outcomes([0, 0, 0, 1, 0, 1, 0, 0]);
    const p = pairedByTask(a, b)!;
    expect(p.tasks).toBe(8);
    expect(p.difference).toBeCloseTo(0.375, 12);
    expect(p.upper - p.difference).toBeCloseTo(0.62202, 4);
    expect(p.lower).toBeCloseTo(0.375 - 0.62202, 4);
    expect(p).toMatchObject({ onlyA: 4, onlyB: 1, verdict: 'a tie' });
    // Tasks one run did not test are left out, not counted as failures.
    const partial = { ...outcomes([1, 1]), extra: { with: 1, without: 1 } };
    expect(pairedByTask(partial, outcomes([0, 0, 1]))?.tasks).toBe(2);
    expect(pairedByTask(outcomes([1]), outcomes([0]))).toBeUndefined();
  });

  it('says ahead only when the interval is above 0; swapping the runs mirrors it (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 0, max: 1 })), {
          minLength: 2,
          maxLength: 150,
        }),
        (pairs) => {
          const a = outcomes(pairs.map((p) => p[0]));
          const b = outcomes(pairs.map((p) => p[1]));
          const ab = pairedByTask(a, b)!;
          const ba = pairedByTask(b, a)!;
          expect(ab.lower).toBeLessThanOrEqual(ab.difference + 1e-12);
          expect(ab.upper).toBeGreaterThanOrEqual(ab.difference - 1e-12);
          expect(ba.difference).toBeCloseTo(-ab.difference, 12);
          expect(ba.lower).toBeCloseTo(-ab.upper, 12);
          expect(ab.verdict === 'ahead').toBe(ab.lower > 0);
          expect(ba.verdict === 'behind').toBe(ab.verdict === 'ahead');
        },
      ),
      { numRuns: 300 },
    );
  });
});
