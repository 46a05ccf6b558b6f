import { InvalidArgumentError, RegistryError } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../backend/init-backend.js';
import { analyticGradient, finiteDifference } from '../testing/finite-difference.js';
import { KL_KINDS, klPenalty } from './kl-penalty.js';

// log π = [−1, −2], log π_ref = [−1.5, −1] → d = log π − log π_ref = [0.5, −1]
const logp = [[-1, -2]];
const ref = [[-1.5, -1]];

function value(kind: string, lp = logp, rf = ref): number[] {
  return tf.tidy(
    () => (klPenalty(kind, tf.tensor2d(lp), tf.tensor2d(rf)).arraySync() as number[][])[0] as number[],
  );
}

function sumOf(kind: string) {
  const r = tf.tensor2d(ref);
  return (lp: tf.Tensor): tf.Scalar => tf.sum(klPenalty(kind, lp, r)) as tf.Scalar;
}

describe('klPenalty', () => {
  beforeAll(async () => {
    await initBackend({ prefer: 'wasm', env: {} });
  });

  it('k1, abs, k2, k3 against hand values', () => {
    const close = (actual: number[], expected: number[]) =>
      actual.forEach((v, i) => {
        expect(v).toBeCloseTo(expected[i] as number, 5);
      });
    close(value('k1'), [0.5, -1]);
    close(value('abs'), [0.5, 1]);
    // k2 = ½ d² = [0.125, 0.5]
    close(value('k2'), [0.125, 0.5]);
    // k3 = e^(−d) + d − 1 = [e^−0.5 − 0.5, e^1 − 2] = [0.106531, 0.718282]
    close(value('k3'), [0.106531, 0.718282]);
  });

  it('k3 is clamped at 10 like verl, so one unlikely token cannot dominate', () => {
    // ref − logp = 30 → clamped to 20 → e^20 − 21 ≈ 4.85e8 → clamped to 10.
    expect(value('k3', [[-30]], [[0]])).toEqual([10]);
  });

  it('straight-through k1+ and k3+: the value of k1/k3, the gradient of k2', () => {
    expect(value('k1+')).toEqual(value('k1'));
    expect(value('k3+')).toEqual(value('k3'));
    // ∂k2/∂log π = d = [0.5, −1]
    expect(analyticGradient(sumOf('k1+'), logp)).toEqual([[0.5, -1]]);
    const g3 = analyticGradient(sumOf('k3+'), logp)[0] as number[];
    expect(g3[0]).toBeCloseTo(0.5, 6);
    expect(g3[1]).toBeCloseTo(-1, 6);
  });

  it('plain estimators have the gradient of their value (finite differences)', () => {
    for (const kind of ['k1', 'abs', 'k2', 'k3'] as const) {
      const numeric = finiteDifference(sumOf(kind), logp)[0] as number[];
      const analytic = analyticGradient(sumOf(kind), logp)[0] as number[];
      analytic.forEach((g, i) => {
        expect(g).toBeCloseTo(numeric[i] as number, 2);
      });
    }
    // ∂k3/∂log π = 1 − e^(ref − log π) = [1 − e^−0.5, 1 − e^1] = [0.393469, −1.718282]
    const g = analyticGradient(sumOf('k3'), logp)[0] as number[];
    expect(g[0]).toBeCloseTo(0.393469, 5);
    expect(g[1]).toBeCloseTo(-1.718282, 5);
  });

  it("accepts verl's older names and rejects unknown ones and mismatched shapes", () => {
    expect(value('low_var_kl')).toEqual(value('k3'));
    expect(value('mse')).toEqual(value('k2'));
    expect(KL_KINDS).toEqual(['k1', 'abs', 'k2', 'k3', 'k1+', 'k3+']);
    expect(() => value('k4')).toThrow(RegistryError);
    expect(() => value('k1', [[0, 0, 0]])).toThrow(InvalidArgumentError);
  });
});
