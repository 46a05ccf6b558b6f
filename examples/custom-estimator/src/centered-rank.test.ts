import { describeEstimatorConformance } from '@skillrl/testkit/vitest';
import { describe, expect, it } from 'vitest';
import { createCenteredRank } from './centered-rank.js';
import { estimators } from './index.js';

describeEstimatorConformance('centered-rank', () => createCenteredRank());

describe('centered-rank', () => {
  it('golden values: ranks centred and scaled within each group', () => {
    // Group a: scores 0, 1, 1, 3 → ranks 0, 1.5, 1.5, 3; (rank − 1.5)/3 → −0.5, 0, 0, 0.5.
    // Group b: a single sample → 0.
    const result = createCenteredRank().estimate({
      scores: [0, 1, 7, 1, 3],
      groupIds: ['a', 'a', 'b', 'a', 'a'],
    });
    expect(Array.from(result.advantages)).toEqual([-0.5, 0, 0, 0, 0.5]);
  });

  it('is what the package registers under its name', () => {
    expect(estimators['centered-rank']).toBe(createCenteredRank);
  });
});
