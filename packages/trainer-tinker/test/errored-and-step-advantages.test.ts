import type { Task, TaskAdapter, Trajectory } from '@skillrl/core';
import { collectRollouts } from '@skillrl/rollout';
import { colorTasksAdapter } from '@skillrl/testkit';
import { describe, expect, it } from 'vitest';
import type { Datum } from '../src/client/tinker-types.js';
import { createTinkerTrainer, type TinkerAgent } from '../src/index.js';
import { setupAgent } from './support.js';

// What the Tinker trainer trains: never an errored rollout (core's errored-rollout policy: its reward is a
// placeholder), and per step the batch's step-level advantages (GiGPO's) when it carries them. Against the
// testkit's fake Tinker server, with the datums each update sends captured on their way to the policy.

/** Three-step episodes of the color words: any word moves on, the third ends the episode. */
const threeStepAdapter: TaskAdapter = {
  name: 'three-steps',
  families: ['walk'],
  splits: ['train'],
  async load({ limit }) {
    return Array.from({ length: limit ?? 2 }, (_, i) => ({
      id: `walk-${i}`,
      family: 'walk',
      split: 'train',
      prompt: `say three colors (${i}) .`,
    }));
  },
  createEnvironment(_task: Task) {
    let turn = 0;
    return {
      maxSteps: 3,
      reset: () => 'answer with one word .',
      step: () => {
        turn++;
        return { observation: `turn ${turn} .`, reward: 0, done: turn >= 3 };
      },
    };
  },
  verifier() {
    return { name: 'any', verify: () => ({ score: 1, passed: true }) };
  },
};

async function rollouts(agent: TinkerAgent, adapter: TaskAdapter, groupSize: number): Promise<Trajectory[]> {
  const tasks = await adapter.load({ split: 'train', limit: 2 });
  return collectRollouts({ tasks, adapter, agent, groupSize, concurrency: 4, seed: 1 }).collect();
}

/** The datums of each update, as the trainer hands them to the policy (which sends them to the service). */
function captureDatums(agent: TinkerAgent): Datum[][] {
  const sent: Datum[][] = [];
  const train = agent.policy.train.bind(agent.policy);
  agent.policy.train = (datums, options) => {
    sent.push(datums);
    return train(datums, options);
  };
  return sent;
}

/** The advantages on a datum's completion positions (the last `n` of its targets). */
const completionAdvantages = (d: Datum, n: number) => (d.loss_fn_inputs.advantages?.data ?? []).slice(-n);

const errored = (t: Trajectory, code = 'environment'): Trajectory => ({
  ...t,
  error: { code, message: 'the environment threw' },
});

describe('the Tinker trainer and errored rollouts', () => {
  it('never trains an errored trajectory, whatever advantage it was given, and counts it', async () => {
    const { agent, server } = await setupAgent();
    const trainer = createTinkerTrainer(agent, { learningRate: 0.05 });
    const sent = captureDatums(agent);
    const runs = await rollouts(agent, colorTasksAdapter, 2);
    expect(runs).toHaveLength(4);
    // Its sampled turns are real (tokens and log-probs recorded): only the policy keeps them out.
    const batch = [errored(runs[0] as Trajectory), ...runs.slice(1)];
    const metrics = await trainer.update({
      trajectories: batch,
      // A NaN for the errored one (what an estimator gives a NaN score) would be refused if it were read.
      advantages: [Number.NaN, 1, -1, 0.5],
    });
    expect(metrics).toMatchObject({ skipped_error: 1, trajectories: 4, turns: 3, datums: 3, update: 1 });
    expect(sent[0]).toHaveLength(3);
    // The datums are exactly those of the batch without the errored trajectory.
    const { agent: other } = await setupAgent();
    const otherTrainer = createTinkerTrainer(other, { learningRate: 0.05 });
    const otherSent = captureDatums(other);
    await otherTrainer.update({ trajectories: runs.slice(1), advantages: [1, -1, 0.5] });
    expect(sent[0]).toEqual(otherSent[0]);
    expect(server.trainingRuns()[0]?.updates).toHaveLength(1);

    // A batch of errored trajectories only takes an update that changes nothing.
    const none = await trainer.update({
      trajectories: runs.map((t) => errored(t, 'model')),
      advantages: [1, 1, 1, 1],
    });
    expect(none).toMatchObject({ skipped_error: 4, turns: 0, datums: 0, skipped: 1 });
    expect(server.trainingRuns()[0]?.updates).toHaveLength(1);
  });

  it('trains each turn with its own step advantage when the batch carries them, else broadcasts', async () => {
    const { agent } = await setupAgent();
    const trainer = createTinkerTrainer(agent, { learningRate: 0.05 });
    const sent = captureDatums(agent);
    const runs = await rollouts(agent, threeStepAdapter, 1);
    expect(runs.map((t) => t.steps.length)).toEqual([3, 3]);
    const metrics = await trainer.update({
      trajectories: runs,
      advantages: [0.5, -0.25],
      // The first trajectory per step (its middle step 0: not sent); the second has none: broadcast.
      stepAdvantages: [[0.75, 0, -0.5], undefined],
    });
    expect(metrics).toMatchObject({ turns: 6, datums: 5, step_advantage_trajectories: 1, skipped_error: 0 });
    const datums = sent[0] as Datum[];
    const lengths = runs.flatMap((t) => t.steps.map((s) => s.tokenIds?.length ?? 0));
    const [d0, d2, e0, e1, e2] = datums as [Datum, Datum, Datum, Datum, Datum];
    expect(new Set(completionAdvantages(d0, lengths[0] as number))).toEqual(new Set([0.75]));
    expect(new Set(completionAdvantages(d2, lengths[2] as number))).toEqual(new Set([-0.5]));
    for (const [d, k] of [
      [e0, 3],
      [e1, 4],
      [e2, 5],
    ] as const) {
      expect(new Set(completionAdvantages(d, lengths[k] as number))).toEqual(new Set([-0.25]));
    }
  });

  it('refuses step advantages of the wrong shape, naming the entry', async () => {
    const { agent } = await setupAgent();
    const trainer = createTinkerTrainer(agent);
    const runs = await rollouts(agent, threeStepAdapter, 1);
    await expect(
      trainer.update({ trajectories: runs, advantages: [1, 1], stepAdvantages: [[1, 1, 1]] }),
    ).rejects.toThrow(/batch\.stepAdvantages.*expected one entry per trajectory \(2\), got 1/);
    await expect(
      trainer.update({ trajectories: runs, advantages: [1, 1], stepAdvantages: [[1, 1], undefined] }),
    ).rejects.toThrow(/batch\.stepAdvantages\[0\].*\(3\), got 2/);
    await expect(
      trainer.update({
        trajectories: runs,
        advantages: [1, 1],
        stepAdvantages: [[1, Number.NaN, 1], undefined],
      }),
    ).rejects.toThrow(/batch\.stepAdvantages\[0\]\[1\].*finite/);
  });
});
