import { describe, expect, it } from 'vitest';
import { expectAdvantages } from '../test-support.js';
import { createGrpoPassk } from './grpo-passk.js';

describe('grpo-passk', () => {
  // [0.2, 0.9, 0.5, 0.6]: best 0.9 (index 1), second 0.6 → 0.3. Mean 0.55, Σd² = 0.1225·2 + 0.0025·2 = 0.25,
  // unbiased std = sqrt(0.25/3) = 0.2886751346 → 0.3 / (0.2886751346 + 1e-6) = 1.0392268846.
  const b = { scores: [0.2, 0.9, 0.5, 0.6, 1], groupIds: [1, 1, 1, 1, 2] };

  it('gives only the best sample r_max − r_second, over std + ε', () => {
    const { advantages } = createGrpoPassk().estimate(b);
    expectAdvantages(advantages, [0, 0.3 / (Math.sqrt(0.25 / 3) + 1e-6), 0, 0, 0]);
    expect(advantages[1]).toBeCloseTo(1.0392268845537973, 12);
  });

  it('without normalisation gives the raw gap; a one-sample group gets 0', () => {
    expectAdvantages(createGrpoPassk({ normalize: false }).estimate(b).advantages, [0, 0.3, 0, 0, 0]);
  });

  it('gives 0 to a tied best, and the tie to the earliest sample', () => {
    const tied = { scores: [0.9, 0.2, 0.9], groupIds: [1, 1, 1] };
    expectAdvantages(createGrpoPassk().estimate(tied).advantages, [0, 0, 0]);
  });

  it('takes std and ε from a preset; options beside it override it', () => {
    // Σd² = 0.25 over 4: population std 0.25 (art), unbiased sqrt(0.25/3) with ε 1e-4 (trl).
    expectAdvantages(createGrpoPassk({ preset: 'art' }).estimate(b).advantages, [
      0,
      0.3 / (0.25 + 1e-6),
      0,
      0,
      0,
    ]);
    expectAdvantages(createGrpoPassk({ preset: 'trl' }).estimate(b).advantages, [
      0,
      0.3 / (Math.sqrt(0.25 / 3) + 1e-4),
      0,
      0,
      0,
    ]);
    expectAdvantages(
      createGrpoPassk({ preset: 'art', epsilon: 0 }).estimate(b).advantages,
      [0, 1.2, 0, 0, 0],
    );
    expect(createGrpoPassk({ preset: 'verl' }).estimate(b).advantages).toEqual(
      createGrpoPassk().estimate(b).advantages,
    );
    expect(() => createGrpoPassk({ preset: 'x' } as never)).toThrow(/options\.preset/);
  });
});
