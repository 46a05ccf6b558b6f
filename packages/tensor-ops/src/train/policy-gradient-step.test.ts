import { createRng, InvalidArgumentError } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AGGREGATION_MODES, type AggregationMode } from '../aggregate/aggregate-loss.js';
import { initBackend } from '../backend/init-backend.js';
import type { LogProbModel, LogProbOutput } from './log-prob-model.js';
import { policyGradientStep } from './policy-gradient-step.js';

/**
 * A tiny sequence policy: position t picks token k with softmax(θ[t] + b)[k]. `inputs` are the sampled
 * tokens, one row per sequence. Two variables, so accumulation is checked across more than one.
 */
function tabularPolicy(
  theta: number[][],
  bias: number[],
): LogProbModel<number[][]> & { vars: tf.Variable[] } {
  const K = bias.length;
  const th = tf.variable(tf.tensor2d(theta));
  const b = tf.variable(tf.tensor1d(bias));
  return {
    vars: [th, b],
    trainableVariables: [th, b],
    logProbs(tokens) {
      const logSoftmax = tf.logSoftmax(tf.add(th, b)); // [T, K]
      const picked = tf.oneHot(tf.tensor2d(tokens, undefined, 'int32'), K); // [B, T, K]
      const logProbs = tf.sum(tf.mul(picked, logSoftmax), -1) as tf.Tensor2D;
      const entropy = tf.neg(tf.sum(tf.mul(tf.exp(logSoftmax), logSoftmax), -1)); // [T]
      return { logProbs, entropy: tf.mul(tf.onesLike(logProbs), entropy) as tf.Tensor2D };
    },
  };
}

