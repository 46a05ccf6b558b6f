import type * as tf from '@tensorflow/tfjs';

/** What a model returns for a batch of inputs: per-token log-probs of the sampled tokens, `[B, T]`. */
export interface LogProbOutput {
  logProbs: tf.Tensor2D;
  /** Per-token entropy of the policy's distribution `[B, T]`, when the model can give it. */
  entropy?: tf.Tensor2D;
}

/**
 * The one thing `policyGradientStep` needs from a model: given the inputs of B sequences, the log-prob of
 * each sampled token (computed from `trainableVariables`, so it can be differentiated).
 */
export interface LogProbModel<I> {
  readonly trainableVariables: readonly tf.Variable[];
  logProbs(inputs: I): tf.Tensor2D | LogProbOutput;
}
