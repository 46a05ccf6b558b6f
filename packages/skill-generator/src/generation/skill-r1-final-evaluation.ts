import { mean, pairedUtility, type Skill, splitErrored, type Task, type Trajectory } from '@skillrl/core';
import { type PlannedEpisode, planRollouts } from '@skillrl/rollout';

/** What Skill-R1's final evaluation runs: each task's carried skill, and how many episodes with it. */
export interface SkillR1FinalEvaluationInput {
  tasks: readonly Task[];
  /** The skill each task carries after its last generation (none: it runs without one). */
  skillOf(task: Task): Skill | undefined;
  /** Fresh episodes per task under its carried skill (`evolve.finalEpisodes`). */
  episodes: number;
  /** Also as many episodes of each task that carries a skill without it (`evolve.finalPaired`). */
  paired: boolean;
  seed: number;
}

/**
 * The final evaluation's episodes: fresh ones under each task's carried skill (the best candidate's own reward
 * is selection-biased) and, when `paired`, as many without it (`…:c0:…` ids). The episodes with the skill are
 * planned exactly as without the pairing, so `final_eval_*` does not change with it.
 */
export function planSkillR1FinalEvaluation(input: SkillR1FinalEvaluationInput): PlannedEpisode[] {
  const { tasks, skillOf, episodes, seed } = input;
  const plan = planRollouts({ tasks: [...tasks], skills: skillOf, groupSize: episodes, seed });
  if (input.paired) {
    const withSkill = tasks.filter((t) => skillOf(t) !== undefined);
    plan.push(...planRollouts({ tasks: withSkill, groupSize: episodes, seed }));
  }
  return plan;
}

/**
 * The final evaluation's metrics, under `prefix` (`heldout_` for the held-out tasks): `final_eval_*` from the
 * episodes with the skill (errored ones counted apart, never scored), and with `paired` each final skill's
 * measured utility as `final_utility_*` (with − without success, paired by task) and `final_without_success`.
 */
export function skillR1FinalMetrics(
  runs: readonly Trajectory[],
  { paired, unit, prefix = '' }: { paired: boolean; unit: string; prefix?: string },
): Record<string, number> {
  const { scored, errored } = splitErrored(runs.filter((r) => r.condition === 1 || !paired));
  const metrics: Record<string, number> = {
    [`${prefix}final_eval_reward`]: scored.length ? mean(scored.map((r) => r.reward)) : Number.NaN,
    [`${prefix}final_eval_success`]: scored.length
      ? scored.filter((r) => r.verdict.passed).length / scored.length
      : 0,
    [`${prefix}final_eval_episodes`]: scored.length,
    [`${prefix}final_eval_errored`]: errored.length,
  };
  const utility = paired ? pairedUtility(runs, unit) : undefined;
  if (utility) {
    metrics[`${prefix}final_utility_gap`] = utility.gap;
    metrics[`${prefix}final_utility_lo`] = utility.lo;
    metrics[`${prefix}final_utility_hi`] = utility.hi;
    metrics[`${prefix}final_utility_pairs`] = utility.pairs;
    metrics[`${prefix}final_without_success`] = utility.withoutSkill;
  }
  return metrics;
}
