import type { Task, Trajectory, Verdict, Verifier } from '@skillrl/core';

/**
 * ALFWorld's success: the environment says the goal holds. Read from the trajectory's final step (the
 * environment's `won`, which the episode runner records at `info.env.won`, or a done step with reward 1),
 * so a verdict can be recomputed from `rollouts.jsonl` alone.
 */
export function householdVerifier(): Verifier {
  return {
    name: 'household-won',
    verify(task: Task, trajectory: Trajectory): Verdict {
      const last = trajectory.steps[trajectory.steps.length - 1];
      const flagged = last?.info?.env?.won;
      const won = flagged === true || (flagged === undefined && last?.done === true && last.reward >= 1);
      return {
        score: won ? 1 : 0,
        passed: won,
        reason: won
          ? `won ${task.family} in ${trajectory.steps.length} steps`
          : last
            ? `goal not reached after ${trajectory.steps.length} steps`
            : 'the trajectory has no steps',
        details: { steps: trajectory.steps.length },
      };
    },
  };
}
