import { createRng } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AGGREGATION_MODES, type AggregationMode } from '../aggregate/aggregate-loss.js';
import { initBackend } from '../backend/init-backend.js';
import { applyClippedGradients } from './apply-clipped-gradients.js';
import { policyGradientStep } from './policy-gradient-step.js';
import { policyLossGradients } from './policy-loss-gradients.js';

/** Position t picks token k with softmax(θ[t] + b)[k]; returns per-token log-probs and entropy. */
function tabular(theta: number[][], bias: number[]) {
  const K = bias.length;
  const th = tf.variable(tf.tensor2d(theta));
  const b = tf.variable(tf.tensor1d(bias));
  const forward = (tokens: number[][]) => {
    const logSoftmax = tf.logSoftmax(tf.add(th, b));
    const picked = tf.oneHot(tf.tensor2d(tokens, undefined, 'int32'), K);
    const logProbs = tf.sum(tf.mul(picked, logSoftmax), -1) as tf.Tensor2D;
    const entropy = tf.neg(tf.sum(tf.mul(tf.exp(logSoftmax), logSoftmax), -1));
    return { logProbs, entropy: tf.mul(tf.onesLike(logProbs), entropy) as tf.Tensor2D };
  };
  return { vars: [th, b], forward };
}

beforeAll(async () => {
  await initBackend({ prefer: 'wasm', env: {} });
});

describe('policyLossGradients', () => {
  it('chained into the model by hand, gives policyGradientStep’s gradient and metrics (property)', async () => {
    const losses = ['vanilla', 'gspo', 'cispo', 'gpg', 'sapo'];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(...AGGREGATION_MODES),
        fc.constantFrom(...losses),
        fc.constantFrom('k1', 'k2', 'k3', 'k3+', 'none'),
        fc.boolean(),
        async (seed, mode: AggregationMode, loss, kl, onPolicy) => {
          const rng = createRng(seed);
          const B = 2 + rng.int(5);
          const T = 1 + rng.int(4);
          const K = 3;
          const theta = Array.from({ length: T }, () => Array.from({ length: K }, () => rng.normal(0, 0.5)));
          const bias = Array.from({ length: K }, () => rng.normal(0, 0.5));
          const tokens = Array.from({ length: B }, () => Array.from({ length: T }, () => rng.int(K)));
          const mask = tokens.map((row) => row.map(() => (rng.float() < 0.75 ? 1 : 0)));
          const advantages = tokens.map((row) => row.map(() => rng.normal()));
          const drift = () => tokens.map((row) => row.map(() => rng.normal(-1.2, 0.3)));
          const oldLogProbs = onPolicy ? undefined : drift();
          const refLogProbs = drift();
          const microBatchSize = 1 + rng.int(B);
          const options = {
            loss,
            aggregation: mode,
            microBatchSize,
            entropyCoef: 0.01,
            ...(kl !== 'none' && { kl: { kind: kl, coef: 0.1 } }),
          };
          const batch = {
            mask,
            advantages,
            refLogProbs,
            ...(oldLogProbs && { oldLogProbs }),
          };

          // Reference: tfjs autodiff end to end, SGD(1) from the same start, so −Δθ is the gradient.
          const a = tabular(theta, bias);
          const sgd = tf.train.sgd(1);
          const stepped = await policyGradientStep(
            { trainableVariables: a.vars, logProbs: a.forward },
            { inputs: tokens, ...batch },
            { optimizer: sgd, ...options },
          );
          const moved = a.vars.map((v, i) => {
            const start = i === 0 ? theta.flat() : bias;
            return Array.from(v.dataSync()).map((x, j) => (start[j] as number) - x);
          });

          // Hand-chained: ∂loss/∂logp and ∂loss/∂entropy from tensor-ops, then the model's vector-Jacobian.
          const b = tabular(theta, bias);
          const out = b.forward(tokens);
          const lp = Array.from(await out.logProbs.data());
          const ent = Array.from(await out.entropy.data());
          tf.dispose([out.logProbs, out.entropy]);
          const g = await policyLossGradients({ ...batch, logProbs: lp, entropy: ent }, options);
          expect(g.dEntropy).toBeDefined();
          const { grads } = tf.variableGrads(() => {
            const o = b.forward(tokens);
            const dl = tf.tensor2d(g.dLogProbs, [B, T]);
            const de = tf.tensor2d(g.dEntropy as Float32Array, [B, T]);
            return tf.add(tf.sum(tf.mul(o.logProbs, dl)), tf.sum(tf.mul(o.entropy, de))) as tf.Scalar;
          }, b.vars);
          const chained = b.vars.map((v) => Array.from(grads[v.name]?.dataSync() ?? []));
          tf.dispose(Object.values(grads));
          chained.forEach((row, i) => {
            row.forEach((x, j) => {
              expect(x).toBeCloseTo(moved[i]?.[j] as number, 5);
            });
          });
          for (const key of ['loss', 'pg_loss', 'clipfrac', 'approx_kl', 'entropy', 'tokens', 'sequences']) {
            expect(g.metrics[key], key).toBeCloseTo(stepped[key] as number, 5);
          }
          if (kl !== 'none') expect(g.metrics.kl).toBeCloseTo(stepped.kl as number, 5);
          expect(g.metrics.micro_batches).toBe(stepped.micro_batches);
          tf.dispose([...a.vars, ...b.vars]);
          sgd.dispose();
        },
      ),
      { numRuns: 30, seed: 20261201 },
    );
  });

  it('takes flat row-major arrays, leaves masked tokens at 0, skips the entropy when it does not count', async () => {
    const before = tf.memory().numTensors;
    const g = await policyLossGradients(
      {
        mask: [
          [1, 1, 0],
          [1, 0, 0],
        ],
        advantages: [1, -1],
        logProbs: Float32Array.from([-1, -2, -3, -0.5, -1, -1]),
        entropy: [1, 1, 1, 1, 1, 1],
      },
      { loss: 'gpg' },
    );
    // gpg, token-mean over 3 tokens: L = −Σ A·logp / 3 → ∂L/∂logp = −A/3 on valid tokens.
    expect(Array.from(g.dLogProbs).map((x) => Number(x.toFixed(6)))).toEqual([
      -0.333333, -0.333333, 0, 0.333333, 0, 0,
    ]);
    expect(g.dEntropy).toBeUndefined();
    expect(g.metrics.entropy).toBeCloseTo(1, 6);
    expect(g.metrics.tokens).toBe(3);
    expect(tf.memory().numTensors).toBe(before);
    await expect(
      policyLossGradients({ mask: [[1, 1]], advantages: [1], logProbs: [-1, -1, -1] }, { loss: 'gpg' }),
    ).rejects.toThrow(/batch\.logProbs/);
    await expect(
      policyLossGradients({ mask: [[1]], advantages: [1], logProbs: [-1] }, { entropyCoef: 0.1 }),
    ).rejects.toThrow(/batch\.entropy/);
  });
});

