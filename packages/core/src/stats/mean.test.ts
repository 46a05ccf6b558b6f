import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mean } from './mean.js';

describe('mean', () => {
  it('golden values, 0 for an empty list', () => {
    expect(mean([1, 2, 3, 6])).toBe(3);
    expect(mean([0.5])).toBe(0.5);
    expect(mean([])).toBe(0);
  });
  it('lies between the smallest and largest value', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1 }), (xs) => {
        const m = mean(xs);
        expect(m).toBeGreaterThanOrEqual(Math.min(...xs) - 1e-6);
        expect(m).toBeLessThanOrEqual(Math.max(...xs) + 1e-6);
      }),
    );
  });
});
