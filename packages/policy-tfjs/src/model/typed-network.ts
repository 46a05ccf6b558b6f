import { CONTEXT_BLOCKS, FEATURE_COUNT, hiddenScales } from './agent-config.js';
import type { DecisionBatch } from './decision-batch.js';
import type { AgentParameters } from './parameters.js';

// The network of `scoreDecision` (its spec) on a whole `DecisionBatch`, in float64 on typed arrays, and its
// gradient by hand. With the skill reader's strengths frozen (the trainer's default), the reader adds a
// constant to each candidate's logit (`skillReads`), so what is trained is embedding → bag means → tanh
// hidden layer → query and feature gate → logits: a few loops, no tensors, no autodiff tape.

/** What the backward pass needs from the forward one, and its outputs. */
export interface NetworkPass {
  /** log π of each decision's chosen candidate and the entropy of its distribution, `[B, T]` (0 elsewhere). */
  logProbs: Float64Array;
  entropy: Float64Array;
  /** Mean embedding of every distinct list [U, d]. */
  vecs: Float64Array;
  /** Per decision: hidden state [N, H] and query [N, d]. */
  hidden: Float64Array;
  query: Float64Array;
  /** Per candidate: log π [K]. */
  candLogProbs: Float64Array;
}

/** The trained parameters' gradients (the prior's is absent: it is frozen here). */
export type NetworkGradients = Record<Exclude<keyof AgentParameters, 'prior'>, Float64Array>;

/**
 * The skill reader's term of every candidate's logit (before the temperature), for the prior β, τ, κ, μ:
 * β·Σ_s softmax_s(τ·sim − κ·done − μ·rank; null clause 0)·sign·sim, and 0 for candidates without any
 * similarity or decisions without a skill.
 */
export function skillReads(prior: ArrayLike<number>, batch: DecisionBatch): Float64Array {
  const [beta, tau, kappa, mu] = [prior[0], prior[1], prior[2], prior[3]] as [number, number, number, number];
  const out = new Float64Array(batch.K);
  const { candStart, clauseStart, simStart, simClause, simValue, done, rank, sign } = batch;
  let att = new Float64Array(64);
  let sims = new Float64Array(64);
  let base = new Float64Array(64);
  for (let n = 0; n < batch.N; n++) {
    const c0 = clauseStart[n] as number;
    const S = (clauseStart[n + 1] as number) - c0;
    if (S === 0) continue;
    if (S > att.length) {
      att = new Float64Array(S);
      sims = new Float64Array(S);
      base = new Float64Array(S);
    }
    for (let s = 0; s < S; s++) base[s] = -kappa * (done[c0 + s] as number) - mu * (rank[c0 + s] as number);
    for (let k = candStart[n] as number; k < (candStart[n + 1] as number); k++) {
      const e0 = simStart[k] as number;
      const e1 = simStart[k + 1] as number;
      if (e0 === e1) continue;
      sims.fill(0, 0, S);
      for (let e = e0; e < e1; e++) sims[simClause[e] as number] = simValue[e] as number;
      // The null clause (logit 0, value 0) lets an action attend to nothing when no pending clause fits.
      let max = 0;
      for (let s = 0; s < S; s++) {
        const v = tau * (sims[s] as number) + (base[s] as number);
        att[s] = v;
        if (v > max) max = v;
      }
      let z = Math.exp(-max);
      let num = 0;
      for (let s = 0; s < S; s++) {
        const e = Math.exp((att[s] as number) - max);
        z += e;
        num += e * (sign[c0 + s] as number) * (sims[s] as number);
      }
      out[k] = (beta * num) / z;
    }
  }
  return out;
}

/** Mean embedding of every distinct list: Σ w·E[id] over its entries. */
function listVectors(embedding: Float32Array, batch: DecisionBatch, d: number): Float64Array {
  const vecs = new Float64Array(batch.U * d);
  const { listStart, listIds, listWeights } = batch;
  for (let u = 0; u < batch.U; u++) {
    const at = u * d;
    for (let e = listStart[u] as number; e < (listStart[u + 1] as number); e++) {
      const w = listWeights[e] as number;
      const row = (listIds[e] as number) * d;
      for (let j = 0; j < d; j++)
        vecs[at + j] = (vecs[at + j] as number) + w * (embedding[row + j] as number);
    }
  }
  return vecs;
}

/**
 * Log-probs of the chosen candidates and entropies for every decision of the batch, with `reads` the
 * skill reader's term per candidate (`skillReads`; omit it for a batch without skills).
 */
