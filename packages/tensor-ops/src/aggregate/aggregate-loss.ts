import { InvalidArgumentError } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';

/**
 * How a `[B, T]` per-token loss becomes one number (verl's `loss_agg_mode` names):
 * - `token-mean`: Σ L·M / N_tokens (DAPO; every token weighs the same);
 * - `seq-mean-token-mean`: mean over sequences of each sequence's token mean (original GRPO);
 * - `seq-mean-token-sum`: mean over sequences of each sequence's token sum;
 * - `seq-mean-token-sum-norm`: Σ L·M / (N_seqs · tokenScale), tokenScale a constant (Dr.GRPO: max length).
 */
export type AggregationMode =
  | 'token-mean'
  | 'seq-mean-token-mean'
  | 'seq-mean-token-sum'
  | 'seq-mean-token-sum-norm';

export const AGGREGATION_MODES: readonly AggregationMode[] = [
  'token-mean',
  'seq-mean-token-mean',
  'seq-mean-token-sum',
  'seq-mean-token-sum-norm',
];

export interface AggregateOptions {
  /**
   * The denominator: valid tokens for `token-mean`, sequences for the `seq-*` modes. Defaults to this
   * batch's own count (sequences with no valid token do not count). When the batch is a micro-batch, pass
   * the full batch's count (`lossNormalizer`) so accumulated gradients equal the one-batch gradient.
   */
  normalizer?: number;
  /** The constant per-sequence length of `seq-mean-token-sum-norm` (default T, the padded length). */
  tokenScale?: number;
}

export function checkAggregationMode(mode: string): AggregationMode {
  if (!(AGGREGATION_MODES as readonly string[]).includes(mode)) {
    throw new InvalidArgumentError('mode', `expected one of ${AGGREGATION_MODES.join(', ')}, got "${mode}"`);
  }
  return mode as AggregationMode;
}

/**
 * The denominator `aggregateLoss` would use for this mask: valid tokens for `token-mean`, sequences with at
 * least one valid token otherwise. Compute it once on the full batch and pass it to every micro-batch.
 */
export function lossNormalizer(
  mask: ArrayLike<number> | tf.Tensor,
  mode: AggregationMode,
  width?: number,
): number {
  const values = mask instanceof tf.Tensor ? mask.dataSync() : mask;
  const T = mask instanceof tf.Tensor ? (mask.shape[1] ?? 1) : width;
  if (T === undefined) throw new InvalidArgumentError('width', 'expected the row length T for a flat mask');
  checkAggregationMode(mode);
  let tokens = 0;
  let sequences = 0;
  for (let row = 0; row * T < values.length; row++) {
    let rowTokens = 0;
    for (let t = 0; t < T; t++) rowTokens += values[row * T + t] as number;
    tokens += rowTokens;
    if (rowTokens > 0) sequences += 1;
  }
  return mode === 'token-mean' ? tokens : sequences;
}

/** Reduces a `[B, T]` per-token loss to a scalar under `mode`; see `AggregationMode`. */
export function aggregateLoss(
  lossMat: tf.Tensor,
  mask: tf.Tensor,
  mode: AggregationMode,
  options: AggregateOptions = {},
): tf.Scalar {
  checkAggregationMode(mode);
  if (lossMat.rank !== 2 || lossMat.shape.join(',') !== mask.shape.join(',')) {
    throw new InvalidArgumentError(
      'mask',
      `expected [B, T] lossMat and mask of one shape, got [${lossMat.shape}] and [${mask.shape}]`,
    );
  }
  const { normalizer, tokenScale } = options;
  if (normalizer !== undefined && !(normalizer >= 0)) {
    throw new InvalidArgumentError('options.normalizer', `expected a number >= 0, got ${normalizer}`);
  }
  if (tokenScale !== undefined && !(tokenScale > 0)) {
    throw new InvalidArgumentError('options.tokenScale', `expected a number > 0, got ${tokenScale}`);
  }
  return tf.tidy(() => {
    const masked = tf.mul(lossMat, mask);
    const rowTokens = tf.sum(mask, -1);
    // A 0 normaliser means "nothing valid in the whole batch": the loss is 0, not NaN.
    const denominator = (count: () => tf.Tensor): tf.Tensor =>
      normalizer !== undefined ? tf.scalar(normalizer > 0 ? normalizer : 1) : tf.maximum(count(), 1);
    const seqCount = () => tf.sum(tf.cast(tf.greater(rowTokens, 0), 'float32'));
    switch (mode) {
      case 'token-mean':
        return tf.div(
          tf.sum(masked),
          denominator(() => tf.sum(rowTokens)),
        ) as tf.Scalar;
      case 'seq-mean-token-mean': {
        const rowMeans = tf.div(tf.sum(masked, -1), tf.maximum(rowTokens, 1));
        return tf.div(tf.sum(rowMeans), denominator(seqCount)) as tf.Scalar;
      }
      case 'seq-mean-token-sum':
        return tf.div(tf.sum(masked), denominator(seqCount)) as tf.Scalar;
      case 'seq-mean-token-sum-norm': {
        const scale = tokenScale ?? (lossMat.shape[1] as number);
        return tf.div(tf.sum(masked), tf.mul(denominator(seqCount), scale)) as tf.Scalar;
      }
    }
  });
}
