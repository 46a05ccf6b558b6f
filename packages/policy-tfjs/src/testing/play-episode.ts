import type {
  Agent,
  AgentAction,
  AgentContext,
  Condition,
  Environment,
  Skill,
  Task,
  TaskAdapter,
  Trajectory,
  TrajectoryStep,
} from '@skillrl/core';
import { createRng, type Seed } from '@skillrl/core';

export interface PlayEpisodeOptions {
  adapter: TaskAdapter;
  agent: Agent;
  task: Task;
  skill?: Skill;
  seed: Seed;
  maxSteps?: number;
}

/** One episode being played: its environment, its steps so far, and what the agent sees next. */
interface Playing {
  options: PlayEpisodeOptions;
  condition: Condition;
  env: Environment;
  rng: ReturnType<typeof createRng>;
  steps: TrajectoryStep[];
  observation: string;
  maxSteps: number;
  finished: boolean;
}

async function start(options: PlayEpisodeOptions): Promise<Playing> {
  const env = await options.adapter.createEnvironment(options.task);
  const observation = await env.reset();
  const maxSteps = Math.min(options.maxSteps ?? env.maxSteps, env.maxSteps);
  return {
    options,
    condition: options.skill ? 1 : 0,
    env,
    rng: createRng(options.seed),
    steps: [],
    observation,
    maxSteps,
    finished: !(maxSteps >= 1),
  };
}

function contextOf(p: Playing): AgentContext {
  const { task, skill } = p.options;
  const index = p.steps.length;
  return {
    task,
    condition: p.condition,
    observation: p.observation,
    history: p.steps,
    stepIndex: index,
    seed: p.rng.seedFor(index),
    admissibleActions: p.env.admissibleActions?.() ?? [],
    ...(skill && { skill }),
  };
}

async function apply(p: Playing, action: AgentAction): Promise<void> {
  const result = await p.env.step(action.action);
  p.steps.push({
    index: p.steps.length,
    observation: p.observation,
    action: action.action,
    reward: result.reward,
    done: result.done,
    ...(action.logProb !== undefined && { logProb: action.logProb }),
    info: { ...action.info, ...(result.info && { env: result.info }) },
  });
  p.observation = result.observation;
  if (result.done || p.steps.length >= p.maxSteps) p.finished = true;
}

async function finish(p: Playing): Promise<Trajectory> {
  const { adapter, task, skill } = p.options;
  await p.env.close?.();
  const trajectory: Trajectory = {
    id: `${task.id}:c${p.condition}:${String(p.options.seed)}`,
    taskId: task.id,
    family: task.family,
    condition: p.condition,
    steps: p.steps,
    reward: 0,
    verdict: { score: 0, passed: false },
    ...(skill && { skill: { name: skill.name } }),
  };
  const verdict = await adapter.verifier(task).verify(task, trajectory);
  trajectory.verdict = verdict;
  trajectory.reward = verdict.score;
  return trajectory;
}

/**
 * The small episode loop the tests and the bench need (the real one is @skillrl/rollout's `runEpisode`,
 * which this package may not depend on): reset, act on the admissible list, step, verify.
 */
export async function playEpisode(options: PlayEpisodeOptions): Promise<Trajectory> {
  const p = await start(options);
  while (!p.finished) await apply(p, await options.agent.act(contextOf(p)));
  return finish(p);
}

/**
 * Several episodes in lockstep, as rollout's collector runs the episodes in flight: each round, one
 * `actMany` call with the next decision of every unfinished episode (`agent` of the first options decides
 * for all). Gives the trajectories `playEpisode` gives for each, in order.
 */
export async function playEpisodesTogether(
  agent: Agent & { actMany(contexts: readonly AgentContext[]): Promise<AgentAction[]> },
  episodes: readonly PlayEpisodeOptions[],
): Promise<Trajectory[]> {
  const playing = await Promise.all(episodes.map(start));
  for (;;) {
    const open = playing.filter((p) => !p.finished);
    if (open.length === 0) break;
    const actions = await agent.actMany(open.map(contextOf));
    for (const [i, p] of open.entries()) await apply(p, actions[i] as AgentAction);
  }
  return Promise.all(playing.map(finish));
}

/** The skill an adapter offers for a task's family: the most specific one whose `families` lists it. */
export function skillFor(skills: readonly Skill[], family: string): Skill | undefined {
  const fits = skills.filter((s) => s.families?.includes(family));
  return fits.sort((a, b) => (a.families?.length ?? 0) - (b.families?.length ?? 0))[0];
}
