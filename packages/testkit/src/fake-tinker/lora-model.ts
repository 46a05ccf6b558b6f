import type { Rng } from '@skillrl/core';

/**
 * A base model the fake hosts: a bigram language model "pretrained" by counting the token pairs of a small
 * corpus (additive smoothing), plus a copy prior that favours some tokens once the context holds them.
 */
export interface FakeBaseModelSpec {
  vocabSize: number;
  /** Ends a sampled sequence (stop reason `stop`) when the request names no stop tokens. */
  eosTokenId: number;
  /** Additive smoothing of the bigram counts. Default 0.02. */
  smoothing?: number;
  /** Token sequences the bigram prior is counted from. */
  corpus: number[][];
  /** Tokens whose logit rises by `weight` once they occur in the context (a reader's bias to repeat). */
  copy?: { tokens: number[]; weight: number };
  /**
   * The tokens whose presence in the context is a feature of the adapter (`A_W` rows); default every token.
   * A small set (the words that tell tasks apart) keeps the adapter's context sum, and Adam's per-weight noise
   * through it, small.
   */
  features?: number[];
  description?: string;
  /** Reported by `get_server_capabilities`. Default 4096. */
  maxContextLength?: number;
}

/** The frozen part of a hosted model, built once per base model. */
export interface BasePrior {
  V: number;
  eos: number;
  /** log p0(next | previous), row-major [previous][next]. */
  logP0: Float64Array;
  copyMask: Uint8Array;
  copyWeight: number;
  featureMask: Uint8Array;
  maxContextLength: number;
}

export function buildBasePrior(spec: FakeBaseModelSpec): BasePrior {
  const V = spec.vocabSize;
  const alpha = spec.smoothing ?? 0.02;
  const counts = new Float64Array(V * V);
  const rows = new Float64Array(V);
  for (const sequence of spec.corpus) {
    for (let i = 0; i + 1 < sequence.length; i++) {
      const a = sequence[i] as number;
      const b = sequence[i + 1] as number;
      counts[a * V + b] = (counts[a * V + b] ?? 0) + 1;
      rows[a] = (rows[a] ?? 0) + 1;
    }
  }
  const logP0 = new Float64Array(V * V);
  for (let a = 0; a < V; a++) {
    const denominator = (rows[a] ?? 0) + alpha * V;
    for (let b = 0; b < V; b++) logP0[a * V + b] = Math.log(((counts[a * V + b] ?? 0) + alpha) / denominator);
  }
  const copyMask = new Uint8Array(V);
  for (const t of spec.copy?.tokens ?? []) copyMask[t] = 1;
  const featureMask = new Uint8Array(V).fill(spec.features ? 0 : 1);
  for (const t of spec.features ?? []) featureMask[t] = 1;
  return {
    V,
    eos: spec.eosTokenId,
    logP0,
    copyMask,
    copyWeight: spec.copy?.weight ?? 0,
    featureMask,
    maxContextLength: spec.maxContextLength ?? 4096,
  };
}

/**
 * The trainable part, a LoRA adapter: logit(next | context) = log p0(next | last token) + copy prior + b
 * + (Σ_{f ∈ distinct feature tokens of the context} A_W[f]) · B_W + A_P[last token] · B_P. A is drawn from the LoRA
 * seed, B starts at zero (so a new adapter is the base model), as LoRA initialises.
 */
export interface LoraLayout {
  V: number;
  r: number;
  bias: number;
  aw: number;
  bw: number;
  ap: number;
  bp: number;
  size: number;
}

export function loraLayout(V: number, rank: number): LoraLayout {
  const r = Math.max(1, Math.min(rank, V));
  const bias = 0;
  const aw = bias + V;
  const bw = aw + V * r;
  const ap = bw + r * V;
  const bp = ap + V * r;
  return { V, r, bias, aw, bw, ap, bp, size: bp + r * V };
}

