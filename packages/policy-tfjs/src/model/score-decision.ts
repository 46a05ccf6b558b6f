import { CONTEXT_BLOCKS, hiddenScales } from './agent-config.js';
import { clauseRead } from './clause-read.js';
import type { DecisionRecord } from './decision-record.js';
import type { AgentParameters } from './parameters.js';

function meanEmbedding(
  out: Float64Array,
  embedding: Float32Array,
  ids: readonly number[],
  d: number,
  at = 0,
) {
  for (let j = 0; j < d; j++) out[at + j] = 0;
  if (ids.length === 0) return;
  for (const id of ids) {
    const row = id * d;
    for (let j = 0; j < d; j++) out[at + j] = (out[at + j] as number) + (embedding[row + j] as number);
  }
  const inv = 1 / ids.length;
  for (let j = 0; j < d; j++) out[at + j] = (out[at + j] as number) * inv;
}

/**
 * The candidates' log-probabilities for one decision, on plain typed arrays: the same function the tfjs
 * model computes for training (`createTfPolicy`), so acting needs no tensors. Returns log-softmax of
 *   (a·q + u·a + (θ + G·h)·x + z·β·Σ_s softmax_s(τ·sim − κ·done − μ·rank)·sign·sim) / temperature
 * with a the candidate's mean word embedding, h = tanh([goal; observation; recent; memory]·W_h + b_h) the
 * hidden state, q = u + h·W_q/√H and G·h = h·W_g/H (`hiddenScales`), x the candidate's features.
 */
export function scoreDecision(
  params: AgentParameters,
  record: DecisionRecord,
  d: number,
  /** Word ids of the earlier actions the memory reads (`encoder.memory`, `agent.memoryIds`). */
  memory: readonly number[] = [],
): Float64Array {
  const C = record.candidates.length;
  const { embedding, hiddenWeights, hiddenBias, query, actionBias, featureWeights, featureGate, prior } =
    params;
  const H = hiddenBias.length;
  const F = featureWeights.length;
  const width = CONTEXT_BLOCKS * d;
  const ctx = new Float64Array(width);
  meanEmbedding(ctx, embedding, record.goal, d, 0);
  meanEmbedding(ctx, embedding, record.obs, d, d);
  meanEmbedding(ctx, embedding, record.hist, d, 2 * d);
  meanEmbedding(ctx, embedding, memory, d, 3 * d);
  const h = new Float64Array(H);
  for (let k = 0; k < H; k++) h[k] = hiddenBias[k] as number;
  for (let i = 0; i < width; i++) {
    const ci = ctx[i] as number;
    if (ci === 0) continue;
    for (let k = 0; k < H; k++) h[k] = (h[k] as number) + ci * (hiddenWeights[i * H + k] as number);
  }
  for (let k = 0; k < H; k++) h[k] = Math.tanh(h[k] as number);
  const q = new Float64Array(d);
  for (let j = 0; j < d; j++) q[j] = actionBias[j] as number;
  const theta = new Float64Array(F);
  for (let f = 0; f < F; f++) theta[f] = featureWeights[f] as number;
  const { query: queryScale, gate: gateScale } = hiddenScales(H);
  for (let k = 0; k < H; k++) {
    const hq = (h[k] as number) * queryScale;
    const hg = (h[k] as number) * gateScale;
    for (let j = 0; j < d; j++) q[j] = (q[j] as number) + hq * (query[k * d + j] as number);
    for (let f = 0; f < F; f++) theta[f] = (theta[f] as number) + hg * (featureGate[k * F + f] as number);
  }
  const logits = new Float64Array(C);
  const a = new Float64Array(d);
  for (let c = 0; c < C; c++) {
    meanEmbedding(a, embedding, record.cand[c] ?? [], d);
    let s = 0;
    for (let j = 0; j < d; j++) s += (a[j] as number) * (q[j] as number);
    const x = record.feats[c] ?? [];
    for (let f = 0; f < F; f++) s += (x[f] ?? 0) * (theta[f] as number);
    logits[c] = s;
  }
  const S = record.done.length;
  if (record.condition === 1 && S > 0) {
    const [beta, tau, kappa, mu] = prior as unknown as [number, number, number, number];
    const base = new Float64Array(S);
    for (let s = 0; s < S; s++)
      base[s] = -kappa * (record.done[s] as number) - mu * (record.rank[s] as number);
    const sims = new Float64Array(C * S);
    for (const [c, s, v] of record.sims) sims[c * S + s] = v;
    const att = new Float64Array(S);
    for (let c = 0; c < C; c++) {
      logits[c] = (logits[c] as number) + clauseRead(beta, tau, base, sims, c * S, record.sign, 0, S, att);
    }
  }
  const inv = 1 / record.temperature;
  let max = -Infinity;
  for (let c = 0; c < C; c++) {
    logits[c] = (logits[c] as number) * inv;
    if ((logits[c] as number) > max) max = logits[c] as number;
  }
  let z = 0;
  for (let c = 0; c < C; c++) z += Math.exp((logits[c] as number) - max);
  const logZ = max + Math.log(z);
  for (let c = 0; c < C; c++) logits[c] = (logits[c] as number) - logZ;
  return logits;
}
