import type { CurriculumState, Rng, Skill, Task } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';

/**
 * One group of episodes of one task, as plain data: `@skillrl/rollout`'s `planRollouts` turns it into
 * episodes (`{ tasks: [task], skills: skill, groupSize, pairing: { rho }, seed }`), rounding ρ·n half up and
 * placing the with-skill episodes by a seeded shuffle. The curriculum decides what, rollout decides how.
 */
export interface EpisodeGroup {
  task: Task;
  /** The skill context the group's with-skill episodes carry; absent: every episode runs without a skill. */
  skill?: Skill;
  /** Share of the group run with the skill: ρ_k for a paired group, 1 or 0 for a one-condition group. */
  rho: number;
}

/** Groups of one size under one seed: what a training step or a paired validation runs. */
export interface GroupPlan {
  groups: EpisodeGroup[];
  /** Episodes per group. */
  groupSize: number;
  /** The plan's seed: each episode's seed derives from it and the episode's id. */
  seed: number;
}

/** One SKILLC training step, planned before any rollout. */
export interface SkillcStepPlan extends GroupPlan {
  step: number;
  /**
   * Which generation batch of the step this is: 0, or k ≥ 1 for the k-th refill of dynamic sampling (DAPO),
   * whose tasks, seed and rollout ids are its own.
   */
  batch: number;
  /** λ_k per family for the step's batch: the curriculum's λ for an active family, 0 for a retired one. */
  lambda: Record<string, number>;
}

export interface SkillcStepInput {
  /** The training step t, from 1. */
  step: number;
  /** The training tasks to sample from. */
  pool: readonly Task[];
  tasksPerStep: number;
  groupSize: number;
  /** The curriculum's state before the step (λ_k, ρ_k, the active types). */
  state: CurriculumState;
  /** What a training rollout of a family carries (`createStepSkills(...).training`). */
  skillFor: (family: string, state: CurriculumState) => Skill | undefined;
  /**
   * Paired groups (default): ρ_k·n of each group with the skill, the rest without. `false` is the
   * no-pairing ablation: the whole group runs under one condition, with the skill with probability ρ_k.
   */
  pairing?: boolean;
  /** The run's root stream; the step's draws fork from it by name, so a resumed step draws the same. */
  rng: Rng;
  /**
   * Dynamic sampling's refills: batch k ≥ 1 of the step draws its tasks and seed from streams of its own and
   * leaves out `exclude` (the tasks earlier batches of the step ran). Default 0, the step's own batch.
   */
  batch?: number;
  exclude?: ReadonlySet<string>;
}

/**
 * `n` distinct tasks from `pool` in a seeded order (the whole pool when it holds fewer): the tasks of one
 * training step.
 */
export function sampleStepTasks(pool: readonly Task[], n: number, rng: Rng): Task[] {
  const out: Task[] = [];
  while (out.length < n) {
    const order = rng.shuffle(pool);
    for (const task of order) {
      if (out.length >= n) break;
      if (!out.some((t) => t.id === task.id)) out.push(task);
    }
    if (out.length === pool.length) break;
  }
  return out;
}

/**
 * λ_k of each sample's family (0 for a retired or unknown type): the batch's `attributionStrengths`, one per
 * sample.
 */
export function attributionStrengthsOf(
  plan: Pick<SkillcStepPlan, 'lambda'>,
  families: readonly string[],
): number[] {
  return families.map((family) => plan.lambda[family] ?? 0);
}

/**
 * SKILLC's step planning (arXiv 2605.27899): which tasks step t samples, which skill each group carries
 * and how many of its rollouts carry it (ρ_k, or a one-condition group in the no-pairing ablation), and λ_k
 * per family for the estimator. The baselines are this step under another curriculum (static ρ for GRPO and
 * D2Skill, SKILL0's schedule). Plain data: the orchestrator hands the groups to rollout's planner.
 */
export function planSkillcStep(input: SkillcStepInput): SkillcStepPlan {
  const { step, state, rng } = input;
  if (!Number.isInteger(step) || step < 1) {
    throw new InvalidArgumentError('step', `expected a training step >= 1, got ${String(step)}`);
  }
  const batch = input.batch ?? 0;
  if (!Number.isInteger(batch) || batch < 0) {
    throw new InvalidArgumentError('batch', `expected an integer >= 0, got ${String(batch)}`);
  }
  const exclude = input.exclude;
  const pool = exclude && exclude.size > 0 ? input.pool.filter((t) => !exclude.has(t.id)) : input.pool;
  // Batch 0 keeps the names it always had, so a run without refills draws exactly what it drew before.
  const name = batch === 0 ? `step:${step}` : `step:${step}:batch${batch}`;
  const tasks = sampleStepTasks(pool, input.tasksPerStep, rng.fork(name));
  const groups = tasks.map((task): EpisodeGroup => {
    const skill = input.skillFor(task.family, state);
    const rho = skill ? (state.rho[task.family] ?? 0) : 0;
    if (input.pairing === false) {
      const withSkill = skill !== undefined && rng.fork(`s${step}:condition`).fork(task.id).bernoulli(rho);
      return withSkill ? { task, skill: skill as Skill, rho: 1 } : { task, rho: 0 };
    }
    return skill ? { task, skill, rho } : { task, rho };
  });
  // λ_k travels in the batch so any estimator (a package's too) receives it; a retired type gets 0.
  const lambda: Record<string, number> = {};
  for (const family of Object.keys(state.lambda)) {
    lambda[family] = state.active.includes(family) ? (state.lambda[family] ?? 0) : 0;
  }
  const seed = rng.seedFor(batch === 0 ? `s${step}` : `s${step}b${batch}`);
  return { step, batch, groups, groupSize: input.groupSize, seed, lambda };
}
