import * as tf from '@tensorflow/tfjs';
import { maskedMean } from '../ops/masked-mean.js';
import { stopGradient } from '../ops/stop-gradient.js';
import type { PolicyLossFn } from './policy-loss-types.js';

/**
 * GSPO (Zheng et al., 2025): one importance ratio per sequence, the geometric mean of its token ratios,
 * s_i = exp(mean_t(log π_θ − log π_old)). Each token carries s_i as its value and ∇log π_θ(token) as its
 * gradient: log s_i,t = sg(log s_i) + log π_θ − sg(log π_θ), capped at 10 before `exp` as verl does.
 * Then the usual clipped surrogate on s_i,t. verl aggregates GSPO with `seq-mean-token-mean`; that is the
 * caller's choice here (pass it to `aggregateLoss`). Typical clip ranges are tiny (3e-4 / 4e-4).
 */
export const gspoLoss: PolicyLossFn = (input) => {
  const { logProbs, oldLogProbs, advantages: adv, mask, clipLow, clipHigh } = input;
  const metrics: Record<string, tf.Scalar> = {};
  const loss = tf.tidy(() => {
    const logRatio = tf.sub(logProbs, oldLogProbs);
    const lengths = tf.maximum(tf.sum(mask, -1, true), 1);
    const seqLogRatio = tf.div(tf.sum(tf.mul(logRatio, mask), -1, true), lengths);
    const tokenLogRatio = tf.add(tf.sub(logProbs, stopGradient(logProbs)), stopGradient(seqLogRatio));
    const ratio = tf.exp(tf.minimum(tokenLogRatio, 10));
    const negAdv = tf.neg(adv);
    const unclipped = tf.mul(negAdv, ratio);
    const clipped = tf.mul(negAdv, tf.clipByValue(ratio, 1 - clipLow, 1 + clipHigh));
    metrics.approx_kl = tf.keep(maskedMean(tf.neg(logRatio), mask));
    metrics.clipfrac = tf.keep(maskedMean(tf.cast(tf.greater(clipped, unclipped), 'float32'), mask));
    metrics.clipfrac_high = tf.keep(
      maskedMean(
        tf.cast(tf.logicalAnd(tf.greater(ratio, 1 + clipHigh), tf.greater(adv, 0)), 'float32'),
        mask,
      ),
    );
    metrics.clipfrac_low = tf.keep(
      maskedMean(tf.cast(tf.logicalAnd(tf.less(ratio, 1 - clipLow), tf.less(adv, 0)), 'float32'), mask),
    );
    metrics.clipfrac_dual = tf.keep(tf.scalar(0));
    return tf.maximum(unclipped, clipped) as tf.Tensor2D;
  });
  return { loss, metrics };
};
