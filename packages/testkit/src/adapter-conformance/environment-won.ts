import type { Trajectory } from '@skillrl/core';

/**
 * Whether the environment itself reported the episode won, read from the trajectory's last step as the
 * episode runner records it: the environment's info (at `step.info.env`) says `won: true` or
 * `success: true` (ALFWorld's flag, the household adapter's), or the environment's reward for that step is
 * at least 1 (a sparse success reward, as ALFWorld and WebShop give). Only `true` counts, not truthy values.
 */
export function environmentWon(trajectory: Pick<Trajectory, 'steps'>): boolean {
  const last = trajectory.steps.at(-1);
  if (last === undefined) return false;
  const flags = last.info?.env;
  return flags?.won === true || flags?.success === true || last.reward >= 1;
}
