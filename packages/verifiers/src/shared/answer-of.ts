import type { Trajectory } from '@skillrl/core';

/**
 * The text a verifier judges: the trajectory's `answer` when the rollout set one, otherwise the last step's
 * action (single-turn QA records the answer as its only action), otherwise the empty string.
 */
export function answerOf(trajectory: Trajectory): string {
  if (typeof trajectory.answer === 'string') return trajectory.answer;
  const last = trajectory.steps[trajectory.steps.length - 1];
  return last ? last.action : '';
}
