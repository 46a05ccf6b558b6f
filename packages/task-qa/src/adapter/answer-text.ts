import type { Trajectory } from '@skillrl/core';

/**
 * The text a QA verifier judges: the trajectory's `answer` when the rollout set one, else the last step's
 * action (a one-step QA episode records the answer as its only action), else the empty string. The same rule
 * as `@skillrl/verifiers`' `answerOf`.
 */
export function answerText(trajectory: Trajectory): string {
  if (typeof trajectory.answer === 'string') return trajectory.answer;
  const last = trajectory.steps[trajectory.steps.length - 1];
  return last ? last.action : '';
}

/** A short, quoted, single-line rendering of a value for verdict reasons. */
export function quote(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ');
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}
