import { InvalidArgumentError } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';
import {
  type AggregateOptions,
  type AggregationMode,
  aggregateLoss,
  checkAggregationMode,
  lossNormalizer,
} from '../aggregate/aggregate-loss.js';
import { type KlKind, klPenalty, resolveKlKind } from '../kl/kl-penalty.js';
import { getPolicyLoss, policyLoss } from '../loss/policy-loss.js';
import { maskedMean } from '../ops/masked-mean.js';
import { stopGradient } from '../ops/stop-gradient.js';

// The parts `policyGradientStep` and `policyLossGradients` share: option checks, the batch's [B, T]
// tensors, the objective of one micro-batch, and how per-micro-batch metrics add up. Internal.

/** The loss options both entry points take (everything but the optimiser, clipping and input slicing). */
export interface StepLossOptions {
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
}

export interface ResolvedStepOptions {
  lossKind: string;
  mode: AggregationMode;
  klKind: KlKind | undefined;
  entropyCoef: number;
  options: StepLossOptions;
}

export function positive(name: string, value: number | undefined, integer: boolean): void {
  if (value === undefined) return;
  if (!(value > 0) || (integer && !Number.isInteger(value))) {
    throw new InvalidArgumentError(
      name,
      `expected a ${integer ? 'positive integer' : 'number > 0'}, got ${value}`,
    );
  }
}

export function resolveStepOptions(options: StepLossOptions, hasRef: boolean): ResolvedStepOptions {
  const lossKind = options.loss ?? 'vanilla';
  getPolicyLoss(lossKind);
  const mode = checkAggregationMode(options.aggregation ?? 'token-mean');
  positive('options.microBatchSize', options.microBatchSize, true);
  const klKind = options.kl ? resolveKlKind(options.kl.kind) : undefined;
  if (options.kl && !(options.kl.coef >= 0)) {
    throw new InvalidArgumentError('options.kl.coef', `expected a number >= 0, got ${options.kl.coef}`);
  }
  const entropyCoef = options.entropyCoef ?? 0;
  if (!(entropyCoef >= 0))
    throw new InvalidArgumentError('options.entropyCoef', `expected >= 0, got ${entropyCoef}`);
  if (klKind !== undefined && !hasRef) {
    throw new InvalidArgumentError(
      'batch.refLogProbs',
      'options.kl is set, so the batch needs reference log-probs',
    );
  }
  return { lossKind, mode, klKind, entropyCoef, options };
}

/**
 * A value as a tensor: tensors as they are, rows of numbers as `[B, T]`, flat arrays as `[n]` — or as
 * `[B, T]` when `shape` is given and the array holds B·T numbers (a row-major matrix).
 */
export function toTensor(
  name: string,
  value: unknown,
  shape?: readonly [number, number],
): { tensor: tf.Tensor; owned: boolean } {
  if (value instanceof tf.Tensor) return { tensor: value, owned: false };
  if (Array.isArray(value) && value.length > 0 && Array.isArray(value[0])) {
    return { tensor: tf.tensor2d(value as number[][], undefined, 'float32'), owned: true };
  }
  if (Array.isArray(value) || value instanceof Float32Array || value instanceof Float64Array) {
    const flat = value as ArrayLike<number>;
    if (shape !== undefined && flat.length === shape[0] * shape[1]) {
      return {
        tensor: tf.tensor2d(Float32Array.from(flat), [shape[0], shape[1]], 'float32'),
        owned: true,
      };
    }
    return { tensor: tf.tensor1d(Float32Array.from(flat), 'float32'), owned: true };
  }
  throw new InvalidArgumentError(`batch.${name}`, 'expected a tensor, rows of numbers, or a numeric array');
}

/** `toTensor` for a step's inputs, pushing each tensor it creates onto `owned` (the step disposes them). */
export function tensorTaker(
  owned: tf.Tensor[],
): (name: string, value: unknown, shape?: readonly [number, number]) => tf.Tensor {
  return (name, value, shape) => {
    const { tensor, owned: isOwned } = toTensor(name, value, shape);
    if (isOwned) owned.push(tensor);
    return tensor;
  };
}

/** The batch's `[B, T]` tensors and its normalisers, checked against the mask's shape. */
export interface BatchTensors {
  B: number;
  T: number;
  mask: tf.Tensor;
  maskValues: ArrayLike<number>;
  advantages: tf.Tensor;
  oldLogProbs: tf.Tensor | undefined;
  refLogProbs: tf.Tensor | undefined;
  totalTokens: number;
  sequences: number;
  aggregate: AggregateOptions;
}

export async function batchTensors(
  batch: { mask: unknown; advantages: unknown; oldLogProbs?: unknown; refLogProbs?: unknown },
  resolved: ResolvedStepOptions,
  take: (name: string, value: unknown, shape?: readonly [number, number]) => tf.Tensor,
): Promise<BatchTensors> {
  const mask = take('mask', batch.mask);
  if (mask.rank !== 2) throw new InvalidArgumentError('batch.mask', `expected [B, T], got [${mask.shape}]`);
  const [B, T] = mask.shape as [number, number];
  const advantages = take('advantages', batch.advantages, [B, T]);
  const oldLogProbs =
    batch.oldLogProbs === undefined ? undefined : take('oldLogProbs', batch.oldLogProbs, [B, T]);
  const refLogProbs =
    batch.refLogProbs === undefined ? undefined : take('refLogProbs', batch.refLogProbs, [B, T]);
  expectRows('advantages', advantages, B, T, true);
  expectRows('oldLogProbs', oldLogProbs, B, T, false);
  expectRows('refLogProbs', refLogProbs, B, T, false);
  // The normaliser of the full batch, not of each micro-batch: this is what makes accumulation exact.
  const maskValues = await mask.data();
  const normalizer = lossNormalizer(maskValues, resolved.mode, T);
  return {
    B,
    T,
    mask,
    maskValues,
    advantages,
    oldLogProbs,
    refLogProbs,
    totalTokens: lossNormalizer(maskValues, 'token-mean', T),
    sequences: lossNormalizer(maskValues, 'seq-mean-token-sum', T),
    aggregate: { normalizer, tokenScale: resolved.options.tokenScale ?? T },
  };
}

