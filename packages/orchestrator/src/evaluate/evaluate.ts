import type { Agent, Skill, TaskAdapter, Trajectory } from '@skillrl/core';
import { skillForFamily } from '@skillrl/core';
import { collectRollouts, planRollouts } from '@skillrl/rollout';
import type { LoadedConfig, RunConfig, TaskSelection } from '../config/config-types.js';
import type { RunProgress } from '../run/run-types.js';
import { loadTasks, type RunBasics, setupBasics } from '../run/setup-run.js';

export interface EvaluateOptions {
  /** Episodes per task and condition (default 1). */
  episodes?: number;
  /** The tasks to evaluate on (default: the config's `tasks`). */
  tasks?: TaskSelection;
  /** The task model (default: the config's `agent`, freshly created), e.g. a trained policy from a run. */
  agent?: Agent;
  /** The with-skill condition's skill per family (default: the adapter's most specific skill per family). */
  skills?: Record<string, Skill>;
  onProgress?: (progress: RunProgress) => void;
  signal?: AbortSignal;
}

export interface FamilyEvaluation {
  family: string;
  /** Success rate with the family's skill in the prompt; null when the adapter has no skill for it. */
  withSkill: number | null;
  withoutSkill: number;
  episodes: number;
}

export interface Evaluation {
  families: FamilyEvaluation[];
  overall: { withSkill: number | null; withoutSkill: number; episodes: number };
}

/**
 * Runs the config's task model on the config's tasks with and without each family's skill (the adapter's
 * skill bank), nothing written to disk: how much the skills help before any training.
 */
export async function evaluate(loaded: LoadedConfig, options: EvaluateOptions = {}): Promise<Evaluation> {
  const basics = await setupBasics(loaded.config, loaded.path);
  return evaluateWith(loaded.config, basics, options);
}

/** `evaluate` on parts already set up (the run's adapter and, for a finished run, its trained agent). */
export async function evaluateWith(
  config: RunConfig,
  basics: RunBasics,
  options: EvaluateOptions = {},
): Promise<Evaluation> {
  const episodes = options.episodes ?? 1;
  const adapter = basics.adapter.value;
  const tasks = await loadTasks(adapter, options.tasks ?? config.tasks, config.seed);
  const skills = options.skills ?? (await defaultSkills(adapter));
  const plan = planRollouts({
    tasks,
    skills: (task) => skills[task.family],
    groupSize: 2 * episodes,
    pairing: { rho: 0.5 },
    seed: basics.root.seedFor('eval'),
  });
  const progress: RunProgress = { done: 0, total: plan.length, reused: 0, successRate: 0, phase: 'eval' };
  let passed = 0;
  options.onProgress?.({ ...progress });
  // Through rollout's episode pool, as every run's episodes go.
  const runs = await collectRollouts({
    plan,
    adapter,
    agent: options.agent ?? basics.agent.value,
    concurrency: config.concurrency ?? 8,
    ...(config.maxSteps ? { maxSteps: config.maxSteps } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    onTrajectory: (t) => {
      progress.done++;
      if (t.verdict.passed) passed++;
      progress.successRate = passed / progress.done;
      options.onProgress?.({ ...progress });
    },
  }).collect();
  return summarise(runs);
}

/** The adapter's most specific skill per family: what the with-skill side carries by default. */
export async function defaultSkills(adapter: TaskAdapter): Promise<Record<string, Skill>> {
  const bank = adapter.skills ? await adapter.skills() : [];
  const out: Record<string, Skill> = {};
  for (const family of adapter.families) {
    const skill = skillForFamily(bank, family);
    if (skill) out[family] = skill;
  }
  return out;
}

function rate(xs: readonly Trajectory[]): number | null {
  return xs.length ? xs.filter((t) => t.verdict.passed).length / xs.length : null;
}

function summarise(runs: readonly Trajectory[]): Evaluation {
  const families = [...new Set(runs.map((r) => r.family))].sort();
  const rows: FamilyEvaluation[] = families.map((family) => {
    const mine = runs.filter((r) => r.family === family);
    return {
      family,
      withSkill: rate(mine.filter((r) => r.condition === 1)),
      withoutSkill: rate(mine.filter((r) => r.condition === 0)) ?? 0,
      episodes: mine.length,
    };
  });
  return {
    families: rows,
    overall: {
      withSkill: rate(runs.filter((r) => r.condition === 1)),
      withoutSkill: rate(runs.filter((r) => r.condition === 0)) ?? 0,
      episodes: runs.length,
    },
  };
}
