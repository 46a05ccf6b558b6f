import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkLearningRateSchedule, learningRateAt } from './learning-rate-schedule.js';

describe('learningRateAt', () => {
  it('warms up linearly, then decays to lr × minLrRatio at the last update (hand-computed)', () => {
    // 11 updates, 2 of warm-up: the decay spans updates 2..10 (8 intervals); update 6 is half-way.
    const cosine = { updates: 11, warmup: 2, decay: 'cosine' } as const;
    expect(learningRateAt(0.1, cosine, 0)).toBeCloseTo(0.05, 12);
    expect(learningRateAt(0.1, cosine, 1)).toBeCloseTo(0.1, 12);
    expect(learningRateAt(0.1, cosine, 2)).toBeCloseTo(0.1, 12);
    expect(learningRateAt(0.1, cosine, 6)).toBeCloseTo(0.05, 12);
    // A quarter of the way: 0.5 (1 + cos π/4) = 0.853553…
    expect(learningRateAt(0.1, cosine, 4)).toBeCloseTo(0.0853553390593, 12);
    expect(learningRateAt(0.1, cosine, 10)).toBeCloseTo(0, 12);
    expect(learningRateAt(0.1, { ...cosine, minLrRatio: 0.2 }, 6)).toBeCloseTo(0.06, 12);
    expect(learningRateAt(0.1, { ...cosine, minLrRatio: 0.2 }, 10)).toBeCloseTo(0.02, 12);
    // Past the span it holds at the floor.
    expect(learningRateAt(0.1, { ...cosine, minLrRatio: 0.2 }, 50)).toBeCloseTo(0.02, 12);
    const linear = { updates: 11, warmup: 2, decay: 'linear' } as const;
    expect(learningRateAt(0.1, linear, 4)).toBeCloseTo(0.075, 12);
    expect(learningRateAt(0.1, { ...linear, minLrRatio: 0.5 }, 8)).toBeCloseTo(0.0625, 12);
    expect(learningRateAt(0.1, { updates: 11, warmup: 4, decay: 'constant' }, 0)).toBeCloseTo(0.025, 12);
    expect(learningRateAt(0.1, { updates: 11, warmup: 4, decay: 'constant' }, 9)).toBeCloseTo(0.1, 12);
    // No warm-up: the first update runs at lr.
    expect(learningRateAt(0.1, { updates: 3 }, 0)).toBeCloseTo(0.1, 12);
  });

  it('rises through the warm-up, never rises after it, and stays within [lr × minLrRatio, lr]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 0, max: 399 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom('cosine' as const, 'linear' as const, 'constant' as const),
        fc.double({ min: 1e-5, max: 1, noNaN: true }),
        (updates, rawWarmup, minLrRatio, decay, lr) => {
          const warmup = rawWarmup % updates;
          const schedule = { updates, warmup, minLrRatio, decay };
          const rates = Array.from({ length: updates + 5 }, (_, i) => learningRateAt(lr, schedule, i));
          for (let i = 1; i < rates.length; i++) {
            const [before, now] = [rates[i - 1] as number, rates[i] as number];
            if (i < warmup) expect(now).toBeGreaterThan(before);
            else if (i > warmup) expect(now).toBeLessThanOrEqual(before * (1 + 1e-12));
          }
          for (const [i, r] of rates.entries()) {
            expect(r).toBeLessThanOrEqual(lr * (1 + 1e-12));
            expect(r).toBeGreaterThanOrEqual(0);
            if (i >= warmup) expect(r).toBeGreaterThanOrEqual(lr * minLrRatio * (1 - 1e-12));
          }
          if (decay !== 'constant' && updates - 1 > warmup) {
            expect(rates[updates - 1]).toBeCloseTo(lr * minLrRatio, 10);
          }
        },
      ),
      { seed: 38, numRuns: 200 },
    );
  });
});

describe('checkLearningRateSchedule', () => {
  it('names the field and what it expects', () => {
    expect(() => checkLearningRateSchedule({ updates: 0 })).toThrow(/lrSchedule\.updates.*integer >= 1/);
    expect(() => checkLearningRateSchedule({ updates: 10, warmup: 10 })).toThrow(
      /lrSchedule\.warmup.*0 to updates − 1 \(9\)/,
    );
    expect(() => checkLearningRateSchedule({ updates: 10, minLrRatio: 1.5 }, 'options.lrSchedule')).toThrow(
      /options\.lrSchedule\.minLrRatio/,
    );
    expect(() => checkLearningRateSchedule({ updates: 10, decay: 'step' as unknown as 'cosine' })).toThrow(
      /lrSchedule\.decay.*'cosine', 'linear' or 'constant'/,
    );
    expect(() => checkLearningRateSchedule({ updates: 360, warmup: 18, minLrRatio: 0.1 })).not.toThrow();
  });
});
