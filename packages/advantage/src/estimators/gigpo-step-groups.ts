import type { GroupIndex } from '../group/group-index.js';
import type { GroupMoments } from '../group/group-moments.js';

/**
 * GiGPO's anchor-state grouping (Eq. 6, verl-agent's `build_step_group` with `enable_similarity=False`):
 * rows of the same task group whose anchor-state keys are equal form one step group. Step groups never cross
 * task groups, even when two tasks pass through the same state, because the step baseline compares actions
 * taken toward the same goal. Step groups are numbered in order of first appearance.
 *
 * Only exact grouping: verl-agent can also cluster observations whose text similarity is >= 0.95
 * (`enable_similarity`), but our keys are hashes of the state (core's `stateKeyOf`), so nearness is lost.
 */
export function groupAnchorStates(
  keys: readonly string[],
  taskOf: Int32Array,
  taskCount: number,
): GroupIndex {
  const rows = keys.length;
  // One Map per task group: the same key in two tasks is two step groups, with no composite string keys.
  const byTask: Array<Map<string, number> | undefined> = new Array(taskCount);
  const groupOf = new Int32Array(rows);
  const firstSample: number[] = [];
  for (let row = 0; row < rows; row++) {
    const task = taskOf[row] as number;
    let seen = byTask[task];
    if (!seen) {
      seen = new Map();
      byTask[task] = seen;
    }
    const key = keys[row] as string;
    let g = seen.get(key);
    if (g === undefined) {
      g = firstSample.length;
      seen.set(key, g);
      firstSample.push(row);
    }
    groupOf[row] = g;
  }
  return { size: rows, groupCount: firstSample.length, groupOf, firstSample: Int32Array.from(firstSample) };
}

/** The distribution of step-group sizes (verl-agent prints it from `build_step_group`), as metrics. */
export interface StepGroupMetrics extends Record<string, number> {
  /** Step rows of the samples with a finite score. */
  steps: number;
  /** Step groups (distinct anchor states per task group). */
  step_groups: number;
  /** Mean steps per step group (verl-agent's "Avg size of step-level group"); 0 without steps. */
  step_group_size_mean: number;
  /** Largest step group. */
  step_group_size_max: number;
  /** Share of steps alone in their step group: their step advantage is 0, as with no step level at all. */
  step_frac_singleton: number;
  /**
   * Share of step groups whose returns are all equal, a one-step group included (the rule of `frac_zero_std`):
   * no step-level signal.
   */
  step_frac_zero_std: number;
}

/** Reduces the step groups' moments to the size distribution and the share without signal. */
export function stepGroupMetrics(moments: GroupMoments): StepGroupMetrics {
  let steps = 0;
  let max = 0;
  let singletonSteps = 0;
  let zeroStd = 0;
  for (let g = 0; g < moments.groupCount; g++) {
    const c = moments.count[g] as number;
    steps += c;
    if (c > max) max = c;
    if (c === 1) singletonSteps++;
    if (moments.constant[g] === 1) zeroStd++;
  }
  const groups = moments.groupCount;
  return {
    steps,
    step_groups: groups,
    step_group_size_mean: groups === 0 ? 0 : steps / groups,
    step_group_size_max: max,
    step_frac_singleton: steps === 0 ? 0 : singletonSteps / steps,
    step_frac_zero_std: groups === 0 ? 0 : zeroStd / groups,
  };
}
