import * as tf from '@tensorflow/tfjs';
import { maskedMean } from '../ops/masked-mean.js';
import type { PolicyLossFn } from './policy-loss-types.js';

/**
 * SAPO (Gao et al., 2025): a smooth gate instead of a hard clip,
 *   L = −A · (4/τ) · σ(τ (r − 1)),   τ = τ_pos if A > 0 else τ_neg.
 * At r = 1 the gate's slope is (4/τ)·τ·σ'(0) = 1, so on-policy it has the plain policy gradient; off-policy
 * the gradient decays smoothly. `clipfrac_*` here count tokens whose ratio left [1 − ε_low, 1 + ε_high]
 * (a diagnostic band: nothing is clipped).
 */
export const sapoLoss: PolicyLossFn = (input) => {
  const {
    logProbs,
    oldLogProbs,
    advantages: adv,
    mask,
    clipLow,
    clipHigh,
    logRatioClamp,
    tauPos,
    tauNeg,
  } = input;
  const metrics: Record<string, tf.Scalar> = {};
  const loss = tf.tidy(() => {
    const logRatio = tf.clipByValue(tf.sub(logProbs, oldLogProbs), -logRatioClamp, logRatioClamp);
    const ratio = tf.exp(logRatio);
    const tau = tf.where(tf.greater(adv, 0), tf.fill(adv.shape, tauPos), tf.fill(adv.shape, tauNeg));
    const gate = tf.mul(tf.sigmoid(tf.mul(tau, tf.sub(ratio, 1))), tf.div(4, tau));
    const high = tf.cast(tf.greater(ratio, 1 + clipHigh), 'float32');
    const low = tf.cast(tf.less(ratio, 1 - clipLow), 'float32');
    metrics.approx_kl = tf.keep(maskedMean(tf.neg(logRatio), mask));
    metrics.clipfrac = tf.keep(maskedMean(tf.add(high, low), mask));
    metrics.clipfrac_high = tf.keep(maskedMean(high, mask));
    metrics.clipfrac_low = tf.keep(maskedMean(low, mask));
    metrics.clipfrac_dual = tf.keep(tf.scalar(0));
    return tf.neg(tf.mul(adv, gate)) as tf.Tensor2D;
  });
  return { loss, metrics };
};
