import type { Rng } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';
import type { StepIndex } from './step-index.js';

/** The four tensors of the step scorer: x·w1 + b1 → tanh → ·w2 + b2 → one logit per step and the end. */
export interface StepWeights<T extends tf.Tensor = tf.Tensor> {
  w1: T;
  b1: T;
  w2: T;
  b2: T;
}

export const WEIGHT_NAMES = ['w1', 'b1', 'w2', 'b2'] as const;

/** One sequence to score: what it was conditioned on and the tokens it chose (step ids, then maybe the end). */
export interface EditorRow {
  context: ArrayLike<number>;
  family: string;
  tokens: readonly number[];
}

/** The fixed shape of the network and the masking rules; everything the row builder needs. */
export interface StepNetworkSpec {
  index: StepIndex;
  contextSize: number;
  hiddenSize: number;
  maxSteps: number;
  minSteps: number;
  temperature: number;
  orderPrior: number;
  restrictToFamily: boolean;
  allowRepeats: boolean;
}

// Large and finite: exp() of it is exactly 0 in float32, and 0 · (−1e9) stays 0 in the entropy, not NaN.
const MASKED = -1e9;

/** Input width: context · previous token one-hot (the end id doubles as "start") · chosen-so-far · position. */
export function inputSize(spec: StepNetworkSpec): number {
  const v = spec.index.steps.length;
  return spec.contextSize + (v + 1) + v + spec.maxSteps;
}

export function initWeights(spec: StepNetworkSpec, rng: Rng): StepWeights<tf.Tensor> {
  const d = inputSize(spec);
  const h = spec.hiddenSize;
  const out = spec.index.steps.length + 1;
  const normal = (n: number, std: number) => Float32Array.from({ length: n }, () => rng.normal(0, std));
  return {
    w1: tf.tensor2d(normal(d * h, 1 / Math.sqrt(d)), [d, h]),
    b1: tf.zeros([h]),
    // Small output weights: at initialisation the logits are the order prior plus near-zero noise.
    w2: tf.tensor2d(normal(h * out, 0.1 / Math.sqrt(h)), [h, out]),
    b2: tf.zeros([out]),
  };
}

/** Which tokens may come next, given the family and the steps chosen so far. */
export function allowedTokens(spec: StepNetworkSpec, family: string, chosen: readonly number[]): boolean[] {
  const v = spec.index.steps.length;
  const allowed = new Array<boolean>(v + 1).fill(false);
  const own = spec.index.familySteps.get(family);
  const pool = spec.restrictToFamily && own !== undefined ? own : spec.index.steps.map((_, i) => i);
  const used = new Set(chosen);
  let any = false;
  for (const id of pool) {
    if (spec.allowRepeats || !used.has(id)) {
      allowed[id] = true;
      any = true;
    }
  }
  // The end is allowed once the skill is long enough, or when nothing else is left to choose.
  allowed[v] = chosen.length >= spec.minSteps || !any;
  return allowed;
}

/** The token the family's plan order puts after `prev` (−1 for the start), or undefined. */
function orderNext(spec: StepNetworkSpec, family: string, prev: number): number | undefined {
  const own = spec.index.familySteps.get(family);
  if (own === undefined || own.length === 0) return undefined;
  if (prev < 0) return own[0];
  const at = own.indexOf(prev);
  if (at < 0) return undefined;
  return at + 1 < own.length ? own[at + 1] : spec.index.end;
}

/**
 * Fills one input row and its additive bias (prior / temperature, and −1e9 on disallowed tokens) for
 * position `chosen.length` of a sequence.
 */
export function fillRow(
  spec: StepNetworkSpec,
  context: ArrayLike<number>,
  family: string,
  chosen: readonly number[],
  x: Float32Array,
  xOffset: number,
  bias: Float32Array,
  biasOffset: number,
): void {
  const v = spec.index.steps.length;
  let o = xOffset;
  for (let i = 0; i < spec.contextSize; i++) x[o + i] = context[i] as number;
  o += spec.contextSize;
  const prev = chosen.length > 0 ? (chosen[chosen.length - 1] as number) : -1;
  x[o + (prev < 0 ? v : prev)] = 1;
  o += v + 1;
  for (const id of chosen) x[o + id] = 1;
  o += v;
  x[o + Math.min(chosen.length, spec.maxSteps - 1)] = 1;
  const allowed = allowedTokens(spec, family, chosen);
  const next = spec.orderPrior > 0 ? orderNext(spec, family, prev) : undefined;
  for (let k = 0; k <= v; k++) {
    let b = allowed[k] ? 0 : MASKED;
    if (k === next && allowed[k]) b += spec.orderPrior / spec.temperature;
    bias[biasOffset + k] = b;
  }
}

/** Next-token logits for a batch of input rows `[R, D]` with their biases `[R, V + 1]`. */
export function stepLogits(
  spec: StepNetworkSpec,
  w: StepWeights,
  x: tf.Tensor2D,
  bias: tf.Tensor2D,
): tf.Tensor2D {
  return tf.tidy(() => {
    const h = tf.tanh(tf.add(tf.matMul(x, w.w1), w.b1));
    const out = tf.add(tf.matMul(h, w.w2), w.b2);
    return tf.add(tf.div(out, spec.temperature), bias) as tf.Tensor2D;
  });
}

/**
 * Per-token log-probs `[B, T]` (T = maxSteps) of the rows' tokens and the policy's entropy at each
 * position, differentiable in `w`. Positions past a row's last token are padding: they are scored as an
 * unconstrained end (finite, so no NaN reaches the gradient) and the caller's mask drops them.
 */
export function sequenceLogProbs(
  spec: StepNetworkSpec,
  w: StepWeights,
  rows: readonly EditorRow[],
): { logProbs: tf.Tensor2D; entropy: tf.Tensor2D } {
  const b = rows.length;
  const t = spec.maxSteps;
  const d = inputSize(spec);
  const k = spec.index.steps.length + 1;
  const x = new Float32Array(b * t * d);
  const bias = new Float32Array(b * t * k);
  const pick = new Float32Array(b * t * k);
  rows.forEach((row, i) => {
    for (let pos = 0; pos < t; pos++) {
      const r = i * t + pos;
      if (pos < row.tokens.length) {
        fillRow(spec, row.context, row.family, row.tokens.slice(0, pos), x, r * d, bias, r * k);
        pick[r * k + (row.tokens[pos] as number)] = 1;
      } else {
        // Padding: zero input, no mask, the end token picked.
        pick[r * k + spec.index.end] = 1;
      }
    }
  });
  return tf.tidy(() => {
    const logits = stepLogits(spec, w, tf.tensor2d(x, [b * t, d]), tf.tensor2d(bias, [b * t, k]));
    const logSoftmax = tf.logSoftmax(logits);
    const logProbs = tf.reshape(tf.sum(tf.mul(logSoftmax, tf.tensor2d(pick, [b * t, k])), -1), [b, t]);
    const entropy = tf.reshape(tf.neg(tf.sum(tf.mul(tf.exp(logSoftmax), logSoftmax), -1)), [b, t]);
    return { logProbs: logProbs as tf.Tensor2D, entropy: entropy as tf.Tensor2D };
  });
}
