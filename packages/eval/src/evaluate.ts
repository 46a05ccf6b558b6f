import type { Agent, Skill, Trajectory } from '@skillrl/core';
import { redactSecrets, rolloutErrored, splitErrored } from '@skillrl/core';
import {
  type LoadedConfig,
  loadTasks,
  type RunBasics,
  type RunConfig,
  type RunProgress,
  releaseAgent,
  rolloutEndpoint,
  setupBasics,
  type TaskSelection,
} from '@skillrl/orchestrator';
import { collectRollouts, planRollouts } from '@skillrl/rollout';
import { EvaluationHealth } from './evaluation-health.js';
import { evaluationTasks } from './evaluation-tasks.js';
import { defaultSkills, trainingSkills } from './training-skills.js';

export { defaultSkills } from './training-skills.js';

export interface EvaluateOptions {
  /** Episodes per task and condition (default 1). */
  episodes?: number;
  /**
   * The tasks to evaluate on (default: the config's `tasks`, its split, limit and seed, as the run loads
   * them; `evaluationTasks` gives another split the options the config gives it).
   */
  tasks?: TaskSelection;
  /** The task model (default: the config's `agent`, freshly created), e.g. a trained policy from a run. */
  agent?: Agent;
  /**
   * The with-skill condition's skill per family (default: as training builds it, `trainingSkills`: an
   * internalize config's general sections plus each family's own; otherwise the family's own skill).
   */
  skills?: Record<string, Skill>;
  onProgress?: (progress: RunProgress) => void;
  /**
   * The label the episodes' seeds derive from, under the config's seed (default `eval`). `evaluateRun` on a
   * run's own test split passes `test`, the label of the run's held-out test, so it plays those episodes.
   */
  seedLabel?: string;
  /** Each episode as it ends (its trajectory), e.g. to pair the conditions by task (`skillrl skills test`). */
  onTrajectory?: (trajectory: Trajectory) => void;
  signal?: AbortSignal;
}

export interface FamilyEvaluation {
  family: string;
  /**
   * Success rate with the family's skill in the prompt, over its episodes that ended without an error;
   * null when the adapter has no skill for it, or every such episode ended in an error.
   */
  withSkill: number | null;
  /** Success rate without a skill, over the episodes that ended without an error; null when none did. */
  withoutSkill: number | null;
  /** Episodes run, those that ended in an error included. */
  episodes: number;
}

/** Episodes that ended in an error (a failed model call, a broken environment), by condition. */
export interface ErrorCounts {
  withSkill: number;
  withoutSkill: number;
  total: number;
}

export interface Evaluation {
  families: FamilyEvaluation[];
  overall: { withSkill: number | null; withoutSkill: number | null; episodes: number };
  /**
   * Episodes that ended in an error, in all, per condition and per family: not results, so not in the
   * success rates. Past the config's `health` budget, `evaluate` throws `EvaluationHealthError` instead.
   */
  errors: ErrorCounts & {
    families: (ErrorCounts & { family: string })[];
    /** The most common error and how often it occurred (absent when none). */
    common?: { error: string; count: number };
  };
}

/**
 * Runs the config's task model on the config's tasks (its `tasks`: split, limit and seed, as the run loads
 * them) with and without each family's skill, nothing written to disk: how much the skills help before any
 * training. The with-skill side carries what the config's training would (`trainingSkills`), so it matches
 * `evaluateRun` of an untrained run of the same config. Episodes that end in an error are counted, not
 * scored; past the config's error budget (`health`) it throws `EvaluationHealthError`, as a run stops.
 */
export async function evaluate(loaded: LoadedConfig, options: EvaluateOptions = {}): Promise<Evaluation> {
  const basics = await setupBasics(loaded.config, loaded.path);
  try {
    const skills = options.skills ?? (await trainingSkills(basics.adapter.value, loaded.config, loaded.path));
    return await evaluateWith(
      loaded.config,
      basics,
      { ...options, skills },
      {
        target: loaded.path,
        again: `skillrl eval ${loaded.path}`,
      },
    );
  } finally {
    await releaseAgent(basics.agent.value);
  }
}

/** What an evaluation names in its error: what was evaluated and the command that does it again. */
export interface EvaluationTarget {
  target: string;
  again: string;
}

