import { InvalidArgumentError } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';
import type { MatrixLike, PolicyBatch, PolicyStepMetrics } from './policy-gradient-step.js';
import {
  batchTensors,
  expectRows,
  microSlices,
  resolveStepOptions,
  type StepLossOptions,
  stepMetrics,
  stepObjective,
  tensorTaker,
  tokensIn,
} from './step-objective.js';

/** A `[B, T]` matrix as a tensor, rows of numbers, or a flat row-major array of B·T numbers. */
export type FlatMatrixLike = MatrixLike | ArrayLike<number>;

/** `PolicyBatch` without inputs: the model's outputs come in instead. `[B, T]` values may be flat arrays. */
export interface LossGradientBatch {
  /** log π_θ per token under the current weights, computed by the caller (`[B, T]`). */
  logProbs: FlatMatrixLike;
  /** The policy's entropy per token (`[B, T]`): needed for the `entropy` metric and `entropyCoef`. */
  entropy?: FlatMatrixLike;
  /** 1 for tokens that count, 0 for padding; its shape `[B, T]` fixes the batch shape. */
  mask: MatrixLike;
  /** One advantage per token (`[B, T]`, or B·T numbers), or per sequence (`[B]`). */
  advantages: PolicyBatch<never>['advantages'];
  oldLogProbs?: FlatMatrixLike;
  refLogProbs?: FlatMatrixLike;
}

/** `PolicyStepMetrics` without what only applying the gradient can tell (`applyClippedGradients` says it). */
export type LossGradientMetrics = Record<string, number> &
  Pick<
    PolicyStepMetrics,
    'loss' | 'pg_loss' | 'clipfrac' | 'approx_kl' | 'tokens' | 'sequences' | 'micro_batches'
  >;

export interface PolicyLossGradients {
  /** ∂loss/∂log π_θ per token, `[B, T]` row-major (0 on masked tokens). */
  dLogProbs: Float32Array;
  /** ∂loss/∂entropy per token, `[B, T]` row-major; absent when the loss does not depend on it. */
  dEntropy?: Float32Array;
  metrics: LossGradientMetrics;
}

/**
 * The same loss as `policyGradientStep` (every registered policy loss, KL estimator, aggregation mode,
 * clip option, entropy bonus and micro-batching, with the whole batch's normaliser), but taken with
 * respect to per-token log-probs the caller computed, not to model variables: it returns ∂loss/∂log π
 * (and ∂loss/∂entropy) and the step's metrics. A model with hand-written gradients chains these into its
 * weights and applies them with `applyClippedGradients`; only the small `[B, T]` tensors touch tfjs.
 */
export async function policyLossGradients(
  batch: LossGradientBatch,
  options: StepLossOptions = {},
): Promise<PolicyLossGradients> {
  const resolved = resolveStepOptions(options, batch.refLogProbs !== undefined);
  const owned: tf.Tensor[] = [];
  const take = tensorTaker(owned);
  const kept: tf.Tensor[] = [];
  try {
    const tensors = await batchTensors(batch, resolved, take);
    const { B, T } = tensors;
    const logProbs = take('logProbs', batch.logProbs, [B, T]);
    const entropy = batch.entropy === undefined ? undefined : take('entropy', batch.entropy, [B, T]);
    expectRows('logProbs', logProbs, B, T, false);
    expectRows('entropy', entropy, B, T, false);
    if (entropy === undefined && resolved.entropyCoef > 0) {
      throw new InvalidArgumentError('batch.entropy', 'options.entropyCoef > 0 needs the per-token entropy');
    }
    // Only inputs the loss depends on are differentiated (tf.grads rejects an unused input).
    const withEntropy = entropy !== undefined && resolved.entropyCoef > 0;
    const dLogProbs = new Float32Array(B * T);
    const dEntropy = withEntropy ? new Float32Array(B * T) : undefined;
    const size = options.microBatchSize ?? B;
    const parts: { weight: number; metrics: Record<string, tf.Scalar> }[] = [];
    let microBatches = 0;
    for (let start = 0; start < B; start += size) {
      const end = Math.min(B, start + size);
      const whole = start === 0 && end === B;
      const slices = microSlices(tensors, start, end);
      const rows = (x: tf.Tensor): tf.Tensor2D =>
        (whole ? x : tf.slice(x, [start, 0], [end - start, T])) as tf.Tensor2D;
      const lp = rows(logProbs);
      const ent = entropy === undefined ? undefined : rows(entropy);
      const metrics: Record<string, tf.Scalar> = {};
      try {
        const objective = (...xs: tf.Tensor[]): tf.Scalar =>
          stepObjective(
            resolved,
            tensors.aggregate,
            xs[0] as tf.Tensor2D,
            withEntropy ? (xs[1] as tf.Tensor2D) : ent,
            slices,
            metrics,
          );
        const { value, grads } = tf.valueAndGrads(objective)(withEntropy && ent ? [lp, ent] : [lp]);
        metrics.loss = value;
        const values = await Promise.all(grads.map((g) => g.data()));
        tf.dispose(grads);
        dLogProbs.set(values[0] as Float32Array, start * T);
        if (dEntropy) dEntropy.set(values[1] as Float32Array, start * T);
      } catch (error) {
        tf.dispose(Object.values(metrics));
        throw error;
      } finally {
        for (const t of Object.values(slices)) if (t) t.dispose();
        if (!whole) {
          lp.dispose();
          ent?.dispose();
        }
      }
      for (const m of Object.values(metrics)) kept.push(m);
      const microTokens = tokensIn(tensors.maskValues, T, start, end);
      parts.push({ weight: tensors.totalTokens > 0 ? microTokens / tensors.totalTokens : 0, metrics });
      microBatches += 1;
    }
    return {
      dLogProbs,
      ...(dEntropy && { dEntropy }),
      metrics: await stepMetrics(parts, tensors, microBatches),
    };
  } finally {
    for (const t of kept) t.dispose();
    for (const t of owned) t.dispose();
  }
}