describe('applyClippedGradients', () => {
  it('clips to the global norm, reports the norm before clipping, and skips a non-finite gradient', async () => {
    const v = tf.variable(tf.tensor1d([0, 0]), true, 'clip_test_v');
    const sgd = tf.train.sgd(1);
    const g = { clip_test_v: tf.tensor1d([3, 4]) };
    const free = await applyClippedGradients(sgd, g, { maxGradNorm: 10 });
    expect(free).toEqual({ grad_norm: 5, grad_scale: 1, skipped: 0 });
    expect(Array.from(v.dataSync())).toEqual([-3, -4]);
    const clipped = await applyClippedGradients(sgd, g, { maxGradNorm: 1 });
    expect(clipped.grad_scale).toBeCloseTo(1 / (5 + 1e-6), 6);
    expect(Array.from(v.dataSync()).map((x) => Number(x.toFixed(4)))).toEqual([-3.6, -4.8]);
    const bad = { clip_test_v: tf.tensor1d([Number.NaN, 1]) };
    expect(await applyClippedGradients(sgd, bad)).toMatchObject({ grad_scale: 0, skipped: 1 });
    expect(Array.from(v.dataSync()).map((x) => Number(x.toFixed(4)))).toEqual([-3.6, -4.8]);
    tf.dispose([v, g.clip_test_v, bad.clip_test_v]);
    sgd.dispose();
  });
});
