import * as tf from '@tensorflow/tfjs';
import { maskedMean } from '../ops/masked-mean.js';
import type { PolicyLossFn } from './policy-loss-types.js';

/**
 * GPG (Chu et al., 2025) and plain REINFORCE: L = −A · log π_θ, no ratio and no clip. It assumes the batch
 * is on-policy; `approx_kl` is still reported so drift is visible.
 */
export const gpgLoss: PolicyLossFn = (input) => {
  const { logProbs, oldLogProbs, advantages: adv, mask } = input;
  const metrics: Record<string, tf.Scalar> = {};
  const loss = tf.tidy(() => {
    metrics.approx_kl = tf.keep(maskedMean(tf.sub(oldLogProbs, logProbs), mask));
    metrics.clipfrac = tf.keep(tf.scalar(0));
    metrics.clipfrac_high = tf.keep(tf.scalar(0));
    metrics.clipfrac_low = tf.keep(tf.scalar(0));
    metrics.clipfrac_dual = tf.keep(tf.scalar(0));
    return tf.neg(tf.mul(adv, logProbs)) as tf.Tensor2D;
  });
  return { loss, metrics };
};