/** `evaluate` on parts already set up (the run's adapter and, for a finished run, its trained agent). */
export async function evaluateWith(
  config: RunConfig,
  basics: RunBasics,
  options: EvaluateOptions = {},
  target: EvaluationTarget = { target: 'the config', again: 'skillrl eval <config>' },
): Promise<Evaluation> {
  const episodes = options.episodes ?? 1;
  const adapter = basics.adapter.value;
  const selection = options.tasks ?? evaluationTasks(config).tasks;
  const tasks = await loadTasks(adapter, selection, config.seed);
  const skills = options.skills ?? (await defaultSkills(adapter));
  const plan = planRollouts({
    tasks,
    skills: (task) => skills[task.family],
    groupSize: 2 * episodes,
    pairing: { rho: 0.5 },
    seed: basics.root.seedFor(options.seedLabel ?? 'eval'),
  });
  const progress: RunProgress = { done: 0, total: plan.length, reused: 0, successRate: 0, phase: 'eval' };
  let passed = 0;
  let errored = 0;
  options.onProgress?.({ ...progress });
  const health = new EvaluationHealth(config.health, rolloutEndpoint(config), target.target, target.again);
  // Stops the episodes in flight once the budget is spent, as a run's session does.
  const controller = new AbortController();
  const outer = options.signal;
  const follow = () => controller.abort(outer?.reason);
  if (outer?.aborted) follow();
  else outer?.addEventListener('abort', follow, { once: true });
  health.start();
  let runs: Trajectory[];
  try {
    // Through rollout's episode pool, as every run's episodes go.
    runs = await collectRollouts({
      plan,
      adapter,
      agent: options.agent ?? basics.agent.value,
      concurrency: config.concurrency ?? 8,
      ...(config.maxSteps ? { maxSteps: config.maxSteps } : {}),
      signal: controller.signal,
      onTrajectory: (t) => {
        progress.done++;
        // The live rate is over the episodes that ended without an error, as the final one is.
        if (rolloutErrored(t)) errored++;
        else if (t.verdict.passed) passed++;
        const results = progress.done - errored;
        progress.successRate = results > 0 ? passed / results : 0;
        options.onProgress?.({ ...progress });
        options.onTrajectory?.(t);
        const tripped = health.record(t);
        if (tripped && !controller.signal.aborted) controller.abort(tripped);
      },
    }).collect();
  } catch (error) {
    throw health.tripped ?? error;
  } finally {
    outer?.removeEventListener('abort', follow);
  }
  const tripped = health.finish(runs);
  if (tripped) throw tripped;
  return summarise(runs);
}

/** Success over the episodes that ended without an error (core's errored-rollout policy): an error is not a result. */
function rate(xs: readonly Trajectory[]): number | null {
  const { scored } = splitErrored(xs);
  return scored.length ? scored.filter((t) => t.verdict.passed).length / scored.length : null;
}

function errorCounts(xs: readonly Trajectory[]): ErrorCounts {
  const { errored } = splitErrored(xs);
  const withSkill = errored.filter((t) => t.condition === 1).length;
  const withoutSkill = errored.filter((t) => t.condition === 0).length;
  return { withSkill, withoutSkill, total: withSkill + withoutSkill };
}

function mostCommonError(xs: readonly Trajectory[]): { error: string; count: number } | undefined {
  const counts = new Map<string, number>();
  for (const t of xs) {
    if (!t.error) continue;
    const text = redactSecrets(`${t.error.code}: ${t.error.message}`).replace(/\s+/g, ' ').trim();
    const key = text.length > 400 ? `${text.slice(0, 399)}…` : text;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let best: { error: string; count: number } | undefined;
  for (const [error, count] of counts) if (!best || count > best.count) best = { error, count };
  return best;
}

function summarise(runs: readonly Trajectory[]): Evaluation {
  const families = [...new Set(runs.map((r) => r.family))].sort();
  const byFamily = families.map((family) => ({ family, runs: runs.filter((r) => r.family === family) }));
  const common = mostCommonError(runs);
  return {
    families: byFamily.map(({ family, runs: mine }) => ({
      family,
      withSkill: rate(mine.filter((r) => r.condition === 1)),
      withoutSkill: rate(mine.filter((r) => r.condition === 0)),
      episodes: mine.length,
    })),
    overall: {
      withSkill: rate(runs.filter((r) => r.condition === 1)),
      withoutSkill: rate(runs.filter((r) => r.condition === 0)),
      episodes: runs.length,
    },
    errors: {
      ...errorCounts(runs),
      families: byFamily.map(({ family, runs: mine }) => ({ family, ...errorCounts(mine) })),
      ...(common ? { common } : {}),
    },
  };
}