export function initLora(layout: LoraLayout, rng: Rng): Float64Array {
  const params = new Float64Array(layout.size);
  const scale = 1 / Math.sqrt(layout.r);
  for (let i = 0; i < layout.V * layout.r; i++) {
    params[layout.aw + i] = rng.normal(0, scale);
    params[layout.ap + i] = rng.normal(0, scale);
  }
  return params;
}

/** Running context state: which tokens were seen, and the sum of their A_W rows. */
class Context {
  readonly seen: Uint8Array;
  readonly aS: Float64Array;
  constructor(
    private readonly layout: LoraLayout,
    private readonly params: Float64Array,
    private readonly features: Uint8Array,
  ) {
    this.seen = new Uint8Array(layout.V);
    this.aS = new Float64Array(layout.r);
  }
  /** Whether the token is new to the context and a feature (its A_W row joined the sum). */
  add(token: number): boolean {
    if (token < 0 || token >= this.layout.V || this.seen[token]) return false;
    this.seen[token] = 1;
    if (!this.features[token]) return false;
    const { r, aw } = this.layout;
    for (let k = 0; k < r; k++) this.aS[k] = (this.aS[k] ?? 0) + (this.params[aw + token * r + k] ?? 0);
    return true;
  }
}

function logits(
  base: BasePrior,
  layout: LoraLayout,
  params: Float64Array,
  ctx: Context,
  previous: number,
  out: Float64Array,
): void {
  const { V, r, bias, bw, ap, bp } = layout;
  const row = previous * V;
  for (let v = 0; v < V; v++) {
    let z = (base.logP0[row + v] ?? 0) + (params[bias + v] ?? 0);
    if (base.copyMask[v] && ctx.seen[v]) z += base.copyWeight;
    out[v] = z;
  }
  for (let k = 0; k < r; k++) {
    const c = ctx.aS[k] ?? 0;
    const w = params[ap + previous * r + k] ?? 0;
    if (c === 0 && w === 0) continue;
    const offW = bw + k * V;
    const offP = bp + k * V;
    for (let v = 0; v < V; v++)
      out[v] = (out[v] ?? 0) + c * (params[offW + v] ?? 0) + w * (params[offP + v] ?? 0);
  }
}

/** log-softmax in place; returns the log normaliser. */
function logSoftmax(z: Float64Array): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const x of z) if (x > max) max = x;
  let sum = 0;
  for (const x of z) sum += Math.exp(x - max);
  const logZ = max + Math.log(sum);
  for (let v = 0; v < z.length; v++) z[v] = (z[v] ?? 0) - logZ;
  return logZ;
}

function checkToken(token: number, V: number, what: string): void {
  if (!Number.isInteger(token) || token < 0 || token >= V) {
    throw new RangeError(`${what} ${token} is outside the vocabulary (0..${V - 1})`);
  }
}

/**
 * log π(targets[i] | inputs[0..i]) for every position, Tinker's next-token alignment (position i of
 * `model_input` predicts `target_tokens[i]`).
 */
export function sequenceLogProbs(
  base: BasePrior,
  layout: LoraLayout,
  params: Float64Array,
  inputs: readonly number[],
  targets: readonly number[],
): Float64Array {
  const out = new Float64Array(inputs.length);
  const ctx = new Context(layout, params, base.featureMask);
  const z = new Float64Array(layout.V);
  for (let i = 0; i < inputs.length; i++) {
    const x = inputs[i] as number;
    const y = targets[i] as number;
    checkToken(x, layout.V, 'model_input token');
    checkToken(y, layout.V, 'target token');
    ctx.add(x);
    logits(base, layout, params, ctx, x, z);
    logSoftmax(z);
    out[i] = z[y] as number;
  }
  return out;
}

