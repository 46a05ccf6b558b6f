import * as tf from '@tensorflow/tfjs';
import { maskedMean } from '../ops/masked-mean.js';
import type { PolicyLossFn } from './policy-loss-types.js';

/**
 * PPO's clipped surrogate with an asymmetric clip range and the dual clip of Ye et al. (2020), as in verl's
 * `vanilla` loss: with r = exp(clamp(log π_θ − log π_old, ±20)),
 *   L = max(−A·r, −A·clip(r, 1 − ε_low, 1 + ε_high)), and for A < 0 additionally min(L, −A·c).
 * The dual clip caps how much a single very off-policy token with a negative advantage can push.
 */
export const vanillaLoss: PolicyLossFn = (input) => {
  const { logProbs, oldLogProbs, advantages: adv, mask, clipLow, clipHigh, dualClip, logRatioClamp } = input;
  const metrics: Record<string, tf.Scalar> = {};
  const loss = tf.tidy(() => {
    const logRatio = tf.clipByValue(tf.sub(logProbs, oldLogProbs), -logRatioClamp, logRatioClamp);
    const ratio = tf.exp(logRatio);
    const negAdv = tf.neg(adv);
    const unclipped = tf.mul(negAdv, ratio);
    const clipped = tf.mul(negAdv, tf.clipByValue(ratio, 1 - clipLow, 1 + clipHigh));
    const surrogate = tf.maximum(unclipped, clipped);
    const negative = tf.less(adv, 0);
    metrics.approx_kl = tf.keep(maskedMean(tf.neg(logRatio), mask));
    metrics.clipfrac = tf.keep(maskedMean(tf.cast(tf.greater(clipped, unclipped), 'float32'), mask));
    metrics.clipfrac_high = tf.keep(
      maskedMean(
        tf.cast(tf.logicalAnd(tf.greater(ratio, 1 + clipHigh), tf.greater(adv, 0)), 'float32'),
        mask,
      ),
    );
    metrics.clipfrac_low = tf.keep(
      maskedMean(tf.cast(tf.logicalAnd(tf.less(ratio, 1 - clipLow), negative), 'float32'), mask),
    );
    if (dualClip === false) {
      metrics.clipfrac_dual = tf.keep(tf.scalar(0));
      return surrogate as tf.Tensor2D;
    }
    const cap = tf.mul(negAdv, dualClip);
    metrics.clipfrac_dual = tf.keep(
      maskedMean(tf.cast(tf.logicalAnd(tf.greater(surrogate, cap), negative), 'float32'), mask),
    );
    return tf.where(negative, tf.minimum(surrogate, cap), surrogate) as tf.Tensor2D;
  });
  return { loss, metrics };
};
