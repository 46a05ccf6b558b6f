import type { OutcomeRule } from './group-bookkeeping.js';
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
  /** Finite samples per group that passed under `outcome`, when an outcome rule was given. */
  readonly passes?: Int32Array;
}

/**
 * Two passes (sum, then squared deviations) like numpy, so the variance does not cancel catastrophically.
 * A group whose values are all equal gets that value as its mean exactly and m2 = 0, so its centred
 * values are exactly 0 rather than rounding noise that a small epsilon would blow up. With `outcome`, the
 * first pass also counts each group's passes (see `OutcomeRule`), saving the bookkeeping a pass.
 */
export function computeGroupMoments(
  values: Float64Array,
  index: GroupIndex,
  outcome?: OutcomeRule,
): GroupMoments {
  if (index.runStart) return computeRunMoments(values, index.runStart, index.groupCount, outcome);
  const { groupCount, groupOf, size } = index;
  const count = new Int32Array(groupCount);
  const sum = new Float64Array(groupCount);
  const first = new Float64Array(groupCount);
  const passes = outcome ? new Int32Array(groupCount) : undefined;
  let nonfinite = 0;
  // Three copies of the first pass so the common ones stay free of calls and branches on the rule.
  if (!passes) {
    for (let i = 0; i < size; i++) {
      const x = values[i] as number;
      // x - x is 0 for finite x and NaN for ±Infinity and NaN.
      if (x - x !== 0) {
        nonfinite++;
        continue;
      }
      const g = groupOf[i] as number;
      const c = count[g] as number;
      if (c === 0) first[g] = x;
      count[g] = c + 1;
      sum[g]! += x;
    }
  } else if (outcome?.threshold === undefined && !outcome?.successes) {
    for (let i = 0; i < size; i++) {
      const x = values[i] as number;
      if (x - x !== 0) {
        nonfinite++;
        continue;
      }
      const g = groupOf[i] as number;
      const c = count[g] as number;
      if (c === 0) first[g] = x;
      count[g] = c + 1;
      sum[g]! += x;
      if (x > 0) passes[g]!++;
    }
  } else {
    const threshold = outcome.threshold;
    const successes = outcome.successes;
    for (let i = 0; i < size; i++) {
      const x = values[i] as number;
      if (x - x !== 0) {
        nonfinite++;
        continue;
      }
      const g = groupOf[i] as number;
      const c = count[g] as number;
      if (c === 0) first[g] = x;
      count[g] = c + 1;
      sum[g]! += x;
      if (threshold !== undefined ? x >= threshold : Boolean(successes?.[i])) passes[g]!++;
    }
  }
  const mean = new Float64Array(groupCount);
  for (let g = 0; g < groupCount; g++) {
    const c = count[g] as number;
    mean[g] = c === 0 ? Number.NaN : (sum[g] as number) / c;
  }
  const m2 = new Float64Array(groupCount);
  const varies = new Uint8Array(groupCount);
  for (let i = 0; i < size; i++) {
    const x = values[i] as number;
    if (x - x !== 0) continue;
    const g = groupOf[i] as number;
    const d = x - (mean[g] as number);
    m2[g]! += d * d;
    if (x !== first[g]) varies[g] = 1;
  }
  const constant = new Uint8Array(groupCount);
  for (let g = 0; g < groupCount; g++) {
    if (varies[g] === 0) {
      constant[g] = 1;
      if (count[g] !== 0) {
        mean[g] = first[g] as number;
        m2[g] = 0;
      }
    }
  }
  return passes
    ? { groupCount, count, mean, m2, constant, nonfinite, passes }
    : { groupCount, count, mean, m2, constant, nonfinite };
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

/** Outcome rule as a small integer, so the run loop branches on a constant rather than on objects. */
function ruleKind(outcome: OutcomeRule | undefined): 0 | 1 | 2 | 3 {
  if (!outcome) return 0;
  if (outcome.threshold !== undefined) return 2;
  return outcome.successes ? 3 : 1;
}

/** `computeGroupMoments` for contiguous groups: each group's sums stay in registers. */
function computeRunMoments(
  values: Float64Array,
  runStart: Int32Array,
  groupCount: number,
  outcome: OutcomeRule | undefined,
): GroupMoments {
  const count = new Int32Array(groupCount);
  const mean = new Float64Array(groupCount);
  const m2 = new Float64Array(groupCount);
  const constant = new Uint8Array(groupCount);
  const kind = ruleKind(outcome);
  const passes = kind === 0 ? undefined : new Int32Array(groupCount);
  const threshold = outcome?.threshold ?? 0;
  const successes = outcome?.successes;
  let nonfinite = 0;
  for (let g = 0; g < groupCount; g++) {
    const start = runStart[g] as number;
    const end = runStart[g + 1] as number;
    let c = 0;
    let sum = 0;
    let first = 0;
    let passed = 0;
    for (let i = start; i < end; i++) {
      const x = values[i] as number;
      if (x - x !== 0) {
        nonfinite++;
        continue;
      }
      if (c === 0) first = x;
      c++;
      sum += x;
      if (kind === 1) {
        if (x > 0) passed++;
      } else if (kind === 2) {
        if (x >= threshold) passed++;
      } else if (kind === 3 && successes?.[i]) {
        passed++;
      }
    }
    count[g] = c;
    if (passes) passes[g] = passed;
    if (c === 0) {
      mean[g] = Number.NaN;
      constant[g] = 1;
      continue;
    }
    const mu = sum / c;
    let squares = 0;
    let varies = false;
    for (let i = start; i < end; i++) {
      const x = values[i] as number;
      if (x - x !== 0) continue;
      const d = x - mu;
      squares += d * d;
      if (x !== first) varies = true;
    }
    if (varies) {
      mean[g] = mu;
      m2[g] = squares;
    } else {
      mean[g] = first;
      constant[g] = 1;
    }
  }
  return passes
    ? { groupCount, count, mean, m2, constant, nonfinite, passes }
    : { groupCount, count, mean, m2, constant, nonfinite };
}
