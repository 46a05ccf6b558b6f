import { InvalidArgumentError, RegistryError } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';
import { straightThrough } from '../ops/stop-gradient.js';

/**
 * KL estimators of log π − log π_ref per token (Schulman's k1/k2/k3). `k1+` and `k3+` are straight-through:
 * the value of k1/k3 with the gradient of k2, whose gradient (log π − log π_ref)·∇log π is the unbiased one.
 */
export type KlKind = 'k1' | 'abs' | 'k2' | 'k3' | 'k1+' | 'k3+';

export const KL_KINDS: readonly KlKind[] = ['k1', 'abs', 'k2', 'k3', 'k1+', 'k3+'];

// verl's older names for the same estimators.
const ALIASES: Record<string, KlKind> = {
  kl: 'k1',
  mse: 'k2',
  low_var_kl: 'k3',
  'kl+': 'k1+',
  'mse+': 'k2',
  'low_var_kl+': 'k3+',
};

export function resolveKlKind(kind: string): KlKind {
  if ((KL_KINDS as readonly string[]).includes(kind)) return kind as KlKind;
  const alias = ALIASES[kind];
  if (alias === undefined) throw new RegistryError('KL estimator', kind, 'unknown', [...KL_KINDS]);
  return alias;
}

function plain(kind: 'k1' | 'abs' | 'k2' | 'k3', logProbs: tf.Tensor, refLogProbs: tf.Tensor): tf.Tensor {
  return tf.tidy(() => {
    const diff = tf.sub(logProbs, refLogProbs);
    switch (kind) {
      case 'k1':
        return diff;
      case 'abs':
        return tf.abs(diff);
      case 'k2':
        return tf.mul(0.5, tf.square(diff));
      case 'k3': {
        // k3 = exp(ref − logp) − (ref − logp) − 1 ≥ 0. The clamps (±20 inside, ±10 outside) are verl's:
        // one very unlikely token would otherwise dominate the batch.
        const kl = tf.clipByValue(tf.neg(diff), -20, 20);
        return tf.clipByValue(tf.sub(tf.sub(tf.exp(kl), kl), 1), -10, 10);
      }
    }
  });
}

/** Per-token KL penalty of `kind` between the current and the reference log-probs (same shape). */
export function klPenalty(kind: KlKind | string, logProbs: tf.Tensor, refLogProbs: tf.Tensor): tf.Tensor {
  const resolved = resolveKlKind(kind);
  if (logProbs.shape.join(',') !== refLogProbs.shape.join(',')) {
    throw new InvalidArgumentError(
      'refLogProbs',
      `expected shape [${logProbs.shape}] like logProbs, got [${refLogProbs.shape}]`,
    );
  }
  if (resolved === 'k1+' || resolved === 'k3+') {
    return tf.tidy(() =>
      straightThrough(
        plain(resolved === 'k1+' ? 'k1' : 'k3', logProbs, refLogProbs),
        plain('k2', logProbs, refLogProbs),
      ),
    );
  }
  return plain(resolved, logProbs, refLogProbs);
}
