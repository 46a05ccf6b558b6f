import type { EpisodeSummary, Trajectory } from '@skillrl/core';

/** The history's account of one episode: where it went wrong, what it last saw, what the verifier said. */
export function episodeSummary(trajectory: Trajectory): EpisodeSummary {
  const summary: EpisodeSummary = {
    trajectoryId: trajectory.id,
    reward: trajectory.reward,
    passed: trajectory.verdict.passed,
  };
  const steps = trajectory.steps;
  if (!trajectory.verdict.passed && steps.length > 0) {
    const invalid = steps.findIndex((s) => s.invalid === true);
    summary.failingStep = invalid >= 0 ? invalid : steps.length - 1;
  }
  const last = steps[steps.length - 1];
  if (last) summary.lastObservation = last.observation;
  const reason = trajectory.verdict.reason ?? trajectory.error?.message;
  if (reason) summary.reason = reason;
  return summary;
}
