/** The bookkeeping every advantage estimator reports (the estimator conformance suite requires all three). */
export interface GroupOutcomeMetrics extends Record<string, number> {
  /** Share of groups whose finite scores are all equal (a one-sample group counts): no learning signal. */
  frac_zero_std: number;
  /** Groups whose finite samples all passed. */
  groups_all_pass: number;
  /** Groups whose finite samples all failed. */
  groups_all_fail: number;
}

/** A batch's samples by group, and the metrics above. */
export interface ScoreGroups {
  /** Sample indices of each group, groups in order of first appearance; non-finite scores are left out. */
  members: number[][];
  metrics: GroupOutcomeMetrics;
}

/**
 * Groups the finite scores by `groupIds` and counts the groups with no signal, all passes and all fails, so
 * that a third-party estimator, which depends on core alone, reports the same bookkeeping as the built-ins.
 * A sample passes when `successes[i]` is true or non-zero, or, without `successes`, when its score is > 0;
 * a sample with a non-finite score is in no group (the contract gives it advantage 0).
 */
export function groupScores(
  scores: ArrayLike<number>,
  groupIds: ArrayLike<string | number>,
  successes?: ArrayLike<boolean | number>,
): ScoreGroups {
  const byKey = new Map<string | number, number[]>();
  for (let i = 0; i < scores.length; i++) {
    if (!Number.isFinite(scores[i])) continue;
    const key = groupIds[i] as string | number;
    const group = byKey.get(key);
    if (group) group.push(i);
    else byKey.set(key, [i]);
  }
  const members = [...byKey.values()];
  const passed = (i: number) => (successes ? Boolean(successes[i]) : (scores[i] as number) > 0);
  let zeroStd = 0;
  let allPass = 0;
  let allFail = 0;
  for (const group of members) {
    const first = scores[group[0] as number];
    if (group.every((i) => scores[i] === first)) zeroStd++;
    const passes = group.filter(passed).length;
    if (passes === group.length) allPass++;
    else if (passes === 0) allFail++;
  }
  return {
    members,
    metrics: {
      frac_zero_std: members.length ? zeroStd / members.length : 0,
      groups_all_pass: allPass,
      groups_all_fail: allFail,
    },
  };
}
