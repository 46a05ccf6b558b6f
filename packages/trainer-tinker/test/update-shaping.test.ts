import { createRng, type Trajectory } from '@skillrl/core';
import { collectRollouts } from '@skillrl/rollout';
import { colorTasksAdapter } from '@skillrl/testkit';
import { describe, expect, it } from 'vitest';
import {
  buildUpdate,
  createTinkerTrainer,
  type Datum,
  resolveTrainerOptions,
  type TinkerAgent,
  type TinkerPolicy,
  trajectoryTurns,
  type UpdateTurn,
} from '../src/index.js';
import { setupAgent } from './support.js';

async function rollouts(agent: TinkerAgent, step: number) {
  const tasks = await colorTasksAdapter.load({ split: 'train', limit: 6 });
  return collectRollouts({
    tasks,
    adapter: colorTasksAdapter,
    agent,
    groupSize: 8,
    concurrency: 16,
    seed: step,
  }).collect();
}

function groupAdvantages(runs: Trajectory[]): number[] {
  const byTask = new Map<string, number[]>();
  for (const r of runs) byTask.set(r.taskId, [...(byTask.get(r.taskId) ?? []), r.reward]);
  return runs.map((r) => {
    const rewards = byTask.get(r.taskId) as number[];
    return r.reward - rewards.reduce((a, b) => a + b, 0) / rewards.length;
  });
}

const completionAdvantages = (datum: Datum, completion: number) =>
  (datum.loss_fn_inputs.advantages?.data ?? []).slice(-completion);

/** A turn of made-up tokens (no service involved): prompt and completion lengths, log-probs. */
function madeUpTurn(rng: ReturnType<typeof createRng>, prompt: number, completion: number) {
  return {
    promptTokens: Array.from({ length: prompt }, () => rng.int(100)),
    completionTokens: Array.from({ length: completion }, () => rng.int(100)),
    completionLogProbs: Array.from({ length: completion }, () => -rng.float() * 3),
  };
}

describe('per-trajectory normalisation', () => {
  // Neither a KL penalty nor dro asks the service anything: buildUpdate only reshapes advantages.
  const noService = undefined as unknown as TinkerPolicy;

  it('by hand: turns of 2 and 3 completion tokens of one trajectory with advantage 1 weigh 0.2 per token', async () => {
    const rng = createRng('by-hand');
    const turns: UpdateTurn[] = [
      { turn: madeUpTurn(rng, 4, 2), advantage: 1, trajectory: 0 },
      { turn: madeUpTurn(rng, 5, 3), advantage: 1, trajectory: 0 },
      { turn: madeUpTurn(rng, 3, 4), advantage: -0.5, trajectory: 1 },
    ];
    const settings = resolveTrainerOptions({ normalizePerTrajectory: true });
    const { datums } = await buildUpdate(noService, turns, settings);
    expect(completionAdvantages(datums[0]!, 2)).toEqual([0.2, 0.2]);
    expect(completionAdvantages(datums[1]!, 3)).toEqual([0.2, 0.2, 0.2]);
    expect(completionAdvantages(datums[2]!, 4)).toEqual([-0.125, -0.125, -0.125, -0.125]);
    // Off (the default): every completion token carries the trajectory's advantage, a token sum.
    const sum = await buildUpdate(noService, turns, resolveTrainerOptions({}));
    expect(completionAdvantages(sum.datums[1]!, 3)).toEqual([1, 1, 1]);
  });

  it('property (seeded cases): each trajectory weighs its advantage in all, whatever its length; prompts weigh 0', async () => {
    const settings = resolveTrainerOptions({ normalizePerTrajectory: true });
    for (let c = 0; c < 200; c++) {
      const rng = createRng(`normalise/${c}`);
      const trajectories = 1 + rng.int(5);
      const advantage = Array.from({ length: trajectories }, () => rng.normal());
      const turns: UpdateTurn[] = [];
      for (let t = 0; t < trajectories; t++) {
        const k = 1 + rng.int(4);
        for (let j = 0; j < k; j++)
          turns.push({
            turn: madeUpTurn(rng, 1 + rng.int(6), 1 + rng.int(40)),
            advantage: advantage[t] as number,
            trajectory: t,
          });
      }
      const { datums } = await buildUpdate(noService, turns, settings);
      expect(datums).toHaveLength(turns.length);
      const totals = new Array<number>(trajectories).fill(0);
      datums.forEach((d, i) => {
        const turn = turns[i] as UpdateTurn;
        const adv = d.loss_fn_inputs.advantages?.data ?? [];
        const promptPositions = adv.length - turn.turn.completionTokens.length;
        expect(adv.slice(0, promptPositions).every((a) => a === 0)).toBe(true);
        for (const a of adv) totals[turn.trajectory] = (totals[turn.trajectory] as number) + a;
      });
      totals.forEach((total, t) => {
        expect(total).toBeCloseTo(advantage[t] as number, 9);
      });
    }
  });
});

