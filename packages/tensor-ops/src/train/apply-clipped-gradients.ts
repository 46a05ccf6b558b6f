import * as tf from '@tensorflow/tfjs';
import { positive } from './step-objective.js';

/** What `applyClippedGradients` did: the global norm before clipping, the factor applied, and a skip flag. */
export interface AppliedGradients {
  grad_norm: number;
  /** 1 when no clipping was needed, `maxGradNorm / (grad_norm + 1e-6)` when it was, 0 when skipped. */
  grad_scale: number;
  /** 1 when the norm was not finite and nothing was applied (as verl does), else 0. */
  skipped: number;
}

/**
 * The last part of a step: the global gradient norm, torch's `clip_grad_norm_` rule (scale by
 * max/(norm + 1e-6) only when that is below 1), then `optimizer.applyGradients`. Gradients are keyed by
 * variable name, as `tf.variableGrads` returns them; the caller keeps ownership of them.
 */
export async function applyClippedGradients(
  optimizer: tf.Optimizer,
  grads: Record<string, tf.Tensor>,
  options: { maxGradNorm?: number } = {},
): Promise<AppliedGradients> {
  positive('options.maxGradNorm', options.maxGradNorm, false);
  const list = Object.values(grads);
  const normTensor = tf.tidy(() =>
    list.length === 0 ? tf.scalar(0) : tf.sqrt(tf.addN(list.map((g) => tf.sum(tf.square(g))))),
  );
  const gradNorm = (await normTensor.data())[0] as number;
  normTensor.dispose();
  const finite = Number.isFinite(gradNorm);
  const scale =
    options.maxGradNorm !== undefined && finite ? Math.min(1, options.maxGradNorm / (gradNorm + 1e-6)) : 1;
  if (finite) {
    const applied = scale === 1 ? grads : tf.tidy(() => mapValues(grads, (g) => tf.mul(g, scale)));
    optimizer.applyGradients(applied);
    if (applied !== grads) for (const g of Object.values(applied)) g.dispose();
  }
  return { grad_norm: gradNorm, grad_scale: finite ? scale : 0, skipped: finite ? 0 : 1 };
}

function mapValues(
  map: Record<string, tf.Tensor>,
  f: (t: tf.Tensor) => tf.Tensor,
): Record<string, tf.Tensor> {
  const out: Record<string, tf.Tensor> = {};
  for (const [k, v] of Object.entries(map)) out[k] = f(v);
  return out;
}
