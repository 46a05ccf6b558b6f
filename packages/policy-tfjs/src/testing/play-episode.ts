import type { Agent, Condition, Skill, Task, TaskAdapter, Trajectory, TrajectoryStep } from '@skillrl/core';
import { createRng, type Seed } from '@skillrl/core';

export interface PlayEpisodeOptions {
  adapter: TaskAdapter;
  agent: Agent;
  task: Task;
  skill?: Skill;
  seed: Seed;
  maxSteps?: number;
}

/**
 * The small episode loop the tests and the bench need (the real one is @skillrl/rollout's `runEpisode`,
 * which this package may not depend on): reset, act on the admissible list, step, verify.
 */
export async function playEpisode(options: PlayEpisodeOptions): Promise<Trajectory> {
  const { adapter, agent, task, skill } = options;
  const condition: Condition = skill ? 1 : 0;
  const env = await adapter.createEnvironment(task);
  const rng = createRng(options.seed);
  const steps: TrajectoryStep[] = [];
  let observation = await env.reset();
  const maxSteps = Math.min(options.maxSteps ?? env.maxSteps, env.maxSteps);
  for (let index = 0; index < maxSteps; index++) {
    const admissible = env.admissibleActions?.() ?? [];
    const action = await agent.act({
      task,
      condition,
      observation,
      history: steps,
      stepIndex: index,
      seed: rng.seedFor(index),
      admissibleActions: admissible,
      ...(skill && { skill }),
    });
    const result = await env.step(action.action);
    const step: TrajectoryStep = {
      index,
      observation,
      action: action.action,
      reward: result.reward,
      done: result.done,
      ...(action.logProb !== undefined && { logProb: action.logProb }),
      info: { ...action.info, ...(result.info && { env: result.info }) },
    };
    steps.push(step);
    observation = result.observation;
    if (result.done) break;
  }
  await env.close?.();
  const trajectory: Trajectory = {
    id: `${task.id}:c${condition}:${String(options.seed)}`,
    taskId: task.id,
    family: task.family,
    condition,
    steps,
    reward: 0,
    verdict: { score: 0, passed: false },
    ...(skill && { skill: { name: skill.name } }),
  };
  const verdict = await adapter.verifier(task).verify(task, trajectory);
  trajectory.verdict = verdict;
  trajectory.reward = verdict.score;
  return trajectory;
}

/** The skill an adapter offers for a task's family: the most specific one whose `families` lists it. */
export function skillFor(skills: readonly Skill[], family: string): Skill | undefined {
  const fits = skills.filter((s) => s.families?.includes(family));
  return fits.sort((a, b) => (a.families?.length ?? 0) - (b.families?.length ?? 0))[0];
}
