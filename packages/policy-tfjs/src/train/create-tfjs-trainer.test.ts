import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng, type Task, type Trajectory } from '@skillrl/core';
import { initBackend } from '@skillrl/tensor-ops';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSkillReadingAgent } from '../agent/checkpoint.js';
import { createSkillReadingAgent, type SkillReadingAgent } from '../agent/create-skill-reading-agent.js';
import type { DecisionRecord } from '../model/decision-record.js';
import { packBatch } from '../model/pack-batch.js';
import { createTfPolicy } from '../model/tf-policy.js';
import { household, householdAgent } from '../testing/household-fixture.js';
import { playEpisode, skillFor } from '../testing/play-episode.js';
import { createTfjsTrainer } from './create-tfjs-trainer.js';

let agent: SkillReadingAgent;
let batch: Trajectory[];
let trainTasks: Task[];

beforeAll(async () => {
  await initBackend();
  agent = await householdAgent(5);
  // Non-zero read-outs (the fresh scorer outputs exactly zero), so the memory and the hidden layer move
  // the log-probs and a mismatch between acting and training would show.
  const rng = createRng('trainer-test-weights');
  const p = agent.parameters;
  agent.setParameters({
    ...p,
    query: p.query.map(() => rng.normal(0, 0.5)),
    featureGate: p.featureGate.map(() => rng.normal(0, 0.5)),
    actionBias: p.actionBias.map(() => rng.normal(0, 0.2)),
  });
  const skills = await household.skills();
  const tasks = await household.load({ split: 'train', limit: 12, seed: 11 });
  trainTasks = tasks;
  batch = [];
  for (const [i, task] of tasks.entries()) {
    // Half with the skill, half without, so both branches of the network are exercised.
    const skill = i % 2 === 0 ? skillFor(skills, task.family) : undefined;
    batch.push(
      await playEpisode({ adapter: household, agent, task, skill, seed: `trainer/${i}`, maxSteps: 20 }),
    );
  }
});

describe('forward passes', () => {
  it('tfjs recomputes the log-probs the typed-array scorer acted with', async () => {
    const trainer = createTfjsTrainer(agent);
    const recomputed = await trainer.logProbs(batch);
    let compared = 0;
    batch.forEach((t, b) => {
      t.steps.forEach((s, i) => {
        expect(Math.abs((recomputed[b]?.[i] as number) - (s.logProb as number))).toBeLessThan(1e-4);
        compared += 1;
      });
    });
    expect(compared).toBeGreaterThan(100);
    // The memory is not in the stored records; without the trainer rebuilding it the log-probs differ.
    const noMemory = createTfPolicy(agent.parameters, agent.config, agent.vocabulary.size);
    const rows = batch.map((t) => t.steps.map((s) => agent.decisionRecord(s.info?.policy) as DecisionRecord));
    const out = noMemory.logProbs(packBatch(rows, { vocabularySize: agent.vocabulary.size }));
    const values = await out.logProbs.data();
    const T = out.logProbs.shape[1];
    let differ = 0;
    batch.forEach((t, b) => {
      t.steps.forEach((s, i) => {
        if (Math.abs((values[b * T + i] as number) - (s.logProb as number)) > 1e-3) differ += 1;
      });
    });
    expect(differ).toBeGreaterThan(compared / 2);
    out.logProbs.dispose();
    out.entropy.dispose();
    noMemory.dispose();
    trainer.dispose();
  });
});