describe('policyGradientStep', () => {
  beforeAll(async () => {
    await initBackend({ prefer: 'wasm', env: {} });
  });

  it('micro-batch accumulation gives the one-batch update in every aggregation mode (property)', async () => {
    const losses = ['vanilla', 'gspo', 'cispo', 'gpg', 'sapo'];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(...AGGREGATION_MODES),
        fc.constantFrom(...losses),
        fc.boolean(),
        async (seed, mode: AggregationMode, loss, withKl) => {
          const rng = createRng(seed);
          const B = 2 + rng.int(5);
          const T = 1 + rng.int(4);
          const K = 3;
          const theta = Array.from({ length: T }, () => Array.from({ length: K }, () => rng.normal(0, 0.5)));
          const bias = Array.from({ length: K }, () => rng.normal(0, 0.5));
          const tokens = Array.from({ length: B }, () => Array.from({ length: T }, () => rng.int(K)));
          // Some rows entirely masked: they must not count as sequences either way.
          const mask = tokens.map((row) => row.map(() => (rng.float() < 0.75 ? 1 : 0)));
          const advantages = tokens.map(() => rng.normal());
          const drift = () => tokens.map((row) => row.map(() => rng.normal(-1.2, 0.3)));
          const oldLogProbs = drift();
          const refLogProbs = drift();
          const microBatchSize = 1 + rng.int(B - 1);

          const update = async (micro: number | undefined) => {
            const model = tabularPolicy(theta, bias);
            const optimizer = tf.train.sgd(1);
            const metrics = await policyGradientStep(
              model,
              { inputs: tokens, mask, advantages, oldLogProbs, refLogProbs },
              {
                optimizer,
                loss,
                aggregation: mode,
                microBatchSize: micro,
                ...(withKl && { kl: { kind: 'k3', coef: 0.1 } }),
                entropyCoef: 0.01,
              },
            );
            const values = model.vars.map((v) => Array.from(v.dataSync()));
            tf.dispose(model.vars);
            optimizer.dispose();
            return { metrics, values };
          };
          const whole = await update(undefined);
          const parts = await update(microBatchSize);
          expect(parts.metrics.micro_batches).toBe(Math.ceil(B / microBatchSize));
          expect(parts.metrics.loss).toBeCloseTo(whole.metrics.loss, 5);
          expect(parts.metrics.clipfrac).toBeCloseTo(whole.metrics.clipfrac, 5);
          expect(parts.metrics.grad_norm).toBeCloseTo(whole.metrics.grad_norm, 5);
          whole.values.forEach((v, i) => {
            v.forEach((x, j) => {
              expect(parts.values[i]?.[j]).toBeCloseTo(x, 5);
            });
          });
        },
      ),
      { numRuns: 24, seed: 20261129 },
    );
  });

  it('global normaliser, hand-checked where per-micro-batch means would give a different step', async () => {
    // With token-mean, rows of unequal length make per-micro-batch means differ from the batch mean.
    // Two rows: 1 and 3 valid tokens, SGD(1).
    const tokens = [
      [0, 0, 0],
      [1, 1, 1],
    ];
    const mask = [
      [1, 0, 0],
      [1, 1, 1],
    ];
    const run = async (micro?: number) => {
      const model = tabularPolicy(
        [
          [0, 0],
          [0, 0],
          [0, 0],
        ],
        [0, 0],
      );
      const opt = tf.train.sgd(1);
      await policyGradientStep(
        model,
        { inputs: tokens, mask, advantages: [1, 1] },
        { optimizer: opt, microBatchSize: micro, loss: 'gpg' },
      );
      const bias = Array.from(model.vars[1]?.dataSync() ?? []);
      tf.dispose(model.vars);
      opt.dispose();
      return bias;
    };
    // gpg, token-mean over 4 tokens, A = 1: ∂L/∂b0 = −(1/4)·Σ_tokens(1[k=0] − ½). Token 0 of row 0 is
    // k = 0 → −(½)/4; row 1's three k = 1 tokens → −3·(−½)/4. So ∂L/∂b0 = (−½ + 3/2)/4 = 0.25 and the
    // SGD(1) step moves b0 by −0.25 (b1 by +0.25), whole batch or one row at a time.
    const whole = await run();
    const split = await run(1);
    expect(whole[0]).toBeCloseTo(-0.25, 6);
    expect(split[0]).toBeCloseTo(-0.25, 6);
    // Per-micro-batch means would have given (−½/1 + 3/2/3)/2 = 0 here.
  });

  it('the two -norm modes, hand-checked, whole batch and one row at a time', async () => {
    // Same batch: row 0 has 1 valid token (k = 0), row 1 has 3 (k = 1); θ = 0, b = 0, so π = ½ everywhere.
    // gpg, A = 1: the masked token sum is Σ −log π, and ∂(−log π_k)/∂b0 = ½ − 1[k = 0]:
    // ∂Σ/∂b0 = (½ − 1) + 3·½ = 1.
    //   verl seq-mean-token-sum-norm: Σ / T = Σ / 3 → ∂/∂b0 = 1/3, SGD(1) moves b0 to −1/3.
    //   Dr.GRPO form: Σ / (N_seqs · T) = Σ / (2 · 3) → ∂/∂b0 = 1/6, b0 → −1/6.
    //   tokenScale 6 under verl: Σ / 6 → b0 → −1/6 (the paper's form equals verl's with tokenScale N_seqs · T).
    // One row at a time: verl's rows give Σ0/3 + Σ1/3 = Σ/3 with no help; the Dr.GRPO form needs the full
    // batch's N_seqs = 2 (each row alone has N_seqs = 1, which would give Σ/3, twice the step).
    const tokens = [
      [0, 0, 0],
      [1, 1, 1],
    ];
    const mask = [
      [1, 0, 0],
      [1, 1, 1],
    ];
    const run = async (aggregation: AggregationMode, micro?: number, tokenScale?: number) => {
      const zeros = [
        [0, 0],
        [0, 0],
        [0, 0],
      ];
      const model = tabularPolicy(zeros, [0, 0]);
      const opt = tf.train.sgd(1);
      await policyGradientStep(
        model,
        { inputs: tokens, mask, advantages: [1, 1] },
        {
          optimizer: opt,
          microBatchSize: micro,
          loss: 'gpg',
          aggregation,
          ...(tokenScale && { tokenScale }),
        },
      );
      const bias = Array.from(model.vars[1]?.dataSync() ?? []);
      tf.dispose(model.vars);
      opt.dispose();
      return bias[0];
    };
    for (const micro of [undefined, 1]) {
      expect(await run('seq-mean-token-sum-norm', micro)).toBeCloseTo(-1 / 3, 6);
      expect(await run('seq-mean-token-sum-norm-drgrpo', micro)).toBeCloseTo(-1 / 6, 6);
      expect(await run('seq-mean-token-sum-norm', micro, 6)).toBeCloseTo(-1 / 6, 6);
    }
  });

  it('micro-batch accumulation gives the one-batch update in each aggregation mode (fixed batch, every mode)', async () => {
    const rng = createRng(7);
    const B = 5;
    const T = 4;
    const K = 3;
    const theta = Array.from({ length: T }, () => Array.from({ length: K }, () => rng.normal(0, 0.5)));
    const bias = Array.from({ length: K }, () => rng.normal(0, 0.5));
    const tokens = Array.from({ length: B }, () => Array.from({ length: T }, () => rng.int(K)));
    // Unequal lengths and one empty row, so every mode's denominator differs between micro-batches.
    const mask = [
      [1, 1, 1, 1],
      [1, 0, 0, 0],
      [0, 0, 0, 0],
      [1, 1, 0, 0],
      [1, 1, 1, 0],
    ];
    const advantages = tokens.map(() => rng.normal());
    const oldLogProbs = tokens.map((row) => row.map(() => rng.normal(-1.2, 0.3)));
    for (const mode of AGGREGATION_MODES) {
      const update = async (micro: number | undefined) => {
        const model = tabularPolicy(theta, bias);
        const optimizer = tf.train.sgd(1);
        const metrics = await policyGradientStep(
          model,
          { inputs: tokens, mask, advantages, oldLogProbs },
          { optimizer, aggregation: mode, microBatchSize: micro, entropyCoef: 0.01 },
        );
        const values = model.vars.flatMap((v) => Array.from(v.dataSync()));
        tf.dispose(model.vars);
        optimizer.dispose();
        return { metrics, values };
      };
      const whole = await update(undefined);
      for (const micro of [1, 2, 3]) {
        const parts = await update(micro);
        expect(parts.metrics.loss, `${mode}, micro ${micro}`).toBeCloseTo(whole.metrics.loss, 5);
        parts.values.forEach((x, i) => {
          expect(x, `${mode}, micro ${micro}, parameter ${i}`).toBeCloseTo(whole.values[i] as number, 5);
        });
      }
    }
  });

  it('leaks no tensors: tf.memory().numTensors is flat over 100 steps', async () => {
    const model = tabularPolicy(
      [
        [0.1, -0.2, 0.3],
        [0, 0, 0],
      ],
      [0, 0, 0],
    );
    const optimizer = tf.train.adam(0.01);
    const rng = createRng('leak');
    const step = () => {
      const tokens = Array.from({ length: 6 }, () => [rng.int(3), rng.int(3)]);
      return policyGradientStep(
        model,
        {
          inputs: tokens,
          mask: tokens.map(() => [1, rng.float() < 0.5 ? 1 : 0]),
          advantages: tokens.map(() => rng.normal()),
          oldLogProbs: tokens.map(() => [-1.1, -1.1]),
          refLogProbs: tokens.map(() => [-1, -1.2]),
        },
        {
          optimizer,
          microBatchSize: 4,
          maxGradNorm: 0.5,
          kl: { kind: 'k3+', coef: 0.05 },
          entropyCoef: 0.01,
        },
      );
    };
    await step(); // Adam creates its moment slots on the first step.
    const before = tf.memory().numTensors;
    for (let i = 0; i < 100; i++) await step();
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose(model.vars);
    optimizer.dispose();
  });

  it('a tiny softmax policy trained with GRPO advantages finds the best arm of a seeded bandit', async () => {
    const payout = [0.2, 0.5, 0.8, 0.4, 0.6]; // best arm: 2
    const K = payout.length;
    const logits = tf.variable(tf.zeros([K]));
    const model: LogProbModel<number[]> = {
      trainableVariables: [logits],
      logProbs(arms) {
        const logSoftmax = tf.logSoftmax(logits);
        const picked = tf.oneHot(tf.tensor1d(arms, 'int32'), K); // [B, K]
        return tf.reshape(tf.sum(tf.mul(picked, logSoftmax), -1), [arms.length, 1]) as tf.Tensor2D;
      },
    };
    const optimizer = tf.train.adam(0.05);
    const rng = createRng('bandit');
    const G = 16;
    for (let step = 0; step < 120; step++) {
      const probs = tf.tidy(() => tf.softmax(logits).dataSync());
      const arms = Array.from({ length: G }, () => {
        let u = rng.float();
        for (let k = 0; k < K; k++) {
          u -= probs[k] as number;
          if (u < 0) return k;
        }
        return K - 1;
      });
      const rewards: number[] = arms.map((a) => (rng.bernoulli(payout[a] as number) ? 1 : 0));
      // GRPO: (r − mean) / (std + ε), one group of G samples.
      const mean = rewards.reduce((a, b) => a + b, 0) / G;
      const std = Math.sqrt(rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / (G - 1));
      const advantages = rewards.map((r) => (r - mean) / (std + 1e-6));
      await policyGradientStep(
        model,
        { inputs: arms, mask: arms.map(() => [1]), advantages },
        { optimizer, loss: 'vanilla', microBatchSize: 8, maxGradNorm: 1 },
      );
    }
    const probs = Array.from(tf.tidy(() => tf.softmax(logits).dataSync()));
    expect(probs.indexOf(Math.max(...probs))).toBe(2);
    expect(probs[2]).toBeGreaterThan(0.8);
    logits.dispose();
    optimizer.dispose();
  });

  it('clips the global gradient norm and reports the norm before clipping', async () => {
    const run = async (maxGradNorm?: number) => {
      const model = tabularPolicy([[0, 0, 0]], [0, 0, 0]);
      const opt = tf.train.sgd(1);
      const m = await policyGradientStep(
        model,
        { inputs: [[0], [1]], mask: [[1], [1]], advantages: [3, -1] },
        { optimizer: opt, loss: 'gpg', ...(maxGradNorm !== undefined && { maxGradNorm }) },
      );
      const moved = model.vars.flatMap((v) => Array.from(v.dataSync()));
      tf.dispose(model.vars);
      opt.dispose();
      return { m, moved };
    };
    const free = await run();
    const clipped = await run(0.1);
    expect(clipped.m.grad_norm).toBeCloseTo(free.m.grad_norm, 6);
    expect(free.m.grad_scale).toBe(1);
    expect(clipped.m.grad_scale).toBeCloseTo(0.1 / free.m.grad_norm, 5);
    // SGD(1) from 0: the update is −g·scale, whose norm is the clip value.
    const norm = Math.sqrt(clipped.moved.reduce((a, x) => a + x * x, 0));
    expect(norm).toBeCloseTo(0.1, 4);
  });

  it('skips the update when the gradient is not finite, and says so', async () => {
    const model = tabularPolicy([[0.5, 0]], [0, 0]);
    const opt = tf.train.sgd(1);
    const m = await policyGradientStep(
      model,
      { inputs: [[0]], mask: [[1]], advantages: [Number.NaN] },
      { optimizer: opt, loss: 'gpg' },
    );
    expect(m.skipped).toBe(1);
    expect(Array.from(model.vars[0]?.dataSync() ?? [])).toEqual([0.5, 0]);
    tf.dispose(model.vars);
    opt.dispose();
  });

  it('reports KL, entropy and the loss parts', async () => {
    // One token, θ = [0, 0] → log π(token 0) = ln ½ = −0.693147, entropy ln 2 = 0.693147.
    // ref = −1 → k1 = −0.693147 + 1 = 0.306853.
    const model = tabularPolicy([[0, 0]], [0, 0]);
    const opt = tf.train.sgd(0);
    const m = await policyGradientStep(
      model,
      { inputs: [[0]], mask: [[1]], advantages: [1], refLogProbs: [[-1]] },
      { optimizer: opt, loss: 'gpg', kl: { kind: 'k1', coef: 0.5 }, entropyCoef: 0.1 },
    );
    expect(m.kl).toBeCloseTo(0.306853, 5);
    expect(m.kl_loss).toBeCloseTo(0.306853, 5);
    expect(m.entropy).toBeCloseTo(Math.LN2, 5);
    // pg = −A·log π = 0.693147; loss = pg + 0.5·kl − 0.1·entropy = 0.693147 + 0.153426 − 0.069315
    expect(m.pg_loss).toBeCloseTo(Math.LN2, 5);
    expect(m.loss).toBeCloseTo(0.777259, 5);
    tf.dispose(model.vars);
    opt.dispose();
  });

  // No leak assertion here: when a forward pass throws, tfjs 4.22's engine.gradients keeps the tensors it
  // saved for the backward pass (its cleanup runs only after a successful forward).
  it('a model that returns the wrong shape fails with an error naming model.logProbs', async () => {
    const model = tabularPolicy([[0, 0]], [0, 0]);
    const opt = tf.train.sgd(0.1);
    const wrong: LogProbModel<number[][]> = {
      trainableVariables: model.trainableVariables,
      logProbs: (tokens) => tf.transpose((model.logProbs(tokens) as LogProbOutput).logProbs),
    };
    await expect(
      policyGradientStep(
        wrong,
        { inputs: [[0], [1]], mask: [[1], [1]], advantages: [1, -1] },
        { optimizer: opt },
      ),
    ).rejects.toThrow(/model\.logProbs.*expected \[2, 1\]/);
    tf.dispose(model.vars);
    opt.dispose();
  });

  it('rejects bad options by name', async () => {
    const model = tabularPolicy([[0, 0]], [0, 0]);
    const opt = tf.train.sgd(0.1);
    const batch = { inputs: [[0]], mask: [[1]], advantages: [1] };
    await expect(policyGradientStep(model, batch, { optimizer: opt, microBatchSize: 0 })).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(
      policyGradientStep(model, batch, { optimizer: opt, kl: { kind: 'k1', coef: 1 } }),
    ).rejects.toThrow(/refLogProbs/);
    await expect(policyGradientStep(model, batch, { optimizer: opt, loss: 'ppo9' })).rejects.toThrow(/ppo9/);
    await expect(
      policyGradientStep(model, { ...batch, advantages: [1, 2] }, { optimizer: opt }),
    ).rejects.toThrow(/batch\.advantages: expected \[1\] or \[1, 1\]/);
    await expect(
      policyGradientStep(
        model,
        { inputs: { not: 'sliceable' } as never, mask: [[1], [1]], advantages: [1, -1] },
        { optimizer: opt, microBatchSize: 1 },
      ),
    ).rejects.toThrow(/sliceInputs/);
    tf.dispose(model.vars);
    opt.dispose();
  });
});
