import { describe, expect, it } from 'vitest';
import { expectAdvantages } from '../test-support.js';
import { createGpg } from './gpg.js';

describe('gpg', () => {
  it('scales the group-centred score by α = B / M', () => {
    // Groups [1, 0, 0, 1] and [0, 0]: B = 6 finite, M = 2 non-zero → α = 3. Group 1: 3·(±0.5) = ±1.5.
    const b = { scores: [1, 0, 0, 1, 0, 0], groupIds: [1, 1, 1, 1, 2, 2] };
    const { advantages, metrics } = createGpg().estimate(b);
    expectAdvantages(advantages, [1.5, -1.5, -1.5, 1.5, 0, 0]);
    expect(metrics.alpha).toBe(3);
    // f_norm = 2 halves it.
    expectAdvantages(createGpg({ fNorm: 2 }).estimate(b).advantages, [0.75, -0.75, -0.75, 0.75, 0, 0]);
  });

  it('rejects f_norm <= 0', () => {
    expect(() => createGpg({ fNorm: 0 })).toThrow(/options\.fNorm.*> 0/);
  });
});
