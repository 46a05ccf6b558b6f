import { MissingFieldError } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectAdvantages } from '../test-support.js';
import { createOpo } from './opo.js';

describe('opo', () => {
  it('subtracts the length-weighted group mean', () => {
    // Scores [1, 0, 1], lengths [10, 20, 30]: b = (10 + 0 + 30)/60 = 2/3 → [1/3, −2/3, 1/3].
    const { advantages } = createOpo().estimate({
      scores: [1, 0, 1],
      groupIds: [1, 1, 1],
      lengths: [10, 20, 30],
    });
    expectAdvantages(advantages, [1 / 3, -2 / 3, 1 / 3]);
  });

  it('needs lengths, and rejects negative ones', () => {
    expect(() => createOpo().estimate({ scores: [1], groupIds: [1] })).toThrow(MissingFieldError);
    expect(() => createOpo().estimate({ scores: [1], groupIds: [1], lengths: [-1] })).toThrow(
      /batch\.lengths\[0\]/,
    );
  });

  it('sums to zero within a group when weighted by length', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 500 })), {
          minLength: 2,
          maxLength: 12,
        }),
        (rows) => {
          const { advantages } = createOpo().estimate({
            scores: rows.map((r) => r[0]),
            groupIds: rows.map(() => 7),
            lengths: rows.map((r) => r[1]),
          });
          const weighted = rows.reduce((sum, [, len], i) => sum + len * (advantages[i] as number), 0);
          expect(Math.abs(weighted)).toBeLessThan(1e-9 * rows.length * 500);
        },
      ),
    );
  });
});