// Checked on the whole batch: a micro-batch slice of a too-long tensor would pass silently.
export function expectRows(
  name: string,
  t: tf.Tensor | undefined,
  B: number,
  T: number,
  allowVector: boolean,
): void {
  if (t === undefined) return;
  const ok = t.shape[0] === B && (t.rank === 2 ? t.shape[1] === T : allowVector && t.rank === 1);
  if (!ok) {
    const want = allowVector ? `[${B}] or [${B}, ${T}]` : `[${B}, ${T}]`;
    throw new InvalidArgumentError(`batch.${name}`, `expected ${want} like batch.mask, got [${t.shape}]`);
  }
}

export interface MicroSlices {
  mask: tf.Tensor;
  advantages: tf.Tensor;
  old: tf.Tensor | undefined;
  ref: tf.Tensor | undefined;
}

/** Rows start..end of the batch's tensors (the caller disposes them). */
export function microSlices(t: BatchTensors, start: number, end: number): MicroSlices {
  const rows = (x: tf.Tensor): tf.Tensor =>
    x.rank === 1 ? tf.slice(x, start, end - start) : tf.slice(x, [start, 0], [end - start, t.T]);
  return tf.tidy(() => ({
    mask: rows(t.mask),
    advantages: rows(t.advantages),
    old: t.oldLogProbs ? rows(t.oldLogProbs) : undefined,
    ref: t.refLogProbs ? rows(t.refLogProbs) : undefined,
  }));
}

/**
 * The scalar one micro-batch contributes to the step's loss: policy loss (+ KL, − entropy) aggregated with
 * the whole batch's normaliser. Its diagnostics go into `metrics` (kept tensors the caller disposes).
 */
export function stepObjective(
  resolved: ResolvedStepOptions,
  aggregate: AggregateOptions,
  logProbs: tf.Tensor2D,
  entropy: tf.Tensor2D | undefined,
  slices: MicroSlices,
  metrics: Record<string, tf.Scalar>,
): tf.Scalar {
  const { lossKind, mode, klKind, entropyCoef, options } = resolved;
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
  if (entropy !== undefined) {
    metrics.entropy = tf.keep(maskedMean(entropy, slices.mask));
    if (entropyCoef > 0) {
      total = tf.sub(total, tf.mul(aggregateLoss(entropy, slices.mask, mode, aggregate), entropyCoef));
    }
  } else if (entropyCoef > 0) {
    throw new InvalidArgumentError('options.entropyCoef', 'the model returned no entropy to add a bonus for');
  }
  return total as tf.Scalar;
}

/**
 * One number per metric from the micro-batches' kept scalars (disposed here): losses add up (global
 * normaliser), token-mean diagnostics are weighted by each micro-batch's share of the valid tokens.
 */
export async function combineStepMetrics(
  parts: { weight: number; metrics: Record<string, tf.Scalar> }[],
): Promise<Record<string, number>> {
  const additive = new Set(['loss', 'pg_loss', 'kl_loss']);
  const keys = [...new Set(parts.flatMap((p) => Object.keys(p.metrics)))];
  const kept = new Set(parts.flatMap((p) => Object.values(p.metrics)));
  const flat = parts.flatMap((p) => keys.map((k) => p.metrics[k] ?? tf.scalar(0)));
  const result: Record<string, number> = {};
  for (const key of keys) result[key] = 0;
  if (flat.length === 0) return result;
  const packed = tf.stack(flat);
  const values = await packed.data();
  packed.dispose();
  parts.forEach((p, i) => {
    keys.forEach((key, j) => {
      const v = values[i * keys.length + j] as number;
      result[key] = (result[key] as number) + (additive.has(key) ? v : v * p.weight);
    });
  });
  for (const t of flat) if (!kept.has(t)) t.dispose();
  return result;
}

/**
 * A step's metrics: the micro-batches' combined (`combineStepMetrics`), the ones always present defaulted
 * to 0, and the batch's counts; `applied` (what applying the gradient told) stands after `pg_loss`.
 */
export async function stepMetrics<A extends object = Record<never, never>>(
  parts: { weight: number; metrics: Record<string, tf.Scalar> }[],
  tensors: Pick<BatchTensors, 'totalTokens' | 'sequences'>,
  microBatches: number,
  applied?: A,
): Promise<
  Record<string, number> &
    A & {
      loss: number;
      pg_loss: number;
      clipfrac: number;
      approx_kl: number;
      tokens: number;
      sequences: number;
      micro_batches: number;
    }
> {
  const result = await combineStepMetrics(parts);
  return {
    ...result,
    loss: result.loss ?? 0,
    pg_loss: result.pg_loss ?? 0,
    ...(applied as A),
    clipfrac: result.clipfrac ?? 0,
    approx_kl: result.approx_kl ?? 0,
    tokens: tensors.totalTokens,
    sequences: tensors.sequences,
    micro_batches: microBatches,
  };
}

/** The token count of rows start..end, from the mask's values. */
export function tokensIn(maskValues: ArrayLike<number>, T: number, start: number, end: number): number {
  let n = 0;
  for (let i = start * T; i < end * T; i++) n += maskValues[i] as number;
  return n;
}
