import {
  type Agent,
  InvalidArgumentError,
  redactSecrets,
  type TaskAdapter,
  type Trajectory,
  type Usage,
  type Verifier,
} from '@skillrl/core';
import { runEpisode } from '../episode/run-episode.js';
import { traceUnrunEpisode } from '../trace/episode-span.js';
import { addUsage } from '../usage/price-table.js';
import { decisionRounds, isBatchedAgent } from './decision-rounds.js';
import { type PlannedEpisode, type PlanRolloutsOptions, planRollouts } from './plan-rollouts.js';

/** What `onTrajectory` learns besides the trajectory. */
export interface TrajectoryInfo {
  /** The planned episode the trajectory belongs to. */
  episode: PlannedEpisode;
  /** True when the trajectory came from `stored` instead of being run now. */
  reused: boolean;
}

/** How a batch runs, whichever way its episodes are planned. */
export interface RolloutRunSettings {
  adapter: Pick<TaskAdapter, 'createEnvironment' | 'verifier'> & Partial<Pick<TaskAdapter, 'tools'>>;
  agent: Agent;
  /** Episodes in flight at once. Default 16. */
  concurrency?: number;
  /**
   * When the agent has `actMany` (a `BatchedAgent`), the decisions of the episodes in flight go to it in
   * rounds (`decisionRounds`) instead of one `act` each. Default true; it changes no trajectory.
   */
  batchDecisions?: boolean;
  /** Per-episode step limit; default each environment's own `maxSteps`. */
  maxSteps?: number;
  /** Skill-R1 generation, recorded on every trajectory. */
  generation?: number;
  /** Overrides `adapter.verifier(task)`. */
  verifier?: (task: PlannedEpisode['task']) => Verifier;
  /**
   * A finished trajectory for this episode, to reuse instead of running it again (a resumed run reads its
   * own rollouts back by id). Reused trajectories are yielded and passed to `onTrajectory` like new ones.
   */
  stored?: (episode: PlannedEpisode) => Trajectory | undefined;
  /** Called as each trajectory finishes, before the iterator yields it; an error here stops the run. */
  onTrajectory?: (trajectory: Trajectory, info: TrajectoryInfo) => void | Promise<void>;
  signal?: AbortSignal;
}

/** Episodes planned beforehand (by `planRollouts`, or several of its plans joined); ids must be distinct. */
export interface PlannedRollouts {
  plan: readonly PlannedEpisode[];
}

/** The settings, and either the planning options (`tasks`, `skills`, `groupSize`, …) or a ready `plan`. */
export type CollectRolloutsOptions = RolloutRunSettings & (PlanRolloutsOptions | PlannedRollouts);

export interface RolloutSummary {
  planned: number;
  /** Trajectories yielded so far, reused ones included. */
  finished: number;
  /** Trajectories taken from `stored` instead of being run. */
  reused: number;
  /** Trajectories that ended with `error` set. */
  errors: number;
  usage: Usage;
}

/** A running batch: iterate it for trajectories in finishing order. */
export interface RolloutRun extends AsyncIterable<Trajectory> {
  /** Every episode of the batch, fixed by the seed before the first call. */
  readonly plan: readonly PlannedEpisode[];
  summary(): RolloutSummary;
  /** Runs the batch to the end and returns its trajectories in plan order (not finishing order). */
  collect(): Promise<Trajectory[]>;
}

/**
 * Checks a plan before any episode runs: an array whose episode ids are unique (a trajectory is stored and
 * reused by its id). Every episode source checks its plan so (this pool, `@skillrl/queue`'s workers).
 */
export function checkRolloutPlan(plan: readonly PlannedEpisode[]): readonly PlannedEpisode[] {
  if (!Array.isArray(plan)) throw new InvalidArgumentError('plan', 'expected an array of planned episodes');
  const ids = new Set<string>();
  // A repeated id leaves the set's size unchanged.
  const repeated = plan.find((episode) => ids.size === ids.add(episode.id).size);
  if (repeated) {
    throw new InvalidArgumentError(
      'plan',
      `episode id "${repeated.id}" appears twice; trajectory ids would collide`,
    );
  }
  return plan;
}

/** A batch's summary before its first trajectory: what every episode source starts counting from. */
export function emptyRolloutSummary(planned: number): RolloutSummary {
  return { planned, finished: 0, reused: 0, errors: 0, usage: { inputTokens: 0, outputTokens: 0 } };
}

