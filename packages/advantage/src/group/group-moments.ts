import type { GroupIndex } from './group-index.js';

/** Which standard deviation: `unbiased` divides by n − 1 (torch.std, verl, TRL), `population` by n (numpy, ART). */
export type StdKind = 'unbiased' | 'population';

/** Per-group count, mean and spread of the finite values; non-finite values are left out everywhere. */
export interface GroupMoments {
  readonly groupCount: number;
  /** Finite values per group. */
  readonly count: Int32Array;
  /** Mean of the finite values; `NaN` for a group with none. */
  readonly mean: Float64Array;
  /** Sum of squared deviations from the mean. Exactly 0 when every finite value is equal. */
  readonly m2: Float64Array;
  /** 1 when the group's finite values are all equal (a single value included). */
  readonly constant: Uint8Array;
  /** Non-finite values in the whole input. */
  readonly nonfinite: number;
}

/**
 * Two passes (sum, then squared deviations) like numpy, so the variance does not cancel catastrophically.
 * A group whose values are all equal gets that value as its mean exactly, so its deviations are exactly 0
 * rather than rounding noise that a small epsilon would blow up.
 */
export function computeGroupMoments(values: Float64Array, index: GroupIndex): GroupMoments {
  const { groupCount, groupOf, size } = index;
  const count = new Int32Array(groupCount);
  const sum = new Float64Array(groupCount);
  const min = new Float64Array(groupCount).fill(Number.POSITIVE_INFINITY);
  const max = new Float64Array(groupCount).fill(Number.NEGATIVE_INFINITY);
  let nonfinite = 0;
  for (let i = 0; i < size; i++) {
    const x = values[i] as number;
    // x - x is 0 for finite x and NaN for ±Infinity and NaN.
    if (x - x !== 0) {
      nonfinite++;
      continue;
    }
    const g = groupOf[i] as number;
    count[g]!++;
    sum[g]! += x;
    if (x < (min[g] as number)) min[g] = x;
    if (x > (max[g] as number)) max[g] = x;
  }
  const mean = new Float64Array(groupCount);
  const constant = new Uint8Array(groupCount);
  for (let g = 0; g < groupCount; g++) {
    const c = count[g] as number;
    if (c === 0) {
      mean[g] = Number.NaN;
      constant[g] = 1;
    } else if (min[g] === max[g]) {
      mean[g] = min[g] as number;
      constant[g] = 1;
    } else {
      mean[g] = (sum[g] as number) / c;
    }
  }
  const m2 = new Float64Array(groupCount);
  for (let i = 0; i < size; i++) {
    const x = values[i] as number;
    if (x - x !== 0) continue;
    const g = groupOf[i] as number;
    const d = x - (mean[g] as number);
    m2[g]! += d * d;
  }
  return { groupCount, count, mean, m2, constant, nonfinite };
}

/** Standard deviation from a count and a sum of squared deviations; 0 when it is undefined (n < 2). */
export function stdFrom(m2: number, count: number, kind: StdKind): number {
  if (count < 2) return 0;
  return Math.sqrt(m2 / (kind === 'unbiased' ? count - 1 : count));
}

/** Count, mean and squared-deviation sum of all finite values (one group: the whole batch). */
export function computeBatchMoments(values: Float64Array): { count: number; mean: number; m2: number } {
  let count = 0;
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    if (x - x !== 0) continue;
    count++;
    sum += x;
  }
  const mean = count === 0 ? Number.NaN : sum / count;
  let m2 = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    if (x - x !== 0) continue;
    const d = x - mean;
    m2 += d * d;
  }
  return { count, mean, m2 };
}
