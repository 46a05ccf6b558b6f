import { InvalidArgumentError } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';
import { applyClippedGradients } from './apply-clipped-gradients.js';
import type { LogProbModel, LogProbOutput } from './log-prob-model.js';
import {
  batchTensors,
  microSlices,
  positive,
  resolveStepOptions,
  type StepLossOptions,
  stepMetrics,
  stepObjective,
  tensorTaker,
  tokensIn,
} from './step-objective.js';

/** A `[B, T]` matrix as a tensor or as rows of numbers. */
export type MatrixLike = tf.Tensor | readonly (readonly number[])[];

export interface PolicyBatch<I> {
  /** The model's inputs for the B sequences: an array (one entry per sequence), a tensor, or anything with `sliceInputs`. */
  inputs: I;
  /** 1 for tokens that count, 0 for padding. Its shape `[B, T]` fixes the batch shape. */
  mask: MatrixLike;
  /** One advantage per token `[B, T]`, or per sequence `[B]`. */
  advantages: MatrixLike | tf.Tensor | readonly number[] | Float32Array | Float64Array;
  /** log π_old per token; absent means on-policy (old = current, detached: every ratio is exactly 1). */
  oldLogProbs?: MatrixLike;
  /** Reference log-probs per token; required when `kl` is set. */
  refLogProbs?: MatrixLike;
}

export interface PolicyGradientStepOptions<I> extends StepLossOptions {
  optimizer: tf.Optimizer;
  /** Clip the global gradient norm to this (default: no clipping). */
  maxGradNorm?: number;
  /** How to cut `inputs` to rows [start, end) when they are neither an array nor a tensor. */
  sliceInputs?: (inputs: I, start: number, end: number) => I;
}

/**
 * Numbers about one step. Always present: `loss` (the optimised scalar), `pg_loss`, `grad_norm` (before
 * clipping), `grad_scale` (the clip factor applied), `skipped` (1 when the gradient norm was not finite and
 * no update was applied, as verl does), `clipfrac`, `clipfrac_high`, `clipfrac_low`, `clipfrac_dual`,
 * `approx_kl`, `tokens`, `sequences`, `micro_batches`. With `kl`: `kl` (token mean) and `kl_loss`; when the
 * model returns entropy: `entropy` (token mean).
 */
export type PolicyStepMetrics = Record<string, number> & {
  loss: number;
  pg_loss: number;
  grad_norm: number;
  grad_scale: number;
  skipped: number;
  clipfrac: number;
  approx_kl: number;
  tokens: number;
  sequences: number;
  micro_batches: number;
};

function sliceRows<I>(inputs: I, start: number, end: number, slice?: (i: I, s: number, e: number) => I): I {
  if (slice) return slice(inputs, start, end);
  if (Array.isArray(inputs)) return inputs.slice(start, end) as I;
  if (inputs instanceof tf.Tensor) return tf.slice(inputs, start, end - start) as I;
  throw new InvalidArgumentError(
    'options.sliceInputs',
    'batch.inputs is neither an array nor a tensor; pass sliceInputs(inputs, start, end) to cut micro-batches',
  );
}

/**
 * One optimiser step of a policy on a batch of sampled sequences: policy loss (+ KL, − entropy), aggregated
 * with a normaliser taken from the whole batch, so that summing micro-batch gradients gives exactly the
 * one-batch gradient in every aggregation mode; then global-norm clipping and `optimizer.applyGradients`.
 * Every intermediate tensor is disposed: `tf.memory().numTensors` is the same before and after (once the
 * optimiser has created its slots on the first step).
 */
export async function policyGradientStep<I>(
  model: LogProbModel<I>,
  batch: PolicyBatch<I>,
  options: PolicyGradientStepOptions<I>,
): Promise<PolicyStepMetrics> {
  const resolved = resolveStepOptions(options, batch.refLogProbs !== undefined);
  positive('options.maxGradNorm', options.maxGradNorm, false);
  const variables = [...model.trainableVariables];
  if (variables.length === 0) {
    throw new InvalidArgumentError('model.trainableVariables', 'expected at least one tf.Variable to train');
  }

  const owned: tf.Tensor[] = [];
  const take = tensorTaker(owned);
  const kept: tf.Tensor[] = [];
  let grads: Record<string, tf.Tensor> = {};
  try {
    const tensors = await batchTensors(batch, resolved, take);
    const { B, T } = tensors;
    const size = options.microBatchSize ?? B;

    // Per micro-batch: its token count (the weight of its token-mean metrics) and kept scalar tensors.
    const parts: { weight: number; metrics: Record<string, tf.Scalar> }[] = [];
    let microBatches = 0;
    for (let start = 0; start < B; start += size) {
      const end = Math.min(B, start + size);
      const slices = microSlices(tensors, start, end);
      const microTokens = tokensIn(tensors.maskValues, T, start, end);
      const whole = start === 0 && end === B;
      const microInputs = whole ? batch.inputs : sliceRows(batch.inputs, start, end, options.sliceInputs);
      const metrics: Record<string, tf.Scalar> = {};
      const forward = (): tf.Scalar => {
        const raw = model.logProbs(microInputs);
        const out: LogProbOutput = raw instanceof tf.Tensor ? { logProbs: raw } : raw;
        if (out.logProbs.shape[0] !== end - start || out.logProbs.shape[1] !== T) {
          throw new InvalidArgumentError(
            'model.logProbs',
            `expected [${end - start}, ${T}] log-probs for rows ${start}..${end}, got [${out.logProbs.shape}]`,
          );
        }
        return stepObjective(resolved, tensors.aggregate, out.logProbs, out.entropy, slices, metrics);
      };
      let result: { value: tf.Scalar; grads: Record<string, tf.Tensor> };
      try {
        result = tf.variableGrads(forward, variables);
      } catch (error) {
        // Tensors kept inside the forward pass would outlive a failed step.
        tf.dispose(Object.values(metrics));
        for (const t of Object.values(slices)) if (t) t.dispose();
        throw error;
      }
      const { value, grads: micro } = result;
      metrics.loss = value;
      for (const m of Object.values(metrics)) kept.push(m);
      for (const t of Object.values(slices)) if (t) t.dispose();
      if (microInputs !== batch.inputs && microInputs instanceof tf.Tensor) microInputs.dispose();
      const summed: Record<string, tf.Tensor> = {};
      for (const [name, g] of Object.entries(micro)) {
        const prev = grads[name];
        if (prev === undefined) {
          summed[name] = g;
        } else {
          summed[name] = tf.add(prev, g);
          prev.dispose();
          g.dispose();
        }
      }
      grads = { ...grads, ...summed };
      parts.push({
        weight: tensors.totalTokens > 0 ? microTokens / tensors.totalTokens : 0,
        metrics,
      });
      microBatches += 1;
    }

    const applied = await applyClippedGradients(
      options.optimizer,
      grads,
      options.maxGradNorm !== undefined ? { maxGradNorm: options.maxGradNorm } : {},
    );
    return await stepMetrics(parts, tensors, microBatches, applied);
  } finally {
    for (const t of kept) t.dispose();
    for (const g of Object.values(grads)) g.dispose();
    for (const t of owned) t.dispose();
  }
}
