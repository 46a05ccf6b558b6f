import type { Trajectory } from '@skillrl/core';
import { type PlannedEpisode, planRollouts } from '@skillrl/rollout';
import household from '@skillrl/task-household';

/** A paired household plan (with and without each family's skill), as a SKILLC step plans it. */
export async function householdPlan(
  limit: number,
  groupSize: number,
  seed: number,
): Promise<PlannedEpisode[]> {
  const tasks = await household.load({ split: 'train', limit, seed });
  const skills = await household.skills?.();
  const bySkill = Object.fromEntries(
    household.families.map((f) => [f, skills?.find((s) => s.families?.includes(f)) ?? skills?.[0]]),
  );
  return planRollouts({
    tasks,
    skills: (task) => bySkill[task.family],
    groupSize,
    pairing: { rho: 0.5 },
    seed,
  } as Parameters<typeof planRollouts>[0]);
}

/** What two runs of the same episode must agree on. */
export const essence = (t: Trajectory) => ({
  id: t.id,
  reward: t.reward,
  passed: t.verdict.passed,
  actions: t.steps.map((s) => s.action),
  error: t.error?.code,
});
