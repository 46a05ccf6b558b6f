import type { Rng } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';
import {
  allowedOps,
  applyOp,
  type EditRules,
  type EditState,
  OP_DELETE,
  OP_END,
  OP_FIRST_PHRASE,
  OP_KEEP,
  OP_SWAP,
  opCount,
  phraseOf,
  startEdit,
} from './edit-ops.js';
import { hashWords } from './encode-context.js';

/** The four tensors of the edit scorer: x·w1 + b1 → tanh → ·w2 + b2 → one logit per edit operation. */
export interface StepWeights<T extends tf.Tensor = tf.Tensor> {
  w1: T;
  b1: T;
  w2: T;
  b2: T;
}

export const WEIGHT_NAMES = ['w1', 'b1', 'w2', 'b2'] as const;

/** One edit to score: what it was conditioned on, the lines it edited and the operations it chose. */
export interface EditorRow {
  context: ArrayLike<number>;
  family: string;
  /** The current skill's numbered lines (empty: written from scratch). */
  source: readonly string[];
  tokens: readonly number[];
}

/** The fixed shape of the network, the masking rules and the priors; everything the row builder needs. */
export interface StepNetworkSpec extends EditRules {
  contextSize: number;
  hiddenSize: number;
  temperature: number;
  orderPrior: number;
  keepPrior: number;
  lineBuckets: number;
}

// Large and finite: exp() of it is exactly 0 in float32, and 0 · (−1e9) stays 0 in the entropy, not NaN.
const MASKED = -1e9;
const FLAGS = 4;

/**
 * Input width: context · hashed words of the line under the cursor and of the next one · previous
 * operation one-hot (last slot: the start) · phrases written so far · cursor one-hot · four flags
 * (editing, all lines used, lines written / maxSteps, lines left / maxSteps).
 */
export function inputSize(spec: StepNetworkSpec): number {
  const v = spec.index.steps.length;
  return spec.contextSize + 2 * spec.lineBuckets + (opCount(v) + 1) + v + (spec.maxSteps + 1) + FLAGS;
}

export function initWeights(spec: StepNetworkSpec, rng: Rng): StepWeights<tf.Tensor> {
  const d = inputSize(spec);
  const h = spec.hiddenSize;
  const out = opCount(spec.index.steps.length);
  const normal = (n: number, std: number) => Float32Array.from({ length: n }, () => rng.normal(0, std));
  return {
    w1: tf.tensor2d(normal(d * h, 1 / Math.sqrt(d)), [d, h]),
    b1: tf.zeros([h]),
    // Small output weights: at initialisation the logits are the priors plus near-zero noise.
    w2: tf.tensor2d(normal(h * out, 0.1 / Math.sqrt(h)), [h, out]),
    b2: tf.zeros([out]),
  };
}

/** The hashed words of each source line, computed once per row. */
export function hashLines(lines: readonly string[], buckets: number): Float32Array[] {
  return lines.map((line) => {
    const v = new Float32Array(buckets);
    hashWords(line, buckets, v, 0);
    return v;
  });
}

/** The phrase the family's plan order puts after the last written line (the first at the start), or the end. */
function orderNext(spec: StepNetworkSpec, family: string, state: EditState): number | undefined {
  const own = spec.index.familySteps.get(family);
  if (own === undefined || own.length === 0) return undefined;
  if (state.output.length === 0) return own[0];
  const prev = state.outputIds[state.outputIds.length - 1];
  const at = prev === undefined ? -1 : own.indexOf(prev);
  if (at < 0) return undefined;
  return at + 1 < own.length ? own[at + 1] : -1;
}

/**
 * Fills one input row and its additive bias for the next operation of `state`: the priors / temperature
 * on allowed operations, −1e9 on the others. Editing (a current skill with lines), `keep` and `<end>` get
 * `keepPrior` and each phrase operation a share of one unit of mass, so the untrained editor makes about
 * one edit in e^keepPrior + 4 decisions; from scratch, `orderPrior` favours the family's plan order.
 */
