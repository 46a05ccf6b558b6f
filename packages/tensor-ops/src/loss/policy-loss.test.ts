import { InvalidArgumentError, RegistryError } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { aggregateLoss } from '../aggregate/aggregate-loss.js';
import { initBackend } from '../backend/init-backend.js';
import { analyticGradient, finiteDifference } from '../testing/finite-difference.js';
import { listPolicyLosses, policyLoss, registerPolicyLoss } from './policy-loss.js';
import type { PolicyLossInput } from './policy-loss-types.js';
import { vanillaLoss } from './vanilla-loss.js';

const ln = Math.log;

function run(
  kind: string,
  input: Omit<PolicyLossInput, 'logProbs' | 'oldLogProbs' | 'advantages' | 'mask'> & {
    logProbs: number[][];
    oldLogProbs: number[][];
    advantages: number[][] | number[];
    mask: number[][];
  },
) {
  return tf.tidy(() => {
    const adv = Array.isArray(input.advantages[0])
      ? tf.tensor2d(input.advantages as number[][])
      : tf.tensor1d(input.advantages as number[]);
    const out = policyLoss(kind, {
      ...input,
      logProbs: tf.tensor2d(input.logProbs),
      oldLogProbs: tf.tensor2d(input.oldLogProbs),
      advantages: adv,
      mask: tf.tensor2d(input.mask),
    });
    const metrics: Record<string, number> = {};
    for (const [k, v] of Object.entries(out.metrics)) {
      metrics[k] = v.dataSync()[0] as number;
      v.dispose();
    }
    return { loss: out.loss.arraySync() as number[][], metrics };
  });
}

function expectClose(actual: number[][], expected: number[][], digits = 5): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((row, i) => {
    row.forEach((v, j) => {
      expect(v).toBeCloseTo((expected[i] as number[])[j] as number, digits);
    });
  });
}