/** Adds ∂loss/∂params to `grad`, given ∂loss/∂logProb per position (zeros are skipped). */
export function accumulateGradient(
  base: BasePrior,
  layout: LoraLayout,
  params: Float64Array,
  inputs: readonly number[],
  targets: readonly number[],
  dLogProbs: ArrayLike<number>,
  grad: Float64Array,
): void {
  const { V, r, bias, aw, bw, ap, bp } = layout;
  const ctx = new Context(layout, params, base.featureMask);
  const z = new Float64Array(V);
  const order: number[] = [];
  const dA = new Float64Array(r);
  for (let i = 0; i < inputs.length; i++) {
    const x = inputs[i] as number;
    if (ctx.add(x)) order.push(x);
    const g = dLogProbs[i] ?? 0;
    if (g === 0) continue;
    const y = targets[i] as number;
    logits(base, layout, params, ctx, x, z);
    logSoftmax(z);
    // ∂logp_y/∂z_v = 1[v = y] − softmax_v, so ∂loss/∂z_v = g · (1[v = y] − p_v).
    for (let v = 0; v < V; v++) z[v] = -g * Math.exp(z[v] ?? 0);
    z[y] = (z[y] ?? 0) + g;
    dA.fill(0);
    for (let v = 0; v < V; v++) grad[bias + v] = (grad[bias + v] ?? 0) + (z[v] ?? 0);
    for (let k = 0; k < r; k++) {
      const a = ctx.aS[k] ?? 0;
      const p = params[ap + x * r + k] ?? 0;
      const offW = bw + k * V;
      const offP = bp + k * V;
      let sW = 0;
      let sP = 0;
      for (let v = 0; v < V; v++) {
        const dz = z[v] ?? 0;
        if (dz === 0) continue;
        grad[offW + v] = (grad[offW + v] ?? 0) + a * dz;
        grad[offP + v] = (grad[offP + v] ?? 0) + p * dz;
        sW += (params[offW + v] ?? 0) * dz;
        sP += (params[offP + v] ?? 0) * dz;
      }
      dA[k] = sW;
      grad[ap + x * r + k] = (grad[ap + x * r + k] ?? 0) + sP;
    }
    // a_S is the sum of the A_W rows of every distinct token so far: each gets the same gradient.
    for (const f of order) {
      for (let k = 0; k < r; k++) grad[aw + f * r + k] = (grad[aw + f * r + k] ?? 0) + (dA[k] ?? 0);
    }
  }
}

export interface FakeSamplingParams {
  max_tokens?: number | null;
  temperature?: number;
  top_k?: number;
  top_p?: number;
  stop?: number[];
}

/**
 * One sampled continuation: tokens until a stop token (kept, stop reason `stop`) or `max_tokens` (`length`).
 * The log-probs are the model's own (temperature 1), which is what `forward_backward` computes for the same
 * tokens, so an on-policy ratio is exactly 1.
 */
export function sampleSequence(
  base: BasePrior,
  layout: LoraLayout,
  params: Float64Array,
  prompt: readonly number[],
  sampling: FakeSamplingParams,
  rng: Rng,
): { tokens: number[]; logprobs: number[]; stop_reason: 'stop' | 'length' } {
  const V = layout.V;
  if (prompt.length === 0) throw new RangeError('the prompt is empty');
  for (const t of prompt) checkToken(t, V, 'prompt token');
  const ctx = new Context(layout, params, base.featureMask);
  for (const t of prompt) ctx.add(t);
  const stops = new Set(sampling.stop && sampling.stop.length > 0 ? sampling.stop : [base.eos]);
  const maxTokens = sampling.max_tokens ?? 64;
  const temperature = sampling.temperature ?? 1;
  const topK = sampling.top_k ?? -1;
  const topP = sampling.top_p ?? 1;
  const z = new Float64Array(V);
  const tokens: number[] = [];
  const logprobs: number[] = [];
  let previous = prompt[prompt.length - 1] as number;
  while (tokens.length < maxTokens) {
    logits(base, layout, params, ctx, previous, z);
    logSoftmax(z);
    const token = temperature === 0 ? argmax(z) : draw(z, temperature, topK, topP, rng);
    tokens.push(token);
    logprobs.push(z[token] as number);
    ctx.add(token);
    previous = token;
    if (stops.has(token)) return { tokens, logprobs, stop_reason: 'stop' };
  }
  return { tokens, logprobs, stop_reason: 'length' };
}

