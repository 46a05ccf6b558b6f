import { createRng, type Trajectory } from '@skillrl/core';
import { initBackend } from '@skillrl/tensor-ops';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SkillReadingAgent } from '../agent/create-skill-reading-agent.js';
import { packDecisionBatch } from '../model/decision-batch.js';
import type { DecisionRecord } from '../model/decision-record.js';
import { packBatch } from '../model/pack-batch.js';
import { type AgentParameters, PARAMETER_NAMES } from '../model/parameters.js';
import { createTfPolicy } from '../model/tf-policy.js';
import { backwardDecisions, forwardDecisions, skillReads } from '../model/typed-network.js';
import { household, householdAgent } from '../testing/household-fixture.js';
import { playEpisode, skillFor } from '../testing/play-episode.js';
import { createTfjsTrainer, type TfjsTrainerOptions } from './create-tfjs-trainer.js';

let agent: SkillReadingAgent;
let batch: Trajectory[];

/** Weights with every read-out non-zero (the fresh scorer outputs exactly zero, which would hide errors). */
function busyParameters(p: AgentParameters, seed: string): AgentParameters {
  const rng = createRng(seed);
  return {
    ...p,
    query: p.query.map(() => rng.normal(0, 0.5)),
    featureGate: p.featureGate.map(() => rng.normal(0, 0.5)),
    featureWeights: p.featureWeights.map(() => rng.normal(0, 0.3)),
    actionBias: p.actionBias.map(() => rng.normal(0, 0.2)),
    hiddenBias: p.hiddenBias.map(() => rng.normal(0, 0.3)),
  };
}

beforeAll(async () => {
  await initBackend({ prefer: 'wasm' });
  agent = await householdAgent(9);
  agent.setParameters(busyParameters(agent.parameters, 'hand-gradient-weights'));
  const skills = await household.skills();
  const tasks = await household.load({ split: 'train', limit: 12, seed: 17 });
  batch = [];
  for (const [i, task] of tasks.entries()) {
    // With and without the skill, and some at another temperature, so every term is exercised.
    const skill = i % 3 === 2 ? undefined : skillFor(skills, task.family);
    const actor = i % 4 === 1 ? agent.withSampling({ temperature: 0.7 }) : agent;
    batch.push(
      await playEpisode({ adapter: household, agent: actor, task, skill, seed: `hand/${i}`, maxSteps: 30 }),
    );
  }
});

const records = (ts: Trajectory[]) =>
  ts.map((t) => t.steps.map((s) => agent.decisionRecord(s.info?.policy) as DecisionRecord));
const memories = (ts: Trajectory[]) =>
  ts.map((t) => {
    const actions = t.steps.map((s) => s.action);
    return actions.map((_, i) => agent.memoryIds(actions.slice(0, i)));
  });

/** max |a − b| relative to max |b| (or absolute below 1). */
function relativeError(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let diff = 0;
  let scale = 1e-3;
  for (let i = 0; i < b.length; i++) {
    diff = Math.max(diff, Math.abs((a[i] as number) - (b[i] as number)));
    scale = Math.max(scale, Math.abs(b[i] as number));
  }
  return diff / scale;
}