export function fillRow(
  spec: StepNetworkSpec,
  context: ArrayLike<number>,
  family: string,
  state: EditState,
  lineHashes: readonly Float32Array[],
  x: Float32Array,
  xOffset: number,
  bias: Float32Array,
  biasOffset: number,
): void {
  const v = spec.index.steps.length;
  const k = opCount(v);
  const L = state.source.length;
  let o = xOffset;
  for (let i = 0; i < spec.contextSize; i++) x[o + i] = context[i] as number;
  o += spec.contextSize;
  const here = lineHashes[state.cursor];
  if (here) x.set(here, o);
  o += spec.lineBuckets;
  const next = lineHashes[state.cursor + 1];
  if (next) x.set(next, o);
  o += spec.lineBuckets;
  x[o + (state.last < 0 ? k : state.last)] = 1;
  o += k + 1;
  for (const id of state.outputIds) if (id !== undefined) x[o + id] = 1;
  o += v;
  x[o + Math.min(state.cursor, spec.maxSteps)] = 1;
  o += spec.maxSteps + 1;
  const editing = L > 0;
  x[o] = editing ? 1 : 0;
  x[o + 1] = state.cursor >= L ? 1 : 0;
  x[o + 2] = state.output.length / spec.maxSteps;
  x[o + 3] = (L - state.cursor) / spec.maxSteps;

  const allowed = allowedOps(spec, family, state);
  let inserts = 0;
  let replaces = 0;
  for (let op = OP_FIRST_PHRASE; op < k; op++) {
    if (!allowed[op]) continue;
    if (op < OP_FIRST_PHRASE + v) inserts += 1;
    else replaces += 1;
  }
  const plan = editing || spec.orderPrior === 0 ? undefined : orderNext(spec, family, state);
  for (let op = 0; op < k; op++) {
    let b = 0;
    if (!allowed[op]) {
      b = MASKED;
    } else if (op === OP_KEEP) {
      b = spec.keepPrior;
    } else if (op === OP_END) {
      b = editing ? spec.keepPrior : plan === -1 ? spec.orderPrior : 0;
    } else if (op !== OP_DELETE && op !== OP_SWAP) {
      const isInsert = op < OP_FIRST_PHRASE + v;
      if (editing) b = -Math.log(isInsert ? inserts : replaces);
      if (plan !== undefined && phraseOf(op, v) === plan && isInsert) b += spec.orderPrior;
    }
    bias[biasOffset + op] = allowed[op] ? b / spec.temperature : b;
  }
}

/** Next-operation logits for a batch of input rows `[R, D]` with their biases `[R, K]`. */
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

/** The longest row, in operations: the time axis of a batch. */
export function batchLength(rows: readonly EditorRow[]): number {
  return Math.max(1, ...rows.map((r) => r.tokens.length));
}

/**
 * Per-operation log-probs `[B, T]` (T = `batchLength(rows)`) of the rows' operations and the policy's
 * entropy at each position, differentiable in `w`. Positions past a row's last operation are padding:
 * scored as an unconstrained `<end>` (finite, so no NaN reaches the gradient) and dropped by the caller's
 * mask. Rows are replayed through the edit rules; an operation they forbid throws.
 */
export function sequenceLogProbs(
  spec: StepNetworkSpec,
  w: StepWeights,
  rows: readonly EditorRow[],
): { logProbs: tf.Tensor2D; entropy: tf.Tensor2D } {
  const b = rows.length;
  const t = batchLength(rows);
  const d = inputSize(spec);
  const k = opCount(spec.index.steps.length);
  const x = new Float32Array(b * t * d);
  const bias = new Float32Array(b * t * k);
  const pick = new Float32Array(b * t * k);
  rows.forEach((row, i) => {
    const state = startEdit(row.source);
    const hashes = hashLines(row.source, spec.lineBuckets);
    for (let pos = 0; pos < t; pos++) {
      const r = i * t + pos;
      if (pos < row.tokens.length) {
        const op = row.tokens[pos] as number;
        fillRow(spec, row.context, row.family, state, hashes, x, r * d, bias, r * k);
        if (!((bias[r * k + op] as number) > MASKED / 2)) {
          throw new RangeError(`operation ${op} at position ${pos} is not allowed there`);
        }
        pick[r * k + op] = 1;
        applyOp(state, op, spec.index);
      } else {
        // Padding: zero input, no mask, the end picked.
        pick[r * k + OP_END] = 1;
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