describe('policyLoss', () => {
  beforeAll(async () => {
    await initBackend({ prefer: 'wasm', env: {} });
  });

  it('vanilla: asymmetric clip, dual clip and metrics against hand values', () => {
    // old = −1 everywhere; log π − log π_old = ln r with r = [1.5, 0.5, 5, 1]; A = [+1, −1, −1, +2];
    // clip 0.2 both sides, dual clip c = 3; the 4th token is padding.
    //   tok1: max(−1.5, −1·1.2) = −1.2          (upper clip)
    //   tok2: max(0.5, 1·0.8) = 0.8, min(0.8, 3) (lower clip, no dual clip)
    //   tok3: max(5, 1.2) = 5 → min(5, 3) = 3   (dual clip)
    //   tok4: max(−2, −2) = −2                  (masked out of the metrics)
    const { loss, metrics } = run('vanilla', {
      logProbs: [[ln(1.5) - 1, ln(0.5) - 1, ln(5) - 1, -1]],
      oldLogProbs: [[-1, -1, -1, -1]],
      advantages: [[1, -1, -1, 2]],
      mask: [[1, 1, 1, 0]],
    });
    expectClose(loss, [[-1.2, 0.8, 3, -2]]);
    // clipfrac: the clipped branch is larger on tok1 and tok2 → 2/3; high: tok1; low: tok2; dual: tok3.
    expect(metrics.clipfrac).toBeCloseTo(2 / 3, 5);
    expect(metrics.clipfrac_high).toBeCloseTo(1 / 3, 5);
    expect(metrics.clipfrac_low).toBeCloseTo(1 / 3, 5);
    expect(metrics.clipfrac_dual).toBeCloseTo(1 / 3, 5);
    // approx_kl = mean(log π_old − log π) = −(ln 1.5 + ln 0.5 + ln 5)/3 = −0.440585
    expect(metrics.approx_kl).toBeCloseTo(-0.440585, 5);
  });

  it('vanilla: clipHigh differs from clipLow (DAPO clip-higher) and dualClip: false keeps −A·r', () => {
    // r = 1.25, A = +1: with clipHigh 0.28 nothing is clipped → −1.25. r = 5, A = −1 without dual clip → 5.
    const { loss, metrics } = run('vanilla', {
      logProbs: [[ln(1.25), ln(5)]],
      oldLogProbs: [[0, 0]],
      advantages: [[1, -1]],
      mask: [[1, 1]],
      clipLow: 0.2,
      clipHigh: 0.28,
      dualClip: false,
    });
    expectClose(loss, [[-1.25, 5]]);
    expect(metrics.clipfrac_dual).toBe(0);
  });

  it('vanilla: the log-ratio is clamped at ±20 so exp never overflows', () => {
    // log π − log π_old = 500 → clamped to 20; A = +1 and clip 0.2 → the clipped branch −1.2 wins.
    const { loss } = run('vanilla', {
      logProbs: [[0, -600]],
      oldLogProbs: [[-500, 0]],
      advantages: [[1, -1]],
      mask: [[1, 1]],
      dualClip: false,
    });
    // tok2: r = exp(−20) ≈ 2.06e-9, A = −1 → max(2.06e-9, 0.8) = 0.8.
    expectClose(loss, [[-1.2, 0.8]]);
  });

  it('gspo: one ratio per sequence, the geometric mean of its token ratios', () => {
    // seq1: log-ratios [0.1, 0.3] → s = exp(0.2) = 1.221403, A = +1 → max(−1.2214, −1.2) = −1.2 per token.
    // seq2: log-ratio −0.1 (2nd token padding) → s = exp(−0.1) = 0.904837, A = −1 → 0.904837.
    const { loss, metrics } = run('gspo', {
      logProbs: [
        [0.1, 0.3],
        [-0.1, 5],
      ],
      oldLogProbs: [
        [0, 0],
        [0, 0],
      ],
      advantages: [1, -1],
      mask: [
        [1, 1],
        [1, 0],
      ],
    });
    expectClose(loss, [
      [-1.2, -1.2],
      [0.904837, 0.904837],
    ]);
    // Two of three valid tokens are clipped above (seq1).
    expect(metrics.clipfrac_high).toBeCloseTo(2 / 3, 5);
  });

  it('cispo: −sg(clip(r))·A·log π, and the gradient keeps flowing through clipped tokens', () => {
    // tok1: r = 1.5 → w = 1.2, A = +1, log π = ln 1.5 − 1 = −0.594535 → −1.2·(−0.594535) = 0.713442
    // tok2: r = 1 → w = 1, A = −1, log π = −1 → −1·(−1)·(−1) = −1
    const input = { oldLogProbs: [[-1, -1]], advantages: [[1, -1]], mask: [[1, 1]] };
    const logProbs = [[ln(1.5) - 1, -1]];
    const { loss, metrics } = run('cispo', { ...input, logProbs });
    expectClose(loss, [[0.713442, -1]]);
    expect(metrics.clipfrac_high).toBeCloseTo(0.5, 5);
    // Gradient of the token mean: −w·A/2 = [−0.6, +0.5] (w is a constant: stop-gradient).
    const grad = analyticGradient(
      (lp) =>
        tf.tidy(() => {
          const out = policyLoss('cispo', {
            logProbs: lp,
            oldLogProbs: tf.tensor2d(input.oldLogProbs),
            advantages: tf.tensor2d(input.advantages),
            mask: tf.tensor2d(input.mask),
          });
          tf.dispose(Object.values(out.metrics));
          return aggregateLoss(out.loss, tf.tensor2d(input.mask), 'token-mean');
        }),
      logProbs,
    );
    expectClose(grad, [[-0.6, 0.5]]);
  });

  it('gpg: −A·log π', () => {
    // [−(2)(−0.5), −(−1)(−3)] = [1, −3]
    const { loss, metrics } = run('gpg', {
      logProbs: [[-0.5, -3]],
      oldLogProbs: [[-0.5, -3]],
      advantages: [[2, -1]],
      mask: [[1, 1]],
    });
    expectClose(loss, [[1, -3]]);
    expect(metrics.approx_kl).toBe(0);
  });

  it('sapo: the soft gate −A·(4/τ)·σ(τ(r − 1))', () => {
    // tok1: r = 1, A = +1, τ_pos = 1 → −(4/1)·σ(0) = −2.
    // tok2: r = e^0.5 = 1.648721, A = −1, τ_neg = 1.05 → (4/1.05)·σ(1.05·0.648721) = 3.809524·0.663997 = 2.529512
    const { loss } = run('sapo', {
      logProbs: [[-1, -0.5]],
      oldLogProbs: [[-1, -1]],
      advantages: [[1, -1]],
      mask: [[1, 1]],
    });
    expectClose(loss, [[-2, 2.529512]]);
  });

  const fdCases: {
    kind: string;
    mode: 'token-mean' | 'seq-mean-token-mean';
    logProbs: number[][];
    advantages?: number[][];
  }[] = [
    // Ratios chosen away from the clip kinks: r ∈ {1.1, 0.9, 1.05, 0.95} unclipped, r = 1.5 / 5 clipped.
    { kind: 'vanilla', mode: 'token-mean', logProbs: [[ln(1.1) - 1, ln(0.9) - 1, ln(1.5) - 1, ln(5) - 1]] },
    { kind: 'gpg', mode: 'token-mean', logProbs: [[-0.7, -1.3, -0.2, -2]] },
    { kind: 'sapo', mode: 'token-mean', logProbs: [[-0.8, -1.4, -0.5, -1.1]] },
    // GSPO's straight-through gradient equals the true gradient of its value under seq-mean-token-mean,
    // given what GSPO assumes: one advantage per sequence.
    {
      kind: 'gspo',
      mode: 'seq-mean-token-mean',
      logProbs: [[-1.02, -0.99, -1.01, -0.98]],
      advantages: [[1, 1, 1, 1]],
    },
  ];

  for (const c of fdCases) {
    it(`${c.kind}: gradient matches finite differences`, () => {
      const old = tf.tensor2d([[-1, -1, -1, -1]]);
      const adv = tf.tensor2d(c.advantages ?? [[1, -1, 1, -1]]);
      const mask = tf.tensor2d([[1, 1, 1, 1]]);
      const f = (lp: tf.Tensor): tf.Scalar =>
        tf.tidy(() => {
          const out = policyLoss(c.kind, { logProbs: lp, oldLogProbs: old, advantages: adv, mask });
          tf.dispose(Object.values(out.metrics));
          return aggregateLoss(out.loss, mask, c.mode);
        });
      const numeric = finiteDifference(f, c.logProbs);
      const analytic = analyticGradient(f, c.logProbs);
      analytic[0]?.forEach((g, j) => {
        expect(g).toBeCloseTo(numeric[0]?.[j] as number, 2);
      });
      // And the gradient is not trivially zero.
      expect(Math.max(...(analytic[0] as number[]).map(Math.abs))).toBeGreaterThan(0.05);
      tf.dispose([old, adv, mask]);
    });
  }

  it('the registry: verl names, duplicates refused, same function accepted, unknown names listed', () => {
    expect(listPolicyLosses()).toEqual(expect.arrayContaining(['vanilla', 'gspo', 'cispo', 'gpg', 'sapo']));
    expect(() => registerPolicyLoss('vanilla', () => ({ loss: tf.zeros([1, 1]), metrics: {} }))).toThrow(
      RegistryError,
    );
    expect(() => registerPolicyLoss('vanilla', vanillaLoss)).not.toThrow();
    registerPolicyLoss('negated-gpg', (input) => ({
      loss: tf.mul(input.advantages, input.logProbs),
      metrics: {},
    }));
    const { loss } = run('negated-gpg', {
      logProbs: [[-2]],
      oldLogProbs: [[-2]],
      advantages: [3],
      mask: [[1]],
    });
    expectClose(loss, [[-6]]);
    expect(() => run('ppo2', { logProbs: [[0]], oldLogProbs: [[0]], advantages: [1], mask: [[1]] })).toThrow(
      /Unknown policy loss "ppo2".*vanilla/,
    );
  });

  it('rejects bad shapes and parameters with errors naming them', () => {
    const base = { logProbs: [[0, 0]], oldLogProbs: [[0, 0]], advantages: [1], mask: [[1, 1]] };
    expect(() => run('vanilla', { ...base, clipLow: 1.5 })).toThrow(InvalidArgumentError);
    expect(() => run('vanilla', { ...base, dualClip: 0.5 })).toThrow(/dualClip/);
    expect(() => run('vanilla', { ...base, mask: [[1, 1, 1]] })).toThrow(/mask/);
    expect(() => run('vanilla', { ...base, advantages: [1, 2] })).toThrow(/advantages/);
  });
});