describe('hand-written gradients', () => {
  it('match tf.variableGrads through createTfPolicy on household batches', async () => {
    const rows = records(batch);
    const mem = memories(batch);
    const V = agent.vocabulary.size;
    const d = agent.config.dim;
    const params = agent.parameters;
    const packed = packBatch(rows, { vocabularySize: V, memories: mem });
    const decisions = packDecisionBatch(rows, { vocabularySize: V, memories: mem });
    expect(decisions.N).toBe(rows.flat().length);
    const { B, T } = packed;
    // An arbitrary upstream gradient on log π and on the entropy, as a loss would send back.
    const rng = createRng('upstream');
    const dLogProbs = Float32Array.from({ length: B * T }, () => rng.normal());
    const dEntropy = Float32Array.from({ length: B * T }, () => rng.normal(0, 0.5));

    const policy = createTfPolicy(params, agent.config, V);
    const trained = policy.trainableVariables.filter((v) => v !== policy.variables.prior);
    const { grads } = tf.variableGrads(() => {
      const out = policy.logProbs(packed);
      return tf.add(
        tf.sum(tf.mul(out.logProbs, tf.tensor2d(dLogProbs, [B, T]))),
        tf.sum(tf.mul(out.entropy, tf.tensor2d(dEntropy, [B, T]))),
      ) as tf.Scalar;
    }, trained);
    const out = policy.logProbs(packed);
    const tfLogProbs = await out.logProbs.data();
    const tfEntropy = await out.entropy.data();
    tf.dispose([out.logProbs, out.entropy]);

    // Every route of the context blocks into the hidden layer (`auto` mixes them on this batch).
    for (const route of ['auto', 'direct', 'words'] as const) {
      const pass = forwardDecisions(params, decisions, d, skillReads(params.prior, decisions), route);
      expect(relativeError(pass.logProbs, tfLogProbs)).toBeLessThan(1e-5);
      expect(relativeError(pass.entropy, tfEntropy)).toBeLessThan(1e-5);
      // The typed forward is the acting scorer's function: the log-probs the agent sampled with.
      batch.forEach((t, b) => {
        t.steps.forEach((s, i) => {
          expect(Math.abs((pass.logProbs[b * T + i] as number) - (s.logProb as number))).toBeLessThan(1e-9);
        });
      });
      const hand = backwardDecisions(params, decisions, d, pass, dLogProbs, dEntropy);
      for (const name of PARAMETER_NAMES) {
        if (name === 'prior') continue;
        const auto = grads[policy.variables[name].name]?.dataSync() as Float32Array;
        expect(auto, name).toBeDefined();
        const norm = Math.sqrt(auto.reduce((a, x) => a + x * x, 0));
        expect(norm, `${name} has a gradient`).toBeGreaterThan(1e-3);
        expect(relativeError(hand[name], auto), `${route} ${name}`).toBeLessThan(5e-6);
      }
    }
    tf.dispose(Object.values(grads));
    policy.dispose();
  });

  it('train to the same weights as the tfjs path (several updates, several option sets)', async () => {
    const advantages = batch.map((t, i) => (t.reward > 0 ? 1 : -0.5) + 0.1 * (i % 3));
    const settings: TfjsTrainerOptions[] = [
      // The paper runs' settings.
      { lr: 0.02, miniBatches: 4, kl: { kind: 'k3', coef: 0.001 }, aggregation: 'seq-mean-token-mean' },
      // Another loss, KL kind and aggregation; entropy bonus, micro-batches, two epochs, clipping that bites.
      {
        lr: 0.01,
        loss: 'gspo',
        kl: { kind: 'k1+', coef: 0.05 },
        aggregation: 'seq-mean-token-sum-norm',
        entropyCoef: 0.01,
        microBatchSize: 3,
        epochs: 2,
        maxGradNorm: 0.05,
      },
      { lr: 0.03, loss: 'cispo', aggregation: 'token-mean', clipHigh: 0.28, dualClip: false, miniBatches: 2 },
    ];
    for (const options of settings) {
      const [first, second] = [await householdAgent(9), await householdAgent(9)];
      first.setParameters(agent.parameters);
      second.setParameters(agent.parameters);
      const hand = createTfjsTrainer(first, { ...options, gradients: 'hand' });
      const auto = createTfjsTrainer(second, { ...options, gradients: 'tfjs' });
      for (let step = 0; step < 4; step++) {
        const [a, b] = [
          await hand.update({ trajectories: batch, advantages }),
          await auto.update({ trajectories: batch, advantages }),
        ];
        for (const key of ['loss', 'pg_loss', 'grad_norm', 'clipfrac', 'entropy', 'micro_batches']) {
          expect(a[key] as number, `${JSON.stringify(options)} step ${step} ${key}`).toBeCloseTo(
            b[key] as number,
            4,
          );
        }
      }
      const [p, q] = [first.parameters, second.parameters];
      for (const name of PARAMETER_NAMES) {
        const moved = relativeError(p[name], agent.parameters[name]);
        if (name === 'prior') expect(moved, name).toBe(0);
        // Weights agree to float32 rounding after 4 updates of Adam (which magnifies tiny gradients).
        let diff = 0;
        for (let i = 0; i < q[name].length; i++) {
          diff = Math.max(diff, Math.abs((p[name][i] as number) - (q[name][i] as number)));
        }
        expect(diff, `${JSON.stringify(options)} ${name}`).toBeLessThan(1e-4);
      }
      hand.dispose();
      auto.dispose();
    }
  });

  it('leave the tfjs path to trainPrior, and keep tf.memory flat', async () => {
    const learner = await householdAgent(9);
    expect(() => createTfjsTrainer(learner, { trainPrior: true, gradients: 'hand' })).toThrow(
      /options\.gradients/,
    );
    const prior = createTfjsTrainer(learner, { trainPrior: true, lr: 0.05 });
    const before = Array.from(learner.parameters.prior);
    await prior.update({ trajectories: batch, advantages: batch.map((t) => t.reward - 0.3) });
    expect(Array.from(learner.parameters.prior)).not.toEqual(before);
    prior.dispose();
    const trainer = createTfjsTrainer(learner, { kl: { kind: 'k3', coef: 0.01 }, miniBatches: 3 });
    await trainer.update({ trajectories: batch, advantages: batch.map((t) => t.reward - 0.3) });
    const tensors = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) {
      await trainer.update({ trajectories: batch, advantages: batch.map((t) => t.reward - 0.3) });
    }
    expect(tf.memory().numTensors).toBe(tensors);
    // The tfjs twin behind `logProbs` follows the weights the hand-gradient steps wrote into the agent.
    const recomputed = await trainer.logProbs(batch);
    const decisions = packDecisionBatch(records(batch), {
      vocabularySize: learner.vocabulary.size,
      memories: memories(batch),
    });
    const typed = forwardDecisions(
      learner.parameters,
      decisions,
      learner.config.dim,
      skillReads(learner.parameters.prior, decisions),
    );
    batch.forEach((t, b) => {
      t.steps.forEach((_, i) => {
        expect(recomputed[b]?.[i] as number).toBeCloseTo(typed.logProbs[b * decisions.T + i] as number, 4);
      });
    });
    trainer.dispose();
  });
});
