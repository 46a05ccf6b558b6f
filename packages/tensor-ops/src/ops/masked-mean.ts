import * as tf from '@tensorflow/tfjs';

/**
 * Mean of `x` over the positions where `mask` is 1 (masks are 0/1). An all-zero mask gives 0, not NaN:
 * the count is floored at 1, which changes nothing when at least one position is valid.
 */
export function maskedMean(x: tf.Tensor, mask: tf.Tensor): tf.Scalar {
  return tf.tidy(() => tf.div(tf.sum(tf.mul(x, mask)), tf.maximum(tf.sum(mask), 1)) as tf.Scalar);
}