describe('checkpoints', () => {
  it('reload to identical action probabilities and identical episodes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'policy-tfjs-'));
    try {
      await agent.save(dir);
      const loaded = await loadSkillReadingAgent(dir, { seed: 5 });
      const skills = await household.skills();
      const [task] = (await household.load({ split: 'valid_seen', limit: 3, seed: 4 })).slice(2);
      if (!task) throw new Error('no task');
      const skill = skillFor(skills, task.family);
      const a = await playEpisode({ adapter: household, agent, task, skill, seed: 'ckpt', maxSteps: 15 });
      const b = await playEpisode({
        adapter: household,
        agent: loaded,
        task,
        skill,
        seed: 'ckpt',
        maxSteps: 15,
      });
      expect(b.steps.map((s) => s.action)).toEqual(a.steps.map((s) => s.action));
      expect(b.steps.map((s) => s.logProb)).toEqual(a.steps.map((s) => s.logProb));
      for (const t of batch) {
        const step = t.steps[3] ?? t.steps[0];
        if (!step) continue;
        const context = {
          task: trainTasks.find((x) => x.id === t.taskId) ?? task,
          condition: t.condition,
          observation: step.observation,
          history: t.steps.slice(0, step.index),
          stepIndex: step.index,
          admissibleActions: (step.info?.policy as { candidates: string[] } | undefined)?.candidates ?? [],
          ...(t.condition === 1 && skill ? { skill } : {}),
        };
        expect(loaded.distribution(context).logProbs).toEqual(agent.distribution(context).logProbs);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('createTfjsTrainer', () => {
  it('takes the same step from trajectories read back from JSON (v2 records decoded, or v1) as in memory', async () => {
    const fresh = () =>
      createSkillReadingAgent({ vocabulary: agent.vocabulary, parameters: agent.parameters });
    const maker = fresh();
    const tasks = trainTasks.slice(0, 4);
    const skills = await household.skills();
    const played: Trajectory[] = [];
    for (const [i, task] of tasks.entries()) {
      const skill = i % 2 === 0 ? skillFor(skills, task.family) : undefined;
      played.push(
        await playEpisode({
          adapter: household,
          agent: maker,
          task,
          skill,
          seed: `replay/${i}`,
          maxSteps: 15,
        }),
      );
    }
    const advantages = played.map((_, i) => (i % 2 ? -0.5 : 1));
    const options = { lr: 0.03, miniBatches: 2, aggregation: 'seq-mean-token-mean' } as const;
    const fromDisk = JSON.parse(JSON.stringify(played)) as Trajectory[];
    // The records as runs before v2 stored them: whole, with the candidates' word ids and the features.
    const v1 = fromDisk.map((t) => ({
      ...t,
      steps: t.steps.map((s) => ({
        ...s,
        info: { ...s.info, policy: maker.decisionRecord(s.info?.policy) },
      })),
    }));
    const weights: Record<string, number[]>[] = [];
    for (const [learner, trajectories] of [
      [maker, played],
      [fresh(), fromDisk],
      [fresh(), JSON.parse(JSON.stringify(v1)) as Trajectory[]],
    ] as const) {
      const trainer = createTfjsTrainer(learner, options);
      const m = await trainer.update({ trajectories, advantages });
      expect(m.episodes).toBe(4);
      expect(m.masked_steps).toBe(0);
      trainer.dispose();
      weights.push(
        Object.fromEntries(Object.entries(learner.parameters).map(([k, v]) => [k, Array.from(v)])),
      );
    }
    expect(weights[0]).not.toEqual(
      Object.fromEntries(Object.entries(agent.parameters).map(([k, v]) => [k, Array.from(v)])),
    );
    expect(weights[1]).toEqual(weights[0]);
    expect(weights[2]).toEqual(weights[0]);
  });

  it('steps at the scheduled learning rate: a warm-up update at lr/2 is the step an lr/2 trainer takes', async () => {
    const fresh = () =>
      createSkillReadingAgent({ vocabulary: agent.vocabulary, parameters: agent.parameters });
    const advantages = batch.map((_, i) => (i % 3 === 0 ? 1 : -0.5));
    const flat = (a: SkillReadingAgent) => Object.values(a.parameters).flatMap((v) => Array.from(v));
    const run = async (options: Parameters<typeof createTfjsTrainer>[1], updates: number) => {
      const learner = fresh();
      const trainer = createTfjsTrainer(learner, { miniBatches: 2, ...options });
      const rates: number[] = [];
      for (let i = 0; i < updates; i++) {
        rates.push((await trainer.update({ trajectories: batch, advantages })).lr as number);
      }
      trainer.dispose();
      return { weights: flat(learner), rates };
    };
    const schedule = { updates: 5, warmup: 2, decay: 'linear', minLrRatio: 0.25 } as const;
    const scheduled = await run({ lr: 0.04, lrSchedule: schedule }, 1);
    const half = await run({ lr: 0.02 }, 1);
    const full = await run({ lr: 0.04 }, 1);
    expect(scheduled.rates).toEqual([0.02]);
    expect(scheduled.weights).toEqual(half.weights);
    expect(scheduled.weights).not.toEqual(full.weights);
    // The rates reported over a whole schedule and past it: warm-up, peak, decay, floor.
    const whole = await run({ lr: 0.04, lrSchedule: schedule }, 6);
    expect(whole.rates.map((r) => Number(r.toFixed(6)))).toEqual([0.02, 0.04, 0.04, 0.025, 0.01, 0.01]);
  });

  it('decays the weights it names by 1 − lr·decay after every optimiser step, in both gradient paths', async () => {
    // Zero advantages and no entropy term: a zero gradient, so Adam moves nothing and only the decay acts.
    const advantages = batch.map(() => 0);
    for (const gradients of ['hand', 'tfjs'] as const) {
      const learner = createSkillReadingAgent({ vocabulary: agent.vocabulary, parameters: agent.parameters });
      const trainer = createTfjsTrainer(learner, {
        lr: 0.05,
        miniBatches: 2,
        gradients,
        weightDecay: { featureWeights: 2, query: 0.5 },
      });
      await trainer.update({ trajectories: batch, advantages });
      trainer.dispose();
      // Two mini-batch steps: (1 − 0.05·2)² = 0.81 on the feature weights, (1 − 0.05·0.5)² on the query.
      const close = (got: Float32Array, want: Float32Array, factor: number) => {
        for (let i = 0; i < want.length; i++) expect(got[i]).toBeCloseTo((want[i] as number) * factor, 5);
      };
      close(learner.parameters.featureWeights, agent.parameters.featureWeights, 0.81);
      close(learner.parameters.query, agent.parameters.query, 0.975 ** 2);
      expect(Array.from(learner.parameters.embedding)).toEqual(Array.from(agent.parameters.embedding));
      expect(Array.from(learner.parameters.hiddenWeights)).toEqual(
        Array.from(agent.parameters.hiddenWeights),
      );
    }
    // A number decays every trained weight; the frozen skill reader is never touched.
    const learner = createSkillReadingAgent({ vocabulary: agent.vocabulary, parameters: agent.parameters });
    const trainer = createTfjsTrainer(learner, { lr: 0.1, weightDecay: 1 });
    await trainer.update({ trajectories: batch, advantages });
    trainer.dispose();
    expect(learner.parameters.hiddenWeights[0]).toBeCloseTo(
      (agent.parameters.hiddenWeights[0] as number) * 0.9,
      5,
    );
    expect(Array.from(learner.parameters.prior)).toEqual(Array.from(agent.parameters.prior));
  });

  it('refuses a weight decay it cannot apply, naming the field', () => {
    expect(() => createTfjsTrainer(agent, { weightDecay: -0.1 })).toThrow(/options\.weightDecay/);
    expect(() => createTfjsTrainer(agent, { weightDecay: { featureWeight: 0.1 } as never })).toThrow(
      /featureWeight/,
    );
  });

  it('refuses a schedule it cannot follow, naming the field', () => {
    expect(() => createTfjsTrainer(agent, { lrSchedule: { updates: 5, warmup: 5 } })).toThrow(
      /options\.lrSchedule\.warmup/,
    );
  });

  it('lowers the loss on a fixed batch and keeps tf.memory flat', async () => {
    const learner = await householdAgent(5);
    const trainer = createTfjsTrainer(learner, {
      lr: 0.05,
      kl: { kind: 'k3', coef: 0.01 },
      microBatchSize: 4,
    });
    // Fixed advantages: +1 for even trajectories, −1 for odd ones.
    const advantages = batch.map((_, i) => (i % 2 === 0 ? 1 : -1));
    const losses: number[] = [];
    const tensors: number[] = [];
    for (let i = 0; i < 8; i++) {
      const m = await trainer.update({ trajectories: batch, advantages });
      losses.push(m.loss as number);
      tensors.push(tf.memory().numTensors);
      expect(m.episodes).toBe(batch.length);
      expect(m.micro_batches).toBe(3);
    }
    expect(losses.at(-1) as number).toBeLessThan((losses[0] as number) - 0.05);
    // After the first step has created Adam's slots, no step leaves a tensor behind.
    expect(new Set(tensors.slice(1)).size).toBe(1);
    // The agent acts with the trained weights.
    expect(learner.parameters.query.some((x) => x !== 0)).toBe(true);
    trainer.dispose();
  });

  it('skips errored, record-less and non-finite episodes with counts instead of throwing', async () => {
    const learner = await householdAgent(6);
    const trainer = createTfjsTrainer(learner, { truncated: 'train' });
    const [a, b, c, d] = batch as [Trajectory, Trajectory, Trajectory, Trajectory];
    const errored: Trajectory = { ...a, error: { code: 'model', message: 'timeout' } };
    const foreign: Trajectory = { ...b, steps: b.steps.map(({ info: _info, ...s }) => s) };
    const m = await trainer.update({
      trajectories: [errored, foreign, c, d],
      advantages: [1, 1, Number.NaN, 1],
    });
    expect(m).toMatchObject({ skipped_error: 1, skipped_invalid: 1, skipped_advantage: 1, episodes: 1 });
    // Episodes here were cut at 20 steps: unfinished ones (errored ones aside) count as truncated.
    const cut = [foreign, c, d].filter((t) => !t.steps.some((s) => s.done)).length;
    expect(m.truncated_episodes).toBe(cut);
    const skipping = createTfjsTrainer(learner, { truncated: 'skip' });
    const none = await skipping.update({ trajectories: [], advantages: [] });
    expect(none.episodes).toBe(0);
    await expect(trainer.update({ trajectories: [c], advantages: [1, 2] })).rejects.toThrow(
      /batch.advantages/,
    );
    trainer.dispose();
    skipping.dispose();
  });
});
