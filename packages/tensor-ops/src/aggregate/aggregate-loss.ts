import { InvalidArgumentError } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';

/**
 * How a `[B, T]` per-token loss becomes one number. The first four are verl's `loss_agg_mode` names with
 * verl's `agg_loss` semantics (`verl/trainer/ppo/core_algos.py`); the fifth is the Dr.GRPO paper's form.
 * - `token-mean`: Σ L·M / N_tokens (DAPO; every token weighs the same);
 * - `seq-mean-token-mean`: mean over sequences of each sequence's token mean (original GRPO);
 * - `seq-mean-token-sum`: mean over sequences of each sequence's token sum;
 * - `seq-mean-token-sum-norm`: Σ L·M / tokenScale, as verl: `torch.sum(seq_losses) / loss_scale_factor`, with
 *   `loss_scale_factor` defaulting to `loss_mask.shape[-1]` (T). No division by the number of sequences;
 * - `seq-mean-token-sum-norm-drgrpo`: Σ L·M / (N_seqs · tokenScale), the Dr.GRPO paper's listing (each
 *   sequence's token sum over a constant, then the batch mean) and TRL's `loss_type="dr_grpo"`
 *   (`/ (B · max_completion_length)`); here N_seqs counts only sequences with a valid token.
 * The two `-norm` modes differ by the constant factor N_seqs: the same gradient direction, a step N_seqs
 * times larger under verl's form for the same learning rate.
 */
export type AggregationMode =
  | 'token-mean'
  | 'seq-mean-token-mean'
  | 'seq-mean-token-sum'
  | 'seq-mean-token-sum-norm'
  | 'seq-mean-token-sum-norm-drgrpo';

export const AGGREGATION_MODES: readonly AggregationMode[] = [
  'token-mean',
  'seq-mean-token-mean',
  'seq-mean-token-sum',
  'seq-mean-token-sum-norm',
  'seq-mean-token-sum-norm-drgrpo',
];

export interface AggregateOptions {
  /**
   * The count the mode divides by: valid tokens for `token-mean`, sequences for `seq-mean-token-mean`,
   * `seq-mean-token-sum` and `seq-mean-token-sum-norm-drgrpo`, and 1 for `seq-mean-token-sum-norm` (verl
   * divides by no count). Defaults to this batch's own count (sequences with no valid token do not count).
   * When the batch is a micro-batch, pass the full batch's count (`lossNormalizer`) so accumulated gradients
   * equal the one-batch gradient.
   */
  normalizer?: number;
  /**
   * The constant per-sequence length of the two `-norm` modes: verl's `loss_scale_factor`, Dr.GRPO's
   * generation budget. Default T, the mask's width (verl's `loss_mask.shape[-1]`). Set it to the maximum
   * response length to keep it constant across batches; micro-batches of one batch share T either way.
   */
  tokenScale?: number;
}

export function checkAggregationMode(mode: string): AggregationMode {
  if (!(AGGREGATION_MODES as readonly string[]).includes(mode)) {
    throw new InvalidArgumentError('mode', `expected one of ${AGGREGATION_MODES.join(', ')}, got "${mode}"`);
  }
  return mode as AggregationMode;
}

/**
 * The count `aggregateLoss` would divide by for this mask: valid tokens for `token-mean`, 1 for verl's
 * `seq-mean-token-sum-norm` (no count), sequences with at least one valid token otherwise. Compute it once on
 * the full batch and pass it to every micro-batch.
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
  if (mode === 'token-mean') return tokens;
  if (mode === 'seq-mean-token-sum-norm') return 1;
  return sequences;
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
        // verl: torch.sum(seq_losses) / loss_scale_factor: no count, so the default normaliser is 1.
        const scale = tokenScale ?? (lossMat.shape[1] as number);
        return tf.div(
          tf.sum(masked),
          tf.mul(
            denominator(() => tf.scalar(1)),
            scale,
          ),
        ) as tf.Scalar;
      }
      case 'seq-mean-token-sum-norm-drgrpo': {
        const scale = tokenScale ?? (lossMat.shape[1] as number);
        return tf.div(tf.sum(masked), tf.mul(denominator(seqCount), scale)) as tf.Scalar;
      }
    }
  });
}