export function forwardDecisions(
  params: AgentParameters,
  batch: DecisionBatch,
  d: number,
  reads?: Float64Array,
): NetworkPass {
  const { N, K } = batch;
  const H = params.hiddenBias.length;
  const F = FEATURE_COUNT;
  const W = CONTEXT_BLOCKS * d;
  const { hiddenBias: bh, actionBias: u, featureWeights: th0 } = params;
  const { query: sq, gate: sg } = hiddenScales(H);
  // Transposed copies, so every inner loop below runs over contiguous memory into a local sum.
  const WhT = transpose(params.hiddenWeights, W, H);
  const WqT = transpose(params.query, H, d);
  const GT = transpose(params.featureGate, H, F);
  const vecs = listVectors(params.embedding, batch, d);
  const hidden = new Float64Array(N * H);
  const query = new Float64Array(N * d);
  const theta = new Float64Array(F);
  const ctx = new Float64Array(W);
  const candLogProbs = new Float64Array(K);
  const logProbs = new Float64Array(batch.B * batch.T);
  const entropy = new Float64Array(batch.B * batch.T);
  const { context, candStart, candList, feats, invTemp } = batch;
  for (let n = 0; n < N; n++) {
    gatherContext(ctx, vecs, d, context, n);
    const h0 = n * H;
    for (let k = 0; k < H; k++) {
      let acc = bh[k] as number;
      const w0 = k * W;
      for (let i = 0; i < W; i++) acc += (ctx[i] as number) * (WhT[w0 + i] as number);
      hidden[h0 + k] = Math.tanh(acc);
    }
    const q0 = n * d;
    for (let j = 0; j < d; j++) {
      let acc = 0;
      const w0 = j * H;
      for (let k = 0; k < H; k++) acc += (hidden[h0 + k] as number) * (WqT[w0 + k] as number);
      query[q0 + j] = (u[j] as number) + sq * acc;
    }
    for (let f = 0; f < F; f++) {
      let acc = 0;
      const w0 = f * H;
      for (let k = 0; k < H; k++) acc += (hidden[h0 + k] as number) * (GT[w0 + k] as number);
      theta[f] = (th0[f] as number) + sg * acc;
    }
    const k0 = candStart[n] as number;
    const k1 = candStart[n + 1] as number;
    const inv = invTemp[n] as number;
    let max = -Infinity;
    for (let c = k0; c < k1; c++) {
      const a0 = (candList[c] as number) * d;
      let s = reads ? (reads[c] as number) : 0;
      for (let j = 0; j < d; j++) s += (vecs[a0 + j] as number) * (query[q0 + j] as number);
      const x0 = c * F;
      for (let f = 0; f < F; f++) s += (feats[x0 + f] as number) * (theta[f] as number);
      const z = s * inv;
      candLogProbs[c] = z;
      if (z > max) max = z;
    }
    let sum = 0;
    for (let c = k0; c < k1; c++) sum += Math.exp((candLogProbs[c] as number) - max);
    const logZ = max + Math.log(sum);
    let ent = 0;
    for (let c = k0; c < k1; c++) {
      const lp = (candLogProbs[c] as number) - logZ;
      candLogProbs[c] = lp;
      ent -= Math.exp(lp) * lp;
    }
    const at = batch.position[n] as number;
    const chosen = batch.chosen[n] as number;
    logProbs[at] = chosen >= 0 ? (candLogProbs[k0 + chosen] as number) : 0;
    entropy[at] = ent;
  }
  return { logProbs, entropy, vecs, hidden, query, candLogProbs };
}

function transpose(m: Float32Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = m[r * cols + c] as number;
  return out;
}

/** The mean embeddings of decision n's context blocks, end to end, into `ctx` [CONTEXT_BLOCKS·d]. */
function gatherContext(
  ctx: Float64Array,
  vecs: Float64Array,
  d: number,
  context: Int32Array,
  n: number,
): void {
  for (let blk = 0; blk < CONTEXT_BLOCKS; blk++) {
    const v0 = (context[n * CONTEXT_BLOCKS + blk] as number) * d;
    const c0 = blk * d;
    for (let j = 0; j < d; j++) ctx[c0 + j] = vecs[v0 + j] as number;
  }
}

/**
 * The gradients of Σ dLogProbs·log π + Σ dEntropy·entropy (each `[B, T]`) with respect to the network's
 * trained parameters, from a forward pass on the same parameters and batch.
 */
