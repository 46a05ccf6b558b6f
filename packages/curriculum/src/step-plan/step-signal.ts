import type { TrainMetrics, Trajectory } from '@skillrl/core';

/**
 * What a unit's update had to learn from, counted where the no-signal guard reads it (the step's metrics,
 * the run's summary). verl, TRL and OpenRLHF users meet each of these one case at a time: groups whose
 * rewards are all equal give every sample advantage 0 (TRL #3708), and an update whose gradient is zero
 * moves nothing while the run reports progress.
 */
export interface StepSignal {
  /** Groups (tasks) with at least one scored rollout. */
  groups: number;
  /** Of those, groups whose scored rollouts all have the same score (one rollout included): no signal. */
  zeroVarianceGroups: number;
  /** The update moved nothing: the trainer reported a gradient norm of 0, or trained no trajectory. */
  zeroUpdate: boolean;
  /** Why the unit's signal is void, in words; absent when it carried any. */
  void?: string;
}

/** How a group's samples must differ to carry signal: by score (verl `metric: score`) or by success (`acc`). */
export type SignalMetric = 'score' | 'success';

const outcomeOf = (t: Trajectory, metric: SignalMetric): number =>
  metric === 'success' ? (t.verdict.passed ? 1 : 0) : t.reward;

/** Whether a group's scored rollouts differ under `metric` (a group of one never does). */
export function groupHasSignal(runs: readonly Trajectory[], metric: SignalMetric = 'score'): boolean {
  if (runs.length < 2) return false;
  const first = outcomeOf(runs[0] as Trajectory, metric);
  return runs.some((t) => outcomeOf(t, metric) !== first);
}

/** Scored rollouts by task, tasks in order of first appearance. */
export function groupsByTask(runs: readonly Trajectory[]): Trajectory[][] {
  const byTask = new Map<string, Trajectory[]>();
  for (const t of runs) {
    const group = byTask.get(t.taskId);
    if (group) group.push(t);
    else byTask.set(t.taskId, [t]);
  }
  return [...byTask.values()];
}

/**
 * Whether an update moved nothing, by the metrics trainers report (`PolicyTrainer` in core names them):
 * `grad_norm` of 0 (the norm before clipping: the tfjs trainer), `episodes` of 0 (nothing was trained), or
 * `datums` of 0 (the Tinker trainer sends no datum when every advantage is 0: its LoRA cannot move). A
 * trainer that reports none of them is never judged to have made a zero update.
 */
export function zeroUpdate(metrics: TrainMetrics): boolean {
  const zero = (value: unknown) => typeof value === 'number' && value === 0;
  return zero(metrics.grad_norm) || zero(metrics.episodes) || zero(metrics.datums);
}

/**
 * A SKILLC step's signal: its groups (scored rollouts only; errored ones measured nothing), how many carried
 * none, and whether the update moved the policy. Void when nothing was left to learn from, when every group
 * was zero-variance, or when the update was zero.
 */
export function stepSignal(
  scored: readonly Trajectory[],
  train: TrainMetrics,
  metric: SignalMetric = 'score',
): StepSignal {
  const groups = groupsByTask(scored);
  const zeroVarianceGroups = groups.filter((g) => !groupHasSignal(g, metric)).length;
  const zero = zeroUpdate(train);
  const signal: StepSignal = { groups: groups.length, zeroVarianceGroups, zeroUpdate: zero };
  if (groups.length === 0)
    signal.void = 'no group to learn from (its rollouts errored, or dynamic sampling kept none)';
  else if (zeroVarianceGroups === groups.length)
    signal.void = `every group was zero-variance (all ${groups.length} groups' rollouts scored alike)`;
  else if (zero) signal.void = 'the update was zero (gradient norm 0, or nothing trained)';
  return signal;
}
