import { type AgentAction, type AgentContext, createRng, type Task, type Trajectory } from '@skillrl/core';
import household from '@skillrl/task-household';
import { describe, expect, it } from 'vitest';
import { collectRollouts } from './collect-rollouts.js';
import { type BatchedAgent, decisionRounds, isBatchedAgent } from './decision-rounds.js';

/** A seeded random household policy that can also decide in rounds, counting the rounds it is given. */
function randomPolicy(options: { failOn?: (context: AgentContext) => boolean } = {}) {
  const rounds: number[] = [];
  let acts = 0;
  const decide = (context: AgentContext): AgentAction => {
    if (options.failOn?.(context)) throw new Error(`cannot decide step ${context.stepIndex}`);
    const admissible = context.admissibleActions ?? ['look'];
    // The draw comes from the context's seed alone, as the contract asks.
    const u = createRng(context.seed ?? 0).float();
    const action = admissible[Math.floor(u * admissible.length)] as string;
    return { action, logProb: -Math.log(admissible.length) };
  };
  const agent: BatchedAgent = {
    name: 'random',
    async act(context) {
      acts += 1;
      return decide(context);
    },
    async actMany(contexts) {
      rounds.push(contexts.length);
      return contexts.map(decide);
    },
  };
  return { agent, rounds, acts: () => acts };
}

/** A trajectory without its wall-clock latencies (the only field that differs between two identical runs). */
const comparable = (t: Trajectory) => {
  const { durationMs: _duration, ...rest } = t;
  return { ...rest, steps: t.steps.map(({ latencyMs: _latency, ...step }) => step) };
};

async function tasks(): Promise<Task[]> {
  return household.load({ split: 'train', limit: 6, seed: 4 });
}

describe('decision rounds', () => {
  it('recognises an agent with actMany', () => {
    expect(isBatchedAgent(randomPolicy().agent)).toBe(true);
    expect(isBatchedAgent({ act: async () => ({ action: 'look' }) })).toBe(false);
  });

  it('gives the same trajectories with and without batching and at any concurrency', async () => {
    const plan = { tasks: await tasks(), groupSize: 4, seed: 17, maxSteps: 12 } as const;
    const run = async (concurrency: number, batchDecisions: boolean) => {
      const policy = randomPolicy();
      const out = await collectRollouts({
        ...plan,
        adapter: household,
        agent: policy.agent,
        concurrency,
        batchDecisions,
      }).collect();
      return { out: out.map(comparable), rounds: policy.rounds, acts: policy.acts() };
    };
    const unbatched = await run(8, false);
    expect(unbatched.rounds).toEqual([]);
    expect(unbatched.acts).toBeGreaterThan(0);
    const batched = await run(8, true);
    expect(batched.acts).toBe(0);
    // The episodes in flight step together: rounds hold up to one decision of each.
    expect(Math.max(...batched.rounds)).toBe(8);
    expect(batched.rounds.reduce((a, b) => a + b, 0)).toBe(
      unbatched.out.reduce((a, t) => a + t.steps.length, 0),
    );
    expect(batched.out).toEqual(unbatched.out);
    const narrow = await run(3, true);
    expect(Math.max(...narrow.rounds)).toBe(3);
    expect(narrow.out).toEqual(unbatched.out);
    // And a second batched run is the same batch again.
    expect((await run(8, true)).out).toEqual(batched.out);
  });

  it('retries a failed round one decision at a time, so only the failing episode errs', async () => {
    const all = await tasks();
    const bad = all[1] as Task;
    const policy = randomPolicy({ failOn: (c) => c.task.id === bad.id && c.stepIndex === 2 });
    const out = await collectRollouts({
      tasks: all,
      groupSize: 2,
      seed: 5,
      maxSteps: 6,
      adapter: household,
      agent: policy.agent,
      concurrency: 12,
    }).collect();
    expect(policy.acts()).toBeGreaterThan(0);
    for (const t of out) {
      if (t.taskId === bad.id) {
        expect(t.error?.code).toBe('model');
        expect(t.steps).toHaveLength(2);
      } else expect(t.error).toBeUndefined();
    }
  });

  it('rejects every decision of a round when actMany answers the wrong number of actions', async () => {
    const agent: BatchedAgent = {
      act: async () => ({ action: 'look' }),
      actMany: async () => [],
    };
    const rounds = decisionRounds(agent);
    const context = {
      task: (await tasks())[0] as Task,
      condition: 0,
      observation: '',
      history: [],
      stepIndex: 0,
    };
    await expect(
      Promise.all([rounds.act(context as AgentContext), rounds.act(context as AgentContext)]),
    ).rejects.toThrow(/actMany returned 0 actions for 2 contexts/);
  });
});
