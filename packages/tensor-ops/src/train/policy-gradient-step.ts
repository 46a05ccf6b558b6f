import { InvalidArgumentError } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';
import {
  type AggregationMode,
  aggregateLoss,
  checkAggregationMode,
  lossNormalizer,
} from '../aggregate/aggregate-loss.js';
import { type KlKind, klPenalty, resolveKlKind } from '../kl/kl-penalty.js';
import { getPolicyLoss, policyLoss } from '../loss/policy-loss.js';
import { maskedMean } from '../ops/masked-mean.js';
import { stopGradient } from '../ops/stop-gradient.js';
import type { LogProbModel, LogProbOutput } from './log-prob-model.js';

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

export interface PolicyGradientStepOptions<I> {
  optimizer: tf.Optimizer;
  /** Registered policy-loss name (default `vanilla`). */
  loss?: string;
  clipLow?: number;
  clipHigh?: number;
  dualClip?: number | false;
  logRatioClamp?: number;
  tauPos?: number;
  tauNeg?: number;
  /** Loss aggregation (default `token-mean`); the KL and entropy terms use the same one. */
  aggregation?: AggregationMode;
  /** Constant length of the two `-norm` modes (verl's `loss_scale_factor`; default T, the mask's width). */
  tokenScale?: number;
  /** KL penalty to the reference policy, added to the loss as `coef · aggregate(kl)`. */
  kl?: { kind: KlKind | string; coef: number };
  /** Entropy bonus: `− coef · aggregate(entropy)` (default 0; needs the model to return entropy). */
  entropyCoef?: number;
  /** Rows per forward/backward pass (default: the whole batch). Results equal one pass in every mode. */
  microBatchSize?: number;
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

function toTensor(name: string, value: unknown): { tensor: tf.Tensor; owned: boolean } {
  if (value instanceof tf.Tensor) return { tensor: value, owned: false };
  if (Array.isArray(value) && value.length > 0 && Array.isArray(value[0])) {
    return { tensor: tf.tensor2d(value as number[][], undefined, 'float32'), owned: true };
  }
  if (Array.isArray(value) || value instanceof Float32Array || value instanceof Float64Array) {
    return { tensor: tf.tensor1d(Array.from(value as ArrayLike<number>), 'float32'), owned: true };
  }
  throw new InvalidArgumentError(`batch.${name}`, 'expected a tensor, rows of numbers, or a numeric array');
}

function sliceRows<I>(inputs: I, start: number, end: number, slice?: (i: I, s: number, e: number) => I): I {
  if (slice) return slice(inputs, start, end);
  if (Array.isArray(inputs)) return inputs.slice(start, end) as I;
  if (inputs instanceof tf.Tensor) return tf.slice(inputs, start, end - start) as I;
  throw new InvalidArgumentError(
    'options.sliceInputs',
    'batch.inputs is neither an array nor a tensor; pass sliceInputs(inputs, start, end) to cut micro-batches',
  );
}

function positive(name: string, value: number | undefined, integer: boolean): void {
  if (value === undefined) return;
  if (!(value > 0) || (integer && !Number.isInteger(value))) {
    throw new InvalidArgumentError(
      name,
      `expected a ${integer ? 'positive integer' : 'number > 0'}, got ${value}`,
    );
  }
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
  const lossKind = options.loss ?? 'vanilla';
  getPolicyLoss(lossKind);
  const mode = checkAggregationMode(options.aggregation ?? 'token-mean');
  positive('options.microBatchSize', options.microBatchSize, true);
  positive('options.maxGradNorm', options.maxGradNorm, false);
  const klKind = options.kl ? resolveKlKind(options.kl.kind) : undefined;
  if (options.kl && !(options.kl.coef >= 0)) {
    throw new InvalidArgumentError('options.kl.coef', `expected a number >= 0, got ${options.kl.coef}`);
  }
  const entropyCoef = options.entropyCoef ?? 0;
  if (!(entropyCoef >= 0))
    throw new InvalidArgumentError('options.entropyCoef', `expected >= 0, got ${entropyCoef}`);
  if (klKind !== undefined && batch.refLogProbs === undefined) {
    throw new InvalidArgumentError(
      'batch.refLogProbs',
      'options.kl is set, so the batch needs reference log-probs',
    );
  }
  const variables = [...model.trainableVariables];
  if (variables.length === 0) {
    throw new InvalidArgumentError('model.trainableVariables', 'expected at least one tf.Variable to train');
  }

  const owned: tf.Tensor[] = [];
  const take = (name: string, value: unknown): tf.Tensor => {
    const { tensor, owned: isOwned } = toTensor(name, value);
    if (isOwned) owned.push(tensor);
    return tensor;
  };
  const kept: tf.Tensor[] = [];
  let grads: Record<string, tf.Tensor> = {};
  try {
    const mask = take('mask', batch.mask);
    if (mask.rank !== 2) throw new InvalidArgumentError('batch.mask', `expected [B, T], got [${mask.shape}]`);
    const [B, T] = mask.shape as [number, number];
    const advantages = take('advantages', batch.advantages);
    const oldLogProbs = batch.oldLogProbs === undefined ? undefined : take('oldLogProbs', batch.oldLogProbs);
    const refLogProbs = batch.refLogProbs === undefined ? undefined : take('refLogProbs', batch.refLogProbs);
    // Checked on the whole batch: a micro-batch slice of a too-long tensor would pass silently.
    const expectRows = (name: string, t: tf.Tensor | undefined, allowVector: boolean): void => {
      if (t === undefined) return;
      const ok = t.shape[0] === B && (t.rank === 2 ? t.shape[1] === T : allowVector && t.rank === 1);
      if (!ok) {
        const want = allowVector ? `[${B}] or [${B}, ${T}]` : `[${B}, ${T}]`;
        throw new InvalidArgumentError(`batch.${name}`, `expected ${want} like batch.mask, got [${t.shape}]`);
      }
    };
    expectRows('advantages', advantages, true);
    expectRows('oldLogProbs', oldLogProbs, false);
    expectRows('refLogProbs', refLogProbs, false);

    // The normaliser of the full batch, not of each micro-batch: this is what makes accumulation exact.
    const maskValues = await mask.data();
    const normalizer = lossNormalizer(maskValues, mode, T);
    const totalTokens = lossNormalizer(maskValues, 'token-mean', T);
    const sequences = lossNormalizer(maskValues, 'seq-mean-token-sum', T);
    const tokenScale = options.tokenScale ?? T;
    const aggregate = { normalizer, tokenScale };
    const size = options.microBatchSize ?? B;

    // Per micro-batch: its token count (the weight of its token-mean metrics) and kept scalar tensors.
    const parts: { weight: number; metrics: Record<string, tf.Scalar> }[] = [];
    let microBatches = 0;
    for (let start = 0; start < B; start += size) {
      const end = Math.min(B, start + size);
      const rows = (t: tf.Tensor): tf.Tensor =>
        t.rank === 1 ? tf.slice(t, start, end - start) : tf.slice(t, [start, 0], [end - start, T]);
      const slices = tf.tidy(() => ({
        mask: rows(mask),
        advantages: rows(advantages),
        old: oldLogProbs ? rows(oldLogProbs) : undefined,
        ref: refLogProbs ? rows(refLogProbs) : undefined,
      }));
      let microTokens = 0;
      for (let i = start * T; i < end * T; i++) microTokens += maskValues[i] as number;
      const whole = start === 0 && end === B;
      const microInputs = whole ? batch.inputs : sliceRows(batch.inputs, start, end, options.sliceInputs);
      const metrics: Record<string, tf.Scalar> = {};
      const run = () => {
        try {
          return tf.variableGrads(forward, variables);
        } catch (error) {
          // Tensors kept inside the forward pass would outlive a failed step.
          tf.dispose(Object.values(metrics));
          for (const t of Object.values(slices)) if (t) t.dispose();
          throw error;
        }
      };
      const forward = (): tf.Scalar => {
        const raw = model.logProbs(microInputs);
        const out: LogProbOutput = raw instanceof tf.Tensor ? { logProbs: raw } : raw;
        const logProbs = out.logProbs;
        if (logProbs.shape[0] !== end - start || logProbs.shape[1] !== T) {
          throw new InvalidArgumentError(
            'model.logProbs',
            `expected [${end - start}, ${T}] log-probs for rows ${start}..${end}, got [${logProbs.shape}]`,
          );
        }
        const pg = policyLoss(lossKind, {
          logProbs,
          oldLogProbs: slices.old ?? stopGradient(logProbs),
          advantages: slices.advantages,
          mask: slices.mask,
          ...(options.clipLow !== undefined && { clipLow: options.clipLow }),
          ...(options.clipHigh !== undefined && { clipHigh: options.clipHigh }),
          ...(options.dualClip !== undefined && { dualClip: options.dualClip }),
          ...(options.logRatioClamp !== undefined && { logRatioClamp: options.logRatioClamp }),
          ...(options.tauPos !== undefined && { tauPos: options.tauPos }),
          ...(options.tauNeg !== undefined && { tauNeg: options.tauNeg }),
        });
        Object.assign(metrics, pg.metrics);
        const pgLoss = aggregateLoss(pg.loss, slices.mask, mode, aggregate);
        metrics.pg_loss = tf.keep(pgLoss);
        let total: tf.Tensor = pgLoss;
        if (klKind !== undefined && slices.ref !== undefined && options.kl) {
          const klMat = klPenalty(klKind, logProbs, slices.ref);
          const klLoss = aggregateLoss(klMat, slices.mask, mode, aggregate);
          metrics.kl = tf.keep(maskedMean(klMat, slices.mask));
          metrics.kl_loss = tf.keep(klLoss);
          total = tf.add(total, tf.mul(klLoss, options.kl.coef));
        }
        if (out.entropy !== undefined) {
          metrics.entropy = tf.keep(maskedMean(out.entropy, slices.mask));
          if (entropyCoef > 0) {
            total = tf.sub(
              total,
              tf.mul(aggregateLoss(out.entropy, slices.mask, mode, aggregate), entropyCoef),
            );
          }
        } else if (entropyCoef > 0) {
          throw new InvalidArgumentError(
            'options.entropyCoef',
            'the model returned no entropy to add a bonus for',
          );
        }
        return total as tf.Scalar;
      };
      const { value, grads: micro } = run();
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
      parts.push({ weight: totalTokens > 0 ? microTokens / totalTokens : 0, metrics });
      microBatches += 1;
    }

    const normTensor = tf.tidy(() => tf.sqrt(tf.addN(Object.values(grads).map((g) => tf.sum(tf.square(g))))));
    const gradNorm = (await normTensor.data())[0] as number;
    normTensor.dispose();
    const finite = Number.isFinite(gradNorm);
    // torch's clip_grad_norm_ convention: scale by max/(norm + 1e-6) only when that is below 1.
    const scale =
      options.maxGradNorm !== undefined && finite ? Math.min(1, options.maxGradNorm / (gradNorm + 1e-6)) : 1;
    if (finite) {
      const applied = scale === 1 ? grads : tf.tidy(() => mapValues(grads, (g) => tf.mul(g, scale)));
      options.optimizer.applyGradients(applied);
      if (applied !== grads) for (const g of Object.values(applied)) g.dispose();
    }

    // Losses add up across micro-batches (global normaliser); token-mean diagnostics are token-weighted.
    const additive = new Set(['loss', 'pg_loss', 'kl_loss']);
    const keys = [...new Set(parts.flatMap((p) => Object.keys(p.metrics)))];
    const flat = parts.flatMap((p) => keys.map((k) => p.metrics[k] ?? tf.scalar(0)));
    const packed = tf.stack(flat);
    const values = await packed.data();
    packed.dispose();
    const result: Record<string, number> = {};
    for (const key of keys) result[key] = 0;
    parts.forEach((p, i) => {
      keys.forEach((key, j) => {
        const v = values[i * keys.length + j] as number;
        result[key] = (result[key] as number) + (additive.has(key) ? v : v * p.weight);
      });
    });
    for (const t of flat) if (!kept.includes(t)) t.dispose();
    return {
      ...result,
      loss: result.loss ?? 0,
      pg_loss: result.pg_loss ?? 0,
      grad_norm: gradNorm,
      grad_scale: finite ? scale : 0,
      skipped: finite ? 0 : 1,
      clipfrac: result.clipfrac ?? 0,
      approx_kl: result.approx_kl ?? 0,
      tokens: totalTokens,
      sequences,
      micro_batches: microBatches,
    };
  } finally {
    for (const t of kept) t.dispose();
    for (const g of Object.values(grads)) g.dispose();
    for (const t of owned) t.dispose();
  }
}

function mapValues(
  map: Record<string, tf.Tensor>,
  f: (t: tf.Tensor) => tf.Tensor,
): Record<string, tf.Tensor> {
  const out: Record<string, tf.Tensor> = {};
  for (const [k, v] of Object.entries(map)) out[k] = f(v);
  return out;
}
