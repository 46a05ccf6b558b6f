import type { GroupIndex } from './group-index.js';
import type { GroupMoments } from './group-moments.js';

/**
 * `computeGroupMoments` where sample i counts `weights[i]` times, as if its value were repeated on that many
 * rows: `count` is the number of rows, `mean` = Σ w·x / Σ w, `m2` = Σ w·(x − mean)². GiGPO's episode level
 * needs this: verl-agent gives every step row its trajectory's reward and takes the group's moments over the
 * rows, so a trajectory weighs as many times as it has steps, and expanding the rows would cost memory for
 * nothing. Weights must be integers >= 0 (step counts); a sample of weight 0, or with a non-finite value, is
 * left out. As in `computeGroupMoments`, a group whose counted values are all equal gets that value as its
 * mean exactly and m2 = 0, so its centred values are exactly 0.
 */
export function computeWeightedGroupMoments(
  values: Float64Array,
  weights: ArrayLike<number>,
  index: GroupIndex,
): GroupMoments {
  const { groupCount, groupOf, size } = index;
  const count = new Int32Array(groupCount);
  const sum = new Float64Array(groupCount);
  const first = new Float64Array(groupCount);
  const varies = new Uint8Array(groupCount);
  let nonfinite = 0;
  for (let i = 0; i < size; i++) {
    const x = values[i] as number;
    if (x - x !== 0) {
      nonfinite++;
      continue;
    }
    const w = weights[i] as number;
    if (w === 0) continue;
    const g = groupOf[i] as number;
    if (count[g] === 0) first[g] = x;
    else if (x !== first[g]) varies[g] = 1;
    count[g]! += w;
    sum[g]! += w * x;
  }
  const mean = new Float64Array(groupCount);
  const constant = new Uint8Array(groupCount);
  for (let g = 0; g < groupCount; g++) {
    const c = count[g] as number;
    if (c === 0) {
      mean[g] = Number.NaN;
      constant[g] = 1;
    } else if (varies[g] === 0) {
      mean[g] = first[g] as number;
      constant[g] = 1;
    } else {
      mean[g] = (sum[g] as number) / c;
    }
  }
  const m2 = new Float64Array(groupCount);
  for (let i = 0; i < size; i++) {
    const x = values[i] as number;
    const w = weights[i] as number;
    if (x - x !== 0 || w === 0) continue;
    const g = groupOf[i] as number;
    if (constant[g] === 1) continue;
    const d = x - (mean[g] as number);
    m2[g]! += w * d * d;
  }
  return { groupCount, count, mean, m2, constant, nonfinite };
}
