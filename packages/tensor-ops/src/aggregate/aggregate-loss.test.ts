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
    // seq-mean-token-sum-norm (verl's agg_loss: torch.sum(seq_losses) / loss_scale_factor, default
    // loss_mask.shape[-1]): row sums 3 + 4 + 0 = 7, over T = 3 alone = 7/3; with tokenScale 7: 7 / 7 = 1
    expect(agg('seq-mean-token-sum-norm')).toBeCloseTo(7 / 3, 6);
    expect(agg('seq-mean-token-sum-norm', { tokenScale: 7 })).toBeCloseTo(1, 6);
    // seq-mean-token-sum-norm-drgrpo (Dr.GRPO paper / TRL dr_grpo): 7 / (2 sequences · T = 3) = 7/6;
    // with tokenScale 7: 7 / (2 · 7) = 0.5
    expect(agg('seq-mean-token-sum-norm-drgrpo')).toBeCloseTo(7 / 6, 6);
    expect(agg('seq-mean-token-sum-norm-drgrpo', { tokenScale: 7 })).toBeCloseTo(0.5, 6);
  });

  it('the two -norm modes against hand values on a full mask, and their gradients', () => {
    // Full mask on L (B = 3 sequences, T = 3): Σ L = 45.
    const full = M.map((r) => r.map(() => 1));
    // verl: 45 / T = 45 / 3 = 15. Dr.GRPO: 45 / (B · T) = 45 / 9 = 5. Ratio B = 3.
    expect(agg('seq-mean-token-sum-norm', {}, full)).toBeCloseTo(15, 6);
    expect(agg('seq-mean-token-sum-norm-drgrpo', {}, full)).toBeCloseTo(5, 6);
    // ∂/∂L of each: verl M / T, so 1/3 on a valid token and 0 on padding; Dr.GRPO M / (N_seqs · T) = M / 6
    // with the two valid sequences of M. Neither depends on L.
    const grad = (mode: AggregationMode) =>
      tf.tidy(() => {
        const mask = tf.tensor2d(M);
        const g = tf.grad((x: tf.Tensor) => aggregateLoss(x, mask, mode))(tf.tensor2d(L));
        return Array.from(g.dataSync());
      });
    const expected = (denominator: number) => M.flat().map((m) => m / denominator);
    grad('seq-mean-token-sum-norm').forEach((g, i) => {
      expect(g).toBeCloseTo(expected(3)[i] as number, 6);
    });
    grad('seq-mean-token-sum-norm-drgrpo').forEach((g, i) => {
      expect(g).toBeCloseTo(expected(6)[i] as number, 6);
    });
  });

  it('summing micro-batch aggregates gives the whole-batch value in every mode (with lossNormalizer)', () => {
    // Rows 0..1 and row 2 of L as two micro-batches, each given the full batch's normaliser.
    const rows = (r: number[][], from: number, to: number) => r.slice(from, to);
    const full = [
      [1, 1, 0],
      [1, 0, 0],
      [1, 1, 1],
    ];
    for (const mode of AGGREGATION_MODES) {
      const normalizer = lossNormalizer(full.flat(), mode, 3);
      const part = (from: number, to: number) =>
        tf.tidy(
          () =>
            aggregateLoss(tf.tensor2d(rows(L, from, to)), tf.tensor2d(rows(full, from, to)), mode, {
              normalizer,
            }).dataSync()[0] as number,
        );
      expect(part(0, 2) + part(2, 3), mode).toBeCloseTo(agg(mode, {}, full), 6);
    }
  });

  it('an explicit normaliser replaces the batch count; an empty batch gives 0, not NaN', () => {
    expect(agg('token-mean', { normalizer: 7 })).toBeCloseTo(1, 6);
    expect(agg('seq-mean-token-sum', { normalizer: 4 })).toBeCloseTo(7 / 4, 6);
    // The -norm modes divide by normalizer · tokenScale: 7 / (2 · 3) for both with normalizer 2.
    expect(agg('seq-mean-token-sum-norm', { normalizer: 2 })).toBeCloseTo(7 / 6, 6);
    expect(agg('seq-mean-token-sum-norm-drgrpo', { normalizer: 2 })).toBeCloseTo(7 / 6, 6);
    const empty = M.map((r) => r.map(() => 0));
    for (const mode of AGGREGATION_MODES) expect(agg(mode, {}, empty)).toBe(0);
  });

  it('lossNormalizer counts what each mode divides by', () => {
    expect(lossNormalizer(M.flat(), 'token-mean', 3)).toBe(3);
    // verl's seq-mean-token-sum-norm divides by no count: its normaliser is 1.
    expect(lossNormalizer(M.flat(), 'seq-mean-token-sum-norm', 3)).toBe(1);
    for (const mode of [
      'seq-mean-token-mean',
      'seq-mean-token-sum',
      'seq-mean-token-sum-norm-drgrpo',
    ] as const) {
      expect(lossNormalizer(M.flat(), mode, 3)).toBe(2);
    }
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