function errorTrajectory(episode: PlannedEpisode, code: string, error: unknown): Trajectory {
  const message = redactSecrets(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  const trajectory: Trajectory = {
    id: episode.id,
    taskId: episode.task.id,
    family: episode.task.family,
    condition: episode.condition,
    groupId: episode.groupId,
    index: episode.index,
    steps: [],
    reward: 0,
    verdict: { score: 0, passed: false, reason: `episode did not finish (${code}): ${message}` },
    error: { code, message },
    seed: episode.seed,
    durationMs: 0,
  };
  if (episode.candidate !== undefined) trajectory.candidate = episode.candidate;
  // Every rollout has its episode span, one that never ran too.
  traceUnrunEpisode(trajectory);
  return trajectory;
}

/**
 * Runs a batch of episodes planned by `planRollouts` (from the planning options, or a `plan` given ready)
 * with at most `concurrency` in flight, streaming each trajectory as it finishes. Every planned episode yields
 * exactly one trajectory (a failed one carries `error`); one that `stored` knows is yielded without running.
 * Aborting `signal`, or leaving the loop early, cancels the episodes in flight and waits for them, so no
 * request is left dangling; after an abort the iterator throws the abort reason.
 */
export function collectRollouts(options: CollectRolloutsOptions): RolloutRun {
  const plan = 'plan' in options ? checkRolloutPlan(options.plan) : planRollouts(options);
  const concurrency = options.concurrency ?? 16;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InvalidArgumentError('concurrency', `expected an integer >= 1, got ${concurrency}`);
  }
  const summary = emptyRolloutSummary(plan.length);
  let started = false;

  async function* iterate(): AsyncGenerator<Trajectory> {
    if (started) throw new InvalidArgumentError('rollout run', 'a run can be iterated only once');
    started = true;
    const controller = new AbortController();
    // Each episode gets its own signal, aborted from here: requests add abort listeners to their signal, and
    // hundreds of listeners on one shared signal make every addEventListener a linear scan.
    const episodes = new Set<AbortController>();
    controller.signal.addEventListener('abort', () => {
      for (const episode of episodes) episode.abort(controller.signal.reason);
    });
    const outer = options.signal;
    const onOuterAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) controller.abort(outer.reason);
    else outer?.addEventListener('abort', onOuterAbort, { once: true });
    const signal = controller.signal;
    const queue: Trajectory[] = [];
    let wake: (() => void) | undefined;
    let failure: { error: unknown } | undefined;
    let next = 0;
    let done = plan.length === 0;
    const verifiers = new Map<string, Verifier>();
    const agent =
      options.batchDecisions !== false && isBatchedAgent(options.agent)
        ? decisionRounds(options.agent)
        : options.agent;

    const runOne = async (episode: PlannedEpisode): Promise<Trajectory> => {
      let verifier = verifiers.get(episode.task.id);
      try {
        if (!verifier) {
          verifier = options.verifier
            ? options.verifier(episode.task)
            : options.adapter.verifier(episode.task);
          verifiers.set(episode.task.id, verifier);
        }
      } catch (error) {
        return errorTrajectory(episode, 'verifier', error);
      }
      let env: Awaited<ReturnType<TaskAdapter['createEnvironment']>>;
      try {
        env = await options.adapter.createEnvironment(episode.task);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        return errorTrajectory(episode, 'environment', error);
      }
      const own = new AbortController();
      episodes.add(own);
      if (signal.aborted) own.abort(signal.reason);
      try {
        return await runEpisode({
          agent,
          env,
          task: episode.task,
          condition: episode.condition,
          verifier,
          signal: own.signal,
          id: episode.id,
          seed: episode.seed,
          groupId: episode.groupId,
          index: episode.index,
          ...(episode.skill ? { skill: episode.skill } : {}),
          ...(episode.candidate !== undefined ? { candidate: episode.candidate } : {}),
          ...(options.generation !== undefined ? { generation: options.generation } : {}),
          ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
          ...(options.adapter.tools ? { tools: options.adapter.tools } : {}),
        });
      } finally {
        episodes.delete(own);
      }
    };

    const worker = async () => {
      while (!signal.aborted && next < plan.length) {
        const episode = plan[next++] as PlannedEpisode;
        try {
          const stored = options.stored?.(episode);
          const trajectory = stored ?? (await runOne(episode));
          await options.onTrajectory?.(trajectory, { episode, reused: stored !== undefined });
          summary.finished++;
          if (stored) summary.reused++;
          if (trajectory.error) summary.errors++;
          // Usage counts what this run spent: a reused trajectory's calls were paid by the run that made it.
          if (!stored) summary.usage = addUsage(summary.usage, trajectory.usage) as Usage;
          queue.push(trajectory);
        } catch (error) {
          if (!signal.aborted) {
            failure ??= { error };
            controller.abort(error);
          }
        }
        wake?.();
      }
    };
    const workers = Promise.all(Array.from({ length: Math.min(concurrency, plan.length) }, worker)).then(
      () => {
        done = true;
        wake?.();
      },
    );
    try {
      for (;;) {
        const item = queue.shift();
        if (item) {
          yield item;
          continue;
        }
        if (done) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
      if (failure) throw failure.error;
      if (signal.aborted) throw signal.reason;
    } finally {
      if (!done) controller.abort(new Error('the rollout iterator was closed early'));
      await workers;
      outer?.removeEventListener('abort', onOuterAbort);
    }
  }

  return rolloutRun(plan, summary, iterate);
}

/**
 * The `RolloutRun` of a plan from an episode source's iterator (trajectories in finishing order) and its live
 * summary: `collect()` runs it to the end and returns the trajectories in plan order. Every source builds its
 * run so (this pool, `@skillrl/queue`'s workers), so the two answer alike.
 */
export function rolloutRun(
  plan: readonly PlannedEpisode[],
  summary: RolloutSummary,
  iterate: () => AsyncGenerator<Trajectory>,
): RolloutRun {
  return {
    plan,
    summary: () => ({ ...summary, usage: { ...summary.usage } }),
    [Symbol.asyncIterator]: () => iterate(),
    async collect() {
      const byId = new Map<string, Trajectory>();
      for await (const trajectory of iterate()) byId.set(trajectory.id, trajectory);
      return plan.map((episode) => byId.get(episode.id) as Trajectory);
    },
  };
}
