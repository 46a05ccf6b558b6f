import type { GroupMoments } from './group-moments.js';

/**
 * How a sample's outcome (pass or fail) is decided, in this order:
 * 1. `threshold` given (an estimator option such as skillc's `successThreshold`): pass when score >= threshold;
 * 2. the batch has `successes`: pass when that entry is `true` or a non-zero number;
 * 3. otherwise: pass when score > 0.
 * A sample with a non-finite score is neither a pass nor a fail: it is left out.
 */
export interface OutcomeRule {
  threshold?: number;
  successes?: ArrayLike<boolean | number>;
}

/** Whether sample `i` with finite score `score` passed, under the rule above. */
export function isSuccess(rule: OutcomeRule, i: number, score: number): boolean {
  if (rule.threshold !== undefined) return score >= rule.threshold;
  if (rule.successes) return Boolean(rule.successes[i]);
  return score > 0;
}

/** The bookkeeping every estimator reports, decided on outcomes and raw scores, never on a shaped reward. */
export interface GroupBookkeeping extends Record<string, number> {
  /** Groups with at least one finite score. */
  groups: number;
  /** Share of those groups whose finite scores are all equal (a one-sample group counts): no signal. */
  frac_zero_std: number;
  /** Groups whose finite samples all passed. */
  groups_all_pass: number;
  /** Groups whose finite samples all failed. */
  groups_all_fail: number;
  /** Samples whose score is NaN or ±Infinity (they get advantage 0 and are left out of every baseline). */
  nonfinite: number;
}

/**
 * Reduces per-group moments to the shared metrics. `moments` must have been computed with the outcome rule
 * (`computeGroupMoments(values, index, rule)`), which counts the passes in the same pass as the sums.
 */
export function groupBookkeeping(moments: GroupMoments): GroupBookkeeping {
  const passes = moments.passes;
  if (!passes) throw new Error('groupBookkeeping: moments were computed without an outcome rule');
  let groups = 0;
  let zeroStd = 0;
  let allPass = 0;
  let allFail = 0;
  for (let g = 0; g < moments.groupCount; g++) {
    const c = moments.count[g] as number;
    if (c === 0) continue;
    groups++;
    if (moments.constant[g] === 1) zeroStd++;
    const p = passes[g] as number;
    if (p === c) allPass++;
    else if (p === 0) allFail++;
  }
  return {
    groups,
    frac_zero_std: groups === 0 ? 0 : zeroStd / groups,
    groups_all_pass: allPass,
    groups_all_fail: allFail,
    nonfinite: moments.nonfinite,
  };
}