function argmax(z: Float64Array): number {
  let best = 0;
  for (let v = 1; v < z.length; v++) if ((z[v] as number) > (z[best] as number)) best = v;
  return best;
}

function draw(logp: Float64Array, temperature: number, topK: number, topP: number, rng: Rng): number {
  const V = logp.length;
  const weights = new Float64Array(V);
  let max = Number.NEGATIVE_INFINITY;
  for (let v = 0; v < V; v++) max = Math.max(max, (logp[v] as number) / temperature);
  for (let v = 0; v < V; v++) weights[v] = Math.exp((logp[v] as number) / temperature - max);
  if (topK > 0 || topP < 1) {
    const order = Array.from({ length: V }, (_, v) => v).sort(
      (a, b) => (weights[b] as number) - (weights[a] as number),
    );
    const total = weights.reduce((s, w) => s + w, 0);
    let kept = 0;
    let mass = 0;
    const keep = new Uint8Array(V);
    for (const v of order) {
      if (topK > 0 && kept >= topK) break;
      if (topP < 1 && mass >= topP * total) break;
      keep[v] = 1;
      kept++;
      mass += weights[v] as number;
    }
    for (let v = 0; v < V; v++) if (!keep[v]) weights[v] = 0;
  }
  const total = weights.reduce((s, w) => s + w, 0);
  let u = rng.float() * total;
  for (let v = 0; v < V; v++) {
    u -= weights[v] as number;
    if (u < 0) return v;
  }
  return argmax(logp);
}

/** Tinker's `AdamParams` (src/tinker/types/optim_step_request.py), defaults included. */
export interface FakeAdamParams {
  learning_rate?: number;
  beta1?: number;
  beta2?: number;
  eps?: number;
  weight_decay?: number;
  grad_clip_norm?: number;
}

export interface AdamState {
  m: Float64Array;
  v: Float64Array;
  t: number;
}

export function newAdamState(size: number): AdamState {
  return { m: new Float64Array(size), v: new Float64Array(size), t: 0 };
}

/** One AdamW step (decoupled weight decay, as torch.optim.AdamW), clipping the global norm first when asked. */
export function adamStep(
  params: Float64Array,
  grad: Float64Array,
  state: AdamState,
  options: FakeAdamParams,
): { grad_norm: number; learning_rate: number } {
  const lr = options.learning_rate ?? 1e-4;
  const b1 = options.beta1 ?? 0.9;
  const b2 = options.beta2 ?? 0.95;
  const eps = options.eps ?? 1e-12;
  const wd = options.weight_decay ?? 0;
  const clip = options.grad_clip_norm ?? 0;
  let norm = 0;
  for (const g of grad) norm += g * g;
  norm = Math.sqrt(norm);
  const scale = clip > 0 && norm > clip ? clip / norm : 1;
  state.t += 1;
  const c1 = 1 - b1 ** state.t;
  const c2 = 1 - b2 ** state.t;
  for (let i = 0; i < params.length; i++) {
    const g = (grad[i] ?? 0) * scale;
    const m = b1 * (state.m[i] ?? 0) + (1 - b1) * g;
    const v = b2 * (state.v[i] ?? 0) + (1 - b2) * g * g;
    state.m[i] = m;
    state.v[i] = v;
    let p = params[i] ?? 0;
    if (wd > 0) p -= lr * wd * p;
    p -= (lr * (m / c1)) / (Math.sqrt(v / c2) + eps);
    params[i] = p;
  }
  return { grad_norm: norm, learning_rate: lr };
}