describe('the KL penalty to the base model', () => {
  it('is 0 at the first update (the policy is the base model) and grows as the policy moves', async () => {
    const { server, agent } = await setupAgent();
    const trainer = createTinkerTrainer(agent, { learningRate: 0.3, klPenaltyCoef: 0.1 });
    const kls: number[] = [];
    let zeroSent = 0;
    for (let step = 1; step <= 5; step++) {
      const runs = await rollouts(agent, step);
      const advantages = groupAdvantages(runs);
      const before = server.requests.length;
      const metrics = await trainer.update({ trajectories: runs, advantages });
      kls.push(metrics.kl_policy_base as number);
      expect(metrics.kl_penalty_coef).toBe(0.1);
      // One prompt-logprobs pass of the base model per datum (the reference), never the trained weights.
      const references = server.requests
        .slice(before)
        .filter((r) => r.route === 'asample' && r.body?.prompt_logprobs === true);
      const turns = runs.reduce((n, r) => n + trajectoryTurns(r).length, 0);
      expect(references).toHaveLength(turns);
      // (The KL staying 0 if they read the current weights is what the growth below rules out.)
      expect(references.filter((r) => r.body?.model_path !== undefined)).toEqual([]);
      // Every turn is sent, zero-advantage trajectories' too: the KL term gives their tokens a gradient.
      expect(metrics.datums).toBe(turns);
      zeroSent += metrics.zero_advantage as number;
    }
    // Measured on the fake: 0, 0.137, 0.340, 0.512, 0.801.
    expect(Math.abs(kls[0] as number)).toBeLessThan(1e-6);
    for (let k = 1; k < kls.length; k++) expect(kls[k] as number).toBeGreaterThan(kls[k - 1] as number);
    expect(kls[4] as number).toBeGreaterThan(0.1);
    expect(zeroSent).toBeGreaterThan(0);
  });

  it('folds coef · (mean − kl_t) into each completion token, as the Tinker cookbook does', async () => {
    const { server, agent } = await setupAgent();
    const trainer = createTinkerTrainer(agent, { learningRate: 0.3 });
    for (let step = 1; step <= 3; step++) {
      const runs = await rollouts(agent, step);
      await trainer.update({ trajectories: runs, advantages: groupAdvantages(runs) });
    }
    // The policy has moved; shape one step's turns by hand from the base model's log-probs and compare.
    const runs = await rollouts(agent, 4);
    const advantages = groupAdvantages(runs);
    const items: UpdateTurn[] = runs.flatMap((r, i) =>
      trajectoryTurns(r).map((turn) => ({ turn, advantage: advantages[i] as number, trajectory: i })),
    );
    const coef = 0.5;
    const settings = resolveTrainerOptions({ klPenaltyCoef: coef });
    const { datums, metrics } = await buildUpdate(agent.policy, items, settings);
    const base = await agent.policy.baseLogProbs(
      items.map((t) => [...t.turn.promptTokens, ...t.turn.completionTokens]),
    );
    let sum = 0;
    let count = 0;
    const diffs = items.map((t, i) =>
      t.turn.completionLogProbs.map((lp, k) => {
        const d = lp - (base[i]?.[t.turn.promptTokens.length - 1 + k] as number);
        sum += d;
        count += 1;
        return d;
      }),
    );
    const mean = sum / count;
    expect(metrics.kl_policy_base).toBeCloseTo(mean, 12);
    expect(mean).toBeGreaterThan(0.01);
    items.forEach((t, i) => {
      const got = completionAdvantages(datums[i] as Datum, t.turn.completionTokens.length);
      got.forEach((a, k) => {
        expect(a).toBeCloseTo(t.advantage + coef * (mean - (diffs[i]?.[k] as number)), 9);
      });
    });
    expect(server.trainingRuns()).toHaveLength(1);
  });
});

describe('dro: prompt positions weighted 0', () => {
  it("the prompt's positions carry the learner's own log-prob, so the quadratic term sees only completions", async () => {
    const { server, agent } = await setupAgent();
    createTinkerTrainer(agent, {});
    const runs = await rollouts(agent, 1);
    const advantages = groupAdvantages(runs);
    const items: UpdateTurn[] = runs.flatMap((r, i) =>
      trajectoryTurns(r).map((turn) => ({ turn, advantage: advantages[i] as number, trajectory: i })),
    );
    const beta = 1;
    const settings = resolveTrainerOptions({ loss: 'dro', beta, learningRate: 0.01 });
    const { datums, metrics } = await buildUpdate(agent.policy, items, settings);
    const kept = items.filter((t) => t.advantage !== 0);
    expect(datums).toHaveLength(kept.length);
    const promptPositions = kept.reduce((n, t) => n + t.turn.promptTokens.length - 1, 0);
    expect(metrics.dro_masked_positions).toBe(promptPositions);
    // Before the learner's first update it is the sampler: on the completion d = 0, so dro's loss is the
    // linear term only, −Σ A · logp_sampler, when the prompt's positions are masked.
    const linear = kept.reduce(
      (s, t) => s - t.turn.completionLogProbs.reduce((a, lp) => a + t.advantage * lp, 0),
      0,
    );
    // Unmasked (the datums as turnDatum builds them: sampling log-prob 0 on the prompt), ½β Σ logp² more,
    // from the learner's log-probs on the prompt's positions.
    const learner = await agent.policy.learnerLogProbs(datums, { loss: 'dro', chunkSize: 128 });
    let quadratic = 0;
    kept.forEach(({ turn }, i) => {
      for (let j = 0; j < turn.promptTokens.length - 1; j++)
        quadratic += 0.5 * beta * (learner[i]?.[j] as number) ** 2;
    });
    expect(quadratic).toBeGreaterThan(1);
    const trained = await agent.policy.train(datums, settings);
    expect(trained.loss_sum).toBeCloseTo(linear, 6);
    expect(server.trainingRuns()[0]?.updates[0]?.lossFn).toBe('dro');
  });
});
