import * as tf from '@tensorflow/tfjs';
import { maskedMean } from '../ops/masked-mean.js';
import { stopGradient } from '../ops/stop-gradient.js';
import type { PolicyLossFn } from './policy-loss-types.js';

/**
 * CISPO (MiniMax-M1, 2025): clip the importance weight, not the surrogate, and stop its gradient:
 *   L = −sg(clip(r, 1 − ε_low, 1 + ε_high)) · A · log π_θ.
 * Unlike PPO, a clipped token keeps its gradient (scaled by the capped weight) instead of losing it.
 */
export const cispoLoss: PolicyLossFn = (input) => {
  const { logProbs, oldLogProbs, advantages: adv, mask, clipLow, clipHigh, logRatioClamp } = input;
  const metrics: Record<string, tf.Scalar> = {};
  const loss = tf.tidy(() => {
    const logRatio = tf.clipByValue(tf.sub(logProbs, oldLogProbs), -logRatioClamp, logRatioClamp);
    const ratio = tf.exp(logRatio);
    const weight = stopGradient(tf.clipByValue(ratio, 1 - clipLow, 1 + clipHigh));
    const high = tf.cast(tf.greater(ratio, 1 + clipHigh), 'float32');
    const low = tf.cast(tf.less(ratio, 1 - clipLow), 'float32');
    metrics.approx_kl = tf.keep(maskedMean(tf.neg(logRatio), mask));
    metrics.clipfrac = tf.keep(maskedMean(tf.add(high, low), mask));
    metrics.clipfrac_high = tf.keep(maskedMean(high, mask));
    metrics.clipfrac_low = tf.keep(maskedMean(low, mask));
    metrics.clipfrac_dual = tf.keep(tf.scalar(0));
    return tf.neg(tf.mul(tf.mul(weight, adv), logProbs)) as tf.Tensor2D;
  });
  return { loss, metrics };
};
