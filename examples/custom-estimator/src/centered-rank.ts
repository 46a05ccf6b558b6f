import type { AdvantageBatch, AdvantageEstimator } from '@skillrl/core';
import { groupScores, InvalidArgumentError } from '@skillrl/core';

export interface CenteredRankOptions {
  /** Multiplies every advantage (default 1). */
  scale?: number;
}

function checkLengths(batch: AdvantageBatch): number {
  const n = batch.scores.length;
  for (const [key, value] of Object.entries(batch)) {
    if (value && typeof value === 'object' && typeof (value as ArrayLike<unknown>).length === 'number') {
      const length = (value as ArrayLike<unknown>).length;
      if (key !== 'stepRewards' && length !== n) {
        throw new InvalidArgumentError(
          `batch.${key}`,
          `expected ${n} entries (one per score), got ${length}`,
        );
      }
    }
  }
  return n;
}

/**
 * Rank-based advantage, robust to reward scale and outliers: inside each group the finite scores are ranked
 * (ties share their mean rank, 0-based) and A_i = scale · (rank_i − (n − 1)/2) / (n − 1), in [−scale/2, scale/2].
 * A one-sample or constant group gets 0; a non-finite score gets 0 and is left out of its group's ranks.
 */
export function createCenteredRank(options: CenteredRankOptions = {}): AdvantageEstimator {
  const scale = options.scale ?? 1;
  if (!Number.isFinite(scale))
    throw new InvalidArgumentError('options.scale', `expected a finite number, got ${scale}`);
  return {
    name: 'centered-rank',
    estimate(batch) {
      const n = checkLengths(batch);
      const advantages = new Float64Array(n);
      // core's grouping: finite scores by group, and the bookkeeping every estimator reports.
      const { members: groups, metrics } = groupScores(batch.scores, batch.groupIds, batch.successes);
      for (const members of groups) {
        const m = members.length;
        if (m < 2) continue;
        const order = members
          .slice()
          .sort((a, b) => (batch.scores[a] as number) - (batch.scores[b] as number));
        let k = 0;
        while (k < m) {
          let j = k;
          while (j + 1 < m && batch.scores[order[j + 1] as number] === batch.scores[order[k] as number]) j++;
          const rank = (k + j) / 2;
          for (let t = k; t <= j; t++)
            advantages[order[t] as number] = (scale * (rank - (m - 1) / 2)) / (m - 1);
          k = j + 1;
        }
      }
      return { advantages, metrics };
    },
  };
}
