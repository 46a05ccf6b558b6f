import type { TrainBatch, Trajectory } from '@skillrl/core';

/** One row of a step's record in advantages.jsonl: a trained rollout and its advantages. */
export interface StoredAdvantageRow {
  trajectoryId: string;
  advantage: number;
  /** Step-level advantages, when the estimator gave them (GiGPO). */
  stepAdvantages?: number[];
}

/**
 * The update a stored step made, rebuilt from its advantages.jsonl record and the stored rollouts (their
 * latest records): what a trainer that cannot save its state replays on resume, and what eval replays to
 * rebuild the trained policy. `undefined` for a step that trained nothing (no row), which made no update.
 */
export function replayBatch(
  rows: readonly StoredAdvantageRow[],
  trajectory: (id: string) => Trajectory,
): TrainBatch | undefined {
  if (rows.length === 0) return undefined;
  const stepLevel = rows.some((r) => Array.isArray(r.stepAdvantages));
  return {
    trajectories: rows.map((r) => trajectory(r.trajectoryId)),
    advantages: rows.map((r) => r.advantage),
    ...(stepLevel ? { stepAdvantages: rows.map((r) => r.stepAdvantages) } : {}),
  };
}
