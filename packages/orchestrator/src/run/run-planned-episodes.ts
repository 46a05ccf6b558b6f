import type { Agent, Task, TaskAdapter, Trajectory, Verifier } from '@skillrl/core';
import { type PlannedEpisode, runEpisode } from '@skillrl/rollout';

export interface EpisodeRunContext {
  adapter: TaskAdapter;
  agent: Agent;
  concurrency: number;
  maxSteps?: number;
  generation?: number;
  signal?: AbortSignal;
}

export interface EpisodeHooks {
  /** A finished trajectory with this id, to reuse instead of running the episode again. */
  existing?(id: string): Trajectory | undefined;
  /** Called once per trajectory, reused or new, in finishing order. */
  onDone?(trajectory: Trajectory, reused: boolean): void;
}

/**
 * Runs planned episodes with ids `<prefix>/<planned id>`, at most `concurrency` at once, reusing the ones
 * `hooks.existing` knows. Results are in plan order, so nothing downstream depends on finishing order.
 */
export async function runPlannedEpisodes(
  plan: readonly PlannedEpisode[],
  prefix: string,
  ctx: EpisodeRunContext,
  hooks: EpisodeHooks = {},
): Promise<Trajectory[]> {
  const results: Trajectory[] = new Array(plan.length);
  const verifiers = new Map<string, Verifier>();
  const verifierFor = (task: Task) => {
    let v = verifiers.get(task.id);
    if (!v) {
      v = ctx.adapter.verifier(task);
      verifiers.set(task.id, v);
    }
    return v;
  };
  let next = 0;
  const worker = async () => {
    while (next < plan.length) {
      const i = next++;
      const episode = plan[i] as PlannedEpisode;
      const id = `${prefix}/${episode.id}`;
      const existing = hooks.existing?.(id);
      if (existing) {
        results[i] = existing;
        hooks.onDone?.(existing, true);
        continue;
      }
      if (ctx.signal?.aborted) throw ctx.signal.reason;
      const env = await ctx.adapter.createEnvironment(episode.task);
      let trajectory: Trajectory;
      try {
        trajectory = await runEpisode({
          agent: ctx.agent,
          env,
          task: episode.task,
          condition: episode.condition,
          verifier: verifierFor(episode.task),
          id,
          seed: episode.seed,
          groupId: `${prefix}/${episode.groupId}`,
          index: episode.index,
          ...(episode.skill ? { skill: episode.skill } : {}),
          ...(episode.candidate !== undefined ? { candidate: episode.candidate } : {}),
          ...(ctx.generation !== undefined ? { generation: ctx.generation } : {}),
          ...(ctx.maxSteps !== undefined ? { maxSteps: ctx.maxSteps } : {}),
          ...(ctx.adapter.tools ? { tools: ctx.adapter.tools } : {}),
          ...(ctx.signal ? { signal: ctx.signal } : {}),
        });
      } finally {
        await env.close?.();
      }
      results[i] = trajectory;
      hooks.onDone?.(trajectory, false);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(ctx.concurrency, plan.length)) }, worker));
  return results;
}
