import type { Trajectory, TrajectoryStep } from '../contracts/trajectory.js';

/**
 * Whether the environment itself reported the episode won, read from its last step as the episode runner
 * records it: the environment's `StepResult.info` (kept at `step.info.env`) says `won: true` (ALFWorld, the
 * household adapter) or `success: true`, or the environment's reward for that step is at least 1 (the sparse
 * success reward of ALFWorld and WebShop). Only the literal `true` counts, not truthy values.
 *
 * One rule for everything that compares the environment with the verifier: the testkit's adapter kit and a
 * run's `envVerdictMismatch` warning both read it here.
 */
export function environmentWon(trajectory: Pick<Trajectory, 'steps'>): boolean {
  return stepWon(trajectory.steps.at(-1));
}

/** The same rule for one step (undefined: no step, not won). */
export function stepWon(step: TrajectoryStep | undefined): boolean {
  if (step === undefined) return false;
  const flags = step.info?.env;
  return flags?.won === true || flags?.success === true || step.reward >= 1;
}