export function backwardDecisions(
  params: AgentParameters,
  batch: DecisionBatch,
  d: number,
  pass: NetworkPass,
  dLogProbs: ArrayLike<number>,
  dEntropy?: ArrayLike<number>,
): NetworkGradients {
  const { N } = batch;
  const H = params.hiddenBias.length;
  const F = FEATURE_COUNT;
  const W = CONTEXT_BLOCKS * d;
  const Wh = Float64Array.from(params.hiddenWeights);
  const Wq = Float64Array.from(params.query);
  const G = Float64Array.from(params.featureGate);
  const { query: sq, gate: sg } = hiddenScales(H);
  const gE = new Float64Array(params.embedding.length);
  const gWh = new Float64Array(Wh.length);
  const gbh = new Float64Array(H);
  const gWq = new Float64Array(Wq.length);
  const gu = new Float64Array(d);
  const gth = new Float64Array(F);
  const gG = new Float64Array(G.length);
  const dVecs = new Float64Array(batch.U * d);
  const { vecs, hidden, query, candLogProbs, entropy } = pass;
  const { context, candStart, candList, feats, invTemp, position } = batch;
  const dq = new Float64Array(d);
  const dTheta = new Float64Array(F);
  const dPre = new Float64Array(H);
  const ctx = new Float64Array(W);
  for (let n = 0; n < N; n++) {
    const at = position[n] as number;
    const gl = (batch.chosen[n] as number) >= 0 ? (dLogProbs[at] as number) : 0;
    const ge = dEntropy ? (dEntropy[at] as number) : 0;
    if (gl === 0 && ge === 0) continue;
    const k0 = candStart[n] as number;
    const k1 = candStart[n + 1] as number;
    const chosen = k0 + (batch.chosen[n] as number);
    const inv = invTemp[n] as number;
    const ent = entropy[at] as number;
    dq.fill(0);
    dTheta.fill(0);
    const q0 = n * d;
    for (let c = k0; c < k1; c++) {
      const lp = candLogProbs[c] as number;
      const p = Math.exp(lp);
      // d log π_chosen / d z_c = 1[c = chosen] − p_c;  d entropy / d z_c = −p_c·(log p_c + entropy).
      let dz = gl * ((c === chosen ? 1 : 0) - p);
      if (ge !== 0) dz -= ge * p * (lp + ent);
      const ds = dz * inv;
      if (ds === 0) continue;
      const a0 = (candList[c] as number) * d;
      for (let j = 0; j < d; j++) {
        dq[j] = (dq[j] as number) + ds * (vecs[a0 + j] as number);
        dVecs[a0 + j] = (dVecs[a0 + j] as number) + ds * (query[q0 + j] as number);
      }
      const x0 = c * F;
      for (let f = 0; f < F; f++) dTheta[f] = (dTheta[f] as number) + ds * (feats[x0 + f] as number);
    }
    for (let j = 0; j < d; j++) gu[j] = (gu[j] as number) + (dq[j] as number);
    for (let f = 0; f < F; f++) gth[f] = (gth[f] as number) + (dTheta[f] as number);
    const h0 = n * H;
    for (let k = 0; k < H; k++) {
      const h = hidden[h0 + k] as number;
      const hq = h * sq;
      const hg = h * sg;
      const r = k * d;
      let dh = 0;
      for (let j = 0; j < d; j++) {
        const g = dq[j] as number;
        gWq[r + j] = (gWq[r + j] as number) + hq * g;
        dh += (Wq[r + j] as number) * g;
      }
      const rf = k * F;
      let dg = 0;
      for (let f = 0; f < F; f++) {
        const g = dTheta[f] as number;
        gG[rf + f] = (gG[rf + f] as number) + hg * g;
        dg += (G[rf + f] as number) * g;
      }
      const dp = (dh * sq + dg * sg) * (1 - h * h);
      dPre[k] = dp;
      gbh[k] = (gbh[k] as number) + dp;
    }
    gatherContext(ctx, vecs, d, context, n);
    for (let blk = 0; blk < CONTEXT_BLOCKS; blk++) {
      const list = context[n * CONTEXT_BLOCKS + blk] as number;
      if (list === 0) continue;
      const v0 = list * d;
      for (let j = 0; j < d; j++) {
        const i = blk * d + j;
        const c = ctx[i] as number;
        const w0 = i * H;
        let dc = 0;
        for (let k = 0; k < H; k++) {
          const g = dPre[k] as number;
          gWh[w0 + k] = (gWh[w0 + k] as number) + c * g;
          dc += (Wh[w0 + k] as number) * g;
        }
        dVecs[v0 + j] = (dVecs[v0 + j] as number) + dc;
      }
    }
  }
  const grads: NetworkGradients = {
    embedding: gE,
    hiddenWeights: gWh,
    hiddenBias: gbh,
    query: gWq,
    actionBias: gu,
    featureWeights: gth,
    featureGate: gG,
  };
  // Each list's mean embedding spreads its gradient back over its words by their weights.
  const { listStart, listIds, listWeights } = batch;
  const dE = gE;
  for (let u = 1; u < batch.U; u++) {
    const at = u * d;
    for (let e = listStart[u] as number; e < (listStart[u + 1] as number); e++) {
      const w = listWeights[e] as number;
      const row = (listIds[e] as number) * d;
      for (let j = 0; j < d; j++) dE[row + j] = (dE[row + j] as number) + w * (dVecs[at + j] as number);
    }
  }
  return grads;
}
