import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectAdvantages } from '../test-support.js';
import { createRloo } from './rloo.js';

describe('rloo', () => {
  it('compares each sample with the mean of the others', () => {
    // [1, 0, 0, 1]: 1 − mean(0, 0, 1) = 2/3; 0 − mean(1, 0, 1) = −2/3. Singleton [0.7] keeps its score (verl).
    const b = { scores: [1, 0, 0.7, 0, 1], groupIds: ['a', 'a', 'b', 'a', 'a'] };
    expectAdvantages(createRloo().estimate(b).advantages, [2 / 3, -2 / 3, 0.7, -2 / 3, 2 / 3]);
    expectAdvantages(createRloo({ singleton: 'zero' }).estimate(b).advantages, [
      2 / 3,
      -2 / 3,
      0,
      -2 / 3,
      2 / 3,
    ]);
  });

  it('sums to zero within groups of two or more', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.double({ min: -5, max: 5, noNaN: true })), {
          maxLength: 30,
        }),
        (rows) => {
          const { advantages } = createRloo({ singleton: 'zero' }).estimate({
            scores: rows.map((r) => r[1]),
            groupIds: rows.map((r) => r[0]),
          });
          const sums = new Map<number, number>();
          rows.forEach(([g], i) => {
            sums.set(g, (sums.get(g) ?? 0) + (advantages[i] as number));
          });
          for (const s of sums.values()) expect(Math.abs(s)).toBeLessThan(1e-9);
        },
      ),
    );
  });
});
