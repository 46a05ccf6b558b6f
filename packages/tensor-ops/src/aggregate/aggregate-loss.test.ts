import { InvalidArgumentError } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../backend/init-backend.js';
import { AGGREGATION_MODES, type AggregationMode, aggregateLoss, lossNormalizer } from './aggregate-loss.js';

// L = [[1, 2, 3], [4, 5, 6], [7, 8, 9]], M = [[1, 1, 0], [1, 0, 0], [0, 0, 0]]: the third row has no valid
// token and must not count as a sequence.
const L = [
  [1, 2, 3],
  [4, 5, 6],
  [7, 8, 9],
];
const M = [
  [1, 1, 0],
  [1, 0, 0],
  [0, 0, 0],
];

function agg(mode: AggregationMode, options = {}, mask = M): number {
  return tf.tidy(
    () => aggregateLoss(tf.tensor2d(L), tf.tensor2d(mask), mode, options).dataSync()[0] as number,
  );
}

describe('aggregateLoss', () => {
  beforeAll(async () => {
    await initBackend({ prefer: 'wasm', env: {} });
  });

  it('each mode against hand values', () => {
    // token-mean: (1 + 2 + 4) / 3 valid tokens = 7/3
    expect(agg('token-mean')).toBeCloseTo(7 / 3, 6);
    // seq-mean-token-mean: row means 1.5 and 4 over 2 sequences = 2.75
    expect(agg('seq-mean-token-mean')).toBeCloseTo(2.75, 6);
    // seq-mean-token-sum: row sums 3 and 4 over 2 sequences = 3.5
    expect(agg('seq-mean-token-sum')).toBeCloseTo(3.5, 6);
    // seq-mean-token-sum-norm: 7 / (2 sequences · T = 3) = 7/6; with tokenScale 7: 7 / 14 = 0.5
    expect(agg('seq-mean-token-sum-norm')).toBeCloseTo(7 / 6, 6);
    expect(agg('seq-mean-token-sum-norm', { tokenScale: 7 })).toBeCloseTo(0.5, 6);
  });

  it('an explicit normaliser replaces the batch count; an empty batch gives 0, not NaN', () => {
    expect(agg('token-mean', { normalizer: 7 })).toBeCloseTo(1, 6);
    expect(agg('seq-mean-token-sum', { normalizer: 4 })).toBeCloseTo(7 / 4, 6);
    const empty = M.map((r) => r.map(() => 0));
    for (const mode of AGGREGATION_MODES) expect(agg(mode, {}, empty)).toBe(0);
  });

  it('lossNormalizer counts what each mode divides by', () => {
    expect(lossNormalizer(M.flat(), 'token-mean', 3)).toBe(3);
    for (const mode of AGGREGATION_MODES.slice(1)) expect(lossNormalizer(M.flat(), mode, 3)).toBe(2);
    const mask = tf.tensor2d(M);
    expect(lossNormalizer(mask, 'token-mean')).toBe(3);
    mask.dispose();
  });

  it('rejects unknown modes and bad options by name', () => {
    expect(() => agg('sum' as AggregationMode)).toThrow(/Invalid mode/);
    expect(() => agg('token-mean', { normalizer: -1 })).toThrow(InvalidArgumentError);
    expect(() => agg('seq-mean-token-sum-norm', { tokenScale: 0 })).toThrow(/tokenScale/);
  });
});
