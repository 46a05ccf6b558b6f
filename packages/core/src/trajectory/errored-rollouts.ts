import type { Trajectory } from '../contracts/trajectory.js';

/**
 * The one policy for errored rollouts. A rollout that ended in an error (`trajectory.error`: a model call
 * that failed past its retries, an environment or a verifier that threw) measured nothing about the policy
 * or the skill: its reward of 0 is a placeholder, not a failure. Every consumer — each method step's
 * estimator batch, Skill-R1's candidate means, SKILLC's validation rates and gap, the trainers, export and
 * the report — leaves it out and counts it where it does, through these functions, so no consumer scores an
 * API hiccup as the policy failing.
 */
export function rolloutErrored(trajectory: Pick<Trajectory, 'error'>): boolean {
  return trajectory.error !== undefined && trajectory.error !== null;
}

/** A rollout's score for the math: its reward, or NaN when it errored (every estimator skips NaN). */
export function rolloutScore(trajectory: Pick<Trajectory, 'error' | 'reward'>): number {
  return rolloutErrored(trajectory) ? Number.NaN : trajectory.reward;
}

/** The rollouts that count (in their order) and those left out because they errored. */
export interface ErroredSplit<T> {
  scored: T[];
  errored: T[];
}

/** Splits rollouts into those that count and those that errored, each in the order given. */
export function splitErrored<T extends Pick<Trajectory, 'error'>>(runs: readonly T[]): ErroredSplit<T> {
  const scored: T[] = [];
  const errored: T[] = [];
  for (const run of runs) (rolloutErrored(run) ? errored : scored).push(run);
  return { scored, errored };
}
