import type * as tf from '@tensorflow/tfjs';

/** Inputs of a policy loss. All `[B, T]` tensors share one shape; `advantages` may also be `[B]`. */
export interface PolicyLossInput {
  /** log π_θ per token under the current policy; the loss is differentiated through it. */
  logProbs: tf.Tensor;
  /** log π_old per token under the policy that sampled the batch. */
  oldLogProbs: tf.Tensor;
  /** One advantage per token `[B, T]`, or one per sequence `[B]` (broadcast over its tokens). */
  advantages: tf.Tensor;
  /** 1 where a token counts, 0 for padding and prompt tokens. */
  mask: tf.Tensor;
  /** ε_low: the ratio is clipped below at 1 − clipLow (default 0.2). */
  clipLow?: number;
  /** ε_high: the ratio is clipped above at 1 + clipHigh (default = clipLow; DAPO uses 0.28). */
  clipHigh?: number;
  /** Dual-clip constant c > 1 for negative advantages (default 3, verl's `clip_ratio_c`); `false` disables. */
  dualClip?: number | false;
  /** Clamp of log π_θ − log π_old before `exp`, against overflow (default 20). */
  logRatioClamp?: number;
  /** SAPO temperature for tokens with positive advantage (default 1.0). */
  tauPos?: number;
  /** SAPO temperature for tokens with negative advantage (default 1.05). */
  tauNeg?: number;
}

/** `PolicyLossInput` after defaults and broadcasting: what a registered loss function receives. */
export interface ResolvedPolicyLossInput {
  logProbs: tf.Tensor2D;
  oldLogProbs: tf.Tensor2D;
  /** Always `[B, T]`. */
  advantages: tf.Tensor2D;
  mask: tf.Tensor2D;
  clipLow: number;
  clipHigh: number;
  dualClip: number | false;
  logRatioClamp: number;
  tauPos: number;
  tauNeg: number;
}

/**
 * A per-token loss `[B, T]` (aggregate it with `aggregateLoss`) and scalar diagnostics, each a masked mean
 * over valid tokens: `clipfrac` (any clip active), `clipfrac_high`, `clipfrac_low`, `clipfrac_dual`,
 * `approx_kl` (mean of log π_old − log π_θ, verl's `ppo_kl`). The caller owns (and disposes) every tensor.
 */
export interface PolicyLossOutput {
  loss: tf.Tensor2D;
  metrics: Record<string, tf.Scalar>;
}

export type PolicyLossFn = (input: ResolvedPolicyLossInput) => PolicyLossOutput;
