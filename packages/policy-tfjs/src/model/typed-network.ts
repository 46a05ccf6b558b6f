import { CONTEXT_BLOCKS, FEATURE_COUNT, hiddenScales } from './agent-config.js';
import { clauseRead } from './clause-read.js';
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
  /** Per candidate: log π and π [K]. */
  candLogProbs: Float64Array;
  candProbs: Float64Array;
  /** How the context blocks reached the hidden layer (the backward pass goes back the same way). */
  plan: ContextPlan;
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
  let base = new Float64Array(64);
  let att = new Float64Array(64);
  let last = new Int32Array(64).fill(-1);
  for (let n = 0; n < batch.N; n++) {
    const c0 = clauseStart[n] as number;
    const S = (clauseStart[n + 1] as number) - c0;
    if (S === 0) continue;
    if (S > base.length) {
      base = new Float64Array(S);
      att = new Float64Array(S);
      last = new Int32Array(S).fill(-1);
    }
    // A candidate's attention logits are the decision's base ones except where it matches a clause, so
    // the base part of the softmax's denominator is summed once per decision (shifted by m0 ≥ every base
    // logit and the null clause's 0), and each candidate swaps in only its few matching clauses.
    let m0 = 0;
    for (let s = 0; s < S; s++) {
      const b = -kappa * (done[c0 + s] as number) - mu * (rank[c0 + s] as number);
      base[s] = b;
      if (b > m0) m0 = b;
    }
    let e0 = 0;
    for (let s = 0; s < S; s++) e0 += Math.exp((base[s] as number) - m0);
    for (let k = candStart[n] as number; k < (candStart[n + 1] as number); k++) {
      const first = simStart[k] as number;
      const end = simStart[k + 1] as number;
      if (first === end) continue;
      // A clause listed twice counts with its last similarity, as in `scoreDecision`.
      for (let e = first; e < end; e++) last[simClause[e] as number] = e;
      let m = m0;
      let dense = !(tau >= 0);
      for (let e = first; e < end; e++) {
        const s = simClause[e] as number;
        if (last[s] !== e) continue;
        const v = simValue[e] as number;
        if (!(v >= 0) || s >= S) dense = true;
        const a = tau * v + (base[s] as number);
        if (a > m) m = a;
      }
      if (dense) {
        out[k] = denseRead(beta, tau, base, att, S, sign, c0, simClause, simValue, first, end);
      } else {
        // With τ·sim ≥ 0 every swapped-in term is at least the one it replaces, so the denominator is at
        // least the base sum: the subtraction below loses nothing beyond rounding.
        let z = Math.exp(-m) + e0 * Math.exp(m0 - m);
        let num = 0;
        for (let e = first; e < end; e++) {
          const s = simClause[e] as number;
          if (last[s] !== e) continue;
          const v = simValue[e] as number;
          const b = base[s] as number;
          const x = Math.exp(tau * v + b - m);
          z += x - Math.exp(b - m);
          num += x * (sign[c0 + s] as number) * v;
        }
        out[k] = (beta * num) / z;
      }
      for (let e = first; e < end; e++) last[simClause[e] as number] = -1;
    }
  }
  return out;
}

/** The reader's term for one candidate over all S clauses, as `scoreDecision` computes it. */
function denseRead(
  beta: number,
  tau: number,
  base: Float64Array,
  att: Float64Array,
  S: number,
  sign: Float64Array,
  c0: number,
  simClause: Int32Array,
  simValue: Float64Array,
  first: number,
  end: number,
): number {
  const sims = new Float64Array(S);
  for (let e = first; e < end; e++) {
    const s = simClause[e] as number;
    if (s < S) sims[s] = simValue[e] as number;
  }
  return clauseRead(beta, tau, base, sims, 0, sign, c0, S, att);
}

/** Mean embedding of every distinct list the pass reads: Σ w·E[id] over its entries. */
function listVectors(
  embedding: Float32Array,
  batch: DecisionBatch,
  d: number,
  needed: Uint8Array,
): Float64Array {
  const vecs = new Float64Array(batch.U * d);
  const { listStart, listIds, listWeights } = batch;
  for (let u = 0; u < batch.U; u++) {
    if (needed[u] === 0) continue;
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
 * How each context block's slots reach the hidden layer. Directly: the list's mean embedding, then its
 * product with the block's rows of W_h (d·H per slot). Or through its words: vec(list)·W_h = Σ w·(E[id]·W_h),
 * so with E·W_h formed once for the block's distinct words, a slot costs H per distinct word — cheaper for
 * blocks of many short, distinct lists (recent actions, the memory). Chosen per batch by operation count.
 */
export interface ContextPlan {
  /** Per block: 1 when its slots go through their words. */
  viaWords: Uint8Array;
  /** Per block: its distinct words, and each word's row among them (−1 for none), for via-words blocks. */
  words: Int32Array[];
  wordRow: Int32Array[];
  /**
   * Per via-words block, its slots by word (the transpose of the slots' word lists): word r's occurrences
   * at `occurrenceStart[r] .. occurrenceStart[r + 1]`, each a slot and the word's weight in it.
   */
  occurrenceStart: (Int32Array | undefined)[];
  occurrenceSlot: (Int32Array | undefined)[];
  occurrenceWeight: (Float64Array | undefined)[];
  /** Lists whose mean embedding a pass needs: candidates' and direct blocks' slots. */
  needsVector: Uint8Array;
}

const plans = new WeakMap<DecisionBatch, Map<string, ContextPlan>>();

/** `auto` by operation count; `direct` / `words` force one route for every block (tests). */
export type ContextRoute = 'auto' | 'direct' | 'words';

function contextPlan(batch: DecisionBatch, d: number, H: number, route: ContextRoute): ContextPlan {
  const key = `${d}x${H}x${route}`;
  let byShape = plans.get(batch);
  const known = byShape?.get(key);
  if (known) return known;
  const V = batch.vocabularySize;
  const { slotList, slotBlock, listStart, listIds } = batch;
  const entries = (u: number) => (listStart[u + 1] as number) - (listStart[u] as number);
  const viaWords = new Uint8Array(CONTEXT_BLOCKS);
  const words: Int32Array[] = [];
  const wordRow: Int32Array[] = [];
  for (let b = 0; b < CONTEXT_BLOCKS; b++) {
    const row = new Int32Array(V).fill(-1);
    const list: number[] = [];
    let direct = 0;
    let perWord = 0;
    for (let s = 0; s < slotList.length; s++) {
      if (slotBlock[s] !== b || slotList[s] === 0) continue;
      const u = slotList[s] as number;
      // Forward and backward: the mean embedding and its spread back (2·entries·d), the product and its
      // two gradients (3·d·H); against the words' rows and their gradients (2·entries·H).
      direct += 2 * entries(u) * d + 3 * d * H;
      perWord += 2 * entries(u) * H;
      for (let e = listStart[u] as number; e < (listStart[u + 1] as number); e++) {
        const id = listIds[e] as number;
        if (row[id] === -1) {
          row[id] = list.length;
          list.push(id);
        }
      }
    }
    // E·W_h for the block's words, and its two gradients.
    perWord += 3 * list.length * d * H;
    viaWords[b] = route === 'words' || (route === 'auto' && perWord < direct) ? 1 : 0;
    words.push(Int32Array.from(list));
    wordRow.push(row);
  }
  const needsVector = new Uint8Array(batch.U);
  for (let k = 0; k < batch.K; k++) needsVector[batch.candList[k] as number] = 1;
  for (let s = 0; s < slotList.length; s++) {
    if (viaWords[slotBlock[s] as number] === 0) needsVector[slotList[s] as number] = 1;
  }
  const occurrenceStart: (Int32Array | undefined)[] = [];
  const occurrenceSlot: (Int32Array | undefined)[] = [];
  const occurrenceWeight: (Float64Array | undefined)[] = [];
  for (let b = 0; b < CONTEXT_BLOCKS; b++) {
    if (!viaWords[b]) {
      occurrenceStart.push(undefined);
      occurrenceSlot.push(undefined);
      occurrenceWeight.push(undefined);
      continue;
    }
    const row = wordRow[b] as Int32Array;
    const start = new Int32Array((words[b] as Int32Array).length + 1);
    const inBlock = (slot: number) => slotBlock[slot] === b && slotList[slot] !== 0;
    for (let slot = 0; slot < slotList.length; slot++) {
      if (!inBlock(slot)) continue;
      const u = slotList[slot] as number;
      for (let e = listStart[u] as number; e < (listStart[u + 1] as number); e++) {
        const r = row[listIds[e] as number] as number;
        start[r + 1] = (start[r + 1] as number) + 1;
      }
    }
    for (let r = 0; r + 1 < start.length; r++) start[r + 1] = (start[r + 1] as number) + (start[r] as number);
    const fill = start.slice(0, -1);
    const total = start[start.length - 1] as number;
    const slots = new Int32Array(total);
    const weights = new Float64Array(total);
    for (let slot = 0; slot < slotList.length; slot++) {
      if (!inBlock(slot)) continue;
      const u = slotList[slot] as number;
      for (let e = listStart[u] as number; e < (listStart[u + 1] as number); e++) {
        const r = row[listIds[e] as number] as number;
        const at = fill[r] as number;
        fill[r] = at + 1;
        slots[at] = slot;
        weights[at] = batch.listWeights[e] as number;
      }
    }
    occurrenceStart.push(start);
    occurrenceSlot.push(slots);
    occurrenceWeight.push(weights);
  }
  const plan = {
    viaWords,
    words,
    wordRow,
    occurrenceStart,
    occurrenceSlot,
    occurrenceWeight,
    needsVector,
  };
  if (!byShape) {
    byShape = new Map();
    plans.set(batch, byShape);
  }
  byShape.set(key, plan);
  return plan;
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
  route: ContextRoute = 'auto',
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
  const plan = contextPlan(batch, d, H, route);
  const vecs = listVectors(params.embedding, batch, d, plan.needsVector);
  const hidden = new Float64Array(N * H);
  const query = new Float64Array(N * d);
  const theta = new Float64Array(F);
  const candLogProbs = new Float64Array(K);
  const candProbs = new Float64Array(K);
  const logProbs = new Float64Array(batch.B * batch.T);
  const entropy = new Float64Array(batch.B * batch.T);
  const { contextSlot, candStart, candList, feats, invTemp } = batch;
  const slotPre = slotProducts(params, vecs, WhT, batch, d, H, plan);
  const slotRows = new Int32Array(CONTEXT_BLOCKS);
  for (let n = 0; n < N; n++) {
    const h0 = n * H;
    for (let blk = 0; blk < CONTEXT_BLOCKS; blk++) {
      slotRows[blk] = (contextSlot[n * CONTEXT_BLOCKS + blk] as number) * H;
    }
    for (let k = 0; k < H; k++) {
      let pre = bh[k] as number;
      for (let blk = 0; blk < CONTEXT_BLOCKS; blk++) pre += slotPre[(slotRows[blk] as number) + k] as number;
      hidden[h0 + k] = Math.tanh(pre);
    }
    const q0 = n * d;
    for (let j = 0; j < d; j++) {
      query[q0 + j] = (u[j] as number) + sq * dot(hidden, h0, WqT, j * H, H);
    }
    for (let f = 0; f < F; f++) theta[f] = (th0[f] as number) + sg * dot(hidden, h0, GT, f * H, H);
    const k0 = candStart[n] as number;
    const k1 = candStart[n + 1] as number;
    const inv = invTemp[n] as number;
    let max = -Infinity;
    for (let c = k0; c < k1; c++) {
      const a0 = (candList[c] as number) * d;
      let s = (reads ? (reads[c] as number) : 0) + dot(vecs, a0, query, q0, d);
      const x0 = c * F;
      for (let f = 0; f < F; f++) s += (feats[x0 + f] as number) * (theta[f] as number);
      const z = s * inv;
      candLogProbs[c] = z;
      if (z > max) max = z;
    }
    let sum = 0;
    for (let c = k0; c < k1; c++) {
      const e = Math.exp((candLogProbs[c] as number) - max);
      candProbs[c] = e;
      sum += e;
    }
    const logZ = max + Math.log(sum);
    const invSum = 1 / sum;
    let ent = 0;
    for (let c = k0; c < k1; c++) {
      const lp = (candLogProbs[c] as number) - logZ;
      const p = (candProbs[c] as number) * invSum;
      candLogProbs[c] = lp;
      candProbs[c] = p;
      ent -= p * lp;
    }
    const at = batch.position[n] as number;
    const chosen = batch.chosen[n] as number;
    logProbs[at] = chosen >= 0 ? (candLogProbs[k0 + chosen] as number) : 0;
    entropy[at] = ent;
  }
  return { logProbs, entropy, vecs, hidden, query, candLogProbs, candProbs, plan };
}

/** Σ a[i..i+n)·b[j..j+n), in four interleaved sums (a single sum is one long chain of dependent adds). */
function dot(a: Float64Array, i: number, b: Float64Array, j: number, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let x = 0;
  for (; x + 3 < n; x += 4) {
    s0 += (a[i + x] as number) * (b[j + x] as number);
    s1 += (a[i + x + 1] as number) * (b[j + x + 1] as number);
    s2 += (a[i + x + 2] as number) * (b[j + x + 2] as number);
    s3 += (a[i + x + 3] as number) * (b[j + x + 3] as number);
  }
  for (; x < n; x++) s0 += (a[i + x] as number) * (b[j + x] as number);
  return s0 + s1 + (s2 + s3);
}

function transpose(m: Float32Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = m[r * cols + c] as number;
  return out;
}

/**
 * Each context slot's share of the hidden pre-activation, vec(list)·W_h[block rows] [slots, H]: one product
 * per distinct (block, list) pair instead of one per decision and block, directly or through the words.
 */
function slotProducts(
  params: AgentParameters,
  vecs: Float64Array,
  WhT: Float64Array,
  batch: DecisionBatch,
  d: number,
  H: number,
  plan: ContextPlan,
): Float64Array {
  const W = CONTEXT_BLOCKS * d;
  const { slotList, slotBlock, listStart, listIds, listWeights } = batch;
  const out = new Float64Array(slotList.length * H);
  const wordProducts = plan.words.map((words, b) =>
    plan.viaWords[b] ? wordRowsTimesHidden(params, words, b, d, H) : undefined,
  );
  for (let s = 0; s < slotList.length; s++) {
    const list = slotList[s] as number;
    if (list === 0) continue;
    const b = slotBlock[s] as number;
    const o0 = s * H;
    const ew = wordProducts[b];
    if (ew) {
      const row = plan.wordRow[b] as Int32Array;
      const e0 = listStart[list] as number;
      const e1 = listStart[list + 1] as number;
      weightedRowSums(out, o0, ew, H, listWeights, listIds, row, e0, e1);
    } else {
      const v0 = list * d;
      const b0 = b * d;
      for (let k = 0; k < H; k++) out[o0 + k] = dot(vecs, v0, WhT, k * W + b0, d);
    }
  }
  return out;
}

/**
 * out[o0 + k] = Σ_{e ∈ [e0, e1)} weights[e] · src[row(e)·H + k] for k < H, where row(e) is rowOf[ids[e]] (or
 * ids[e] itself without `rowOf`). Four outputs at a time in local sums, so the inner loop only loads.
 */
function weightedRowSums(
  out: Float64Array,
  o0: number,
  src: Float64Array,
  H: number,
  weights: Float64Array,
  ids: Int32Array,
  rowOf: Int32Array | undefined,
  e0: number,
  e1: number,
): void {
  let k = 0;
  for (; k + 3 < H; k += 4) {
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    for (let e = e0; e < e1; e++) {
      const w = weights[e] as number;
      const id = ids[e] as number;
      const r = (rowOf ? (rowOf[id] as number) : id) * H + k;
      a0 += w * (src[r] as number);
      a1 += w * (src[r + 1] as number);
      a2 += w * (src[r + 2] as number);
      a3 += w * (src[r + 3] as number);
    }
    out[o0 + k] = a0;
    out[o0 + k + 1] = a1;
    out[o0 + k + 2] = a2;
    out[o0 + k + 3] = a3;
  }
  for (; k < H; k++) {
    let a = 0;
    for (let e = e0; e < e1; e++) {
      const id = ids[e] as number;
      a += (weights[e] as number) * (src[(rowOf ? (rowOf[id] as number) : id) * H + k] as number);
    }
    out[o0 + k] = a;
  }
}

/** E[id]·W_h[block b's rows] for each of the block's words [words, H]. */
function wordRowsTimesHidden(
  params: AgentParameters,
  words: Int32Array,
  b: number,
  d: number,
  H: number,
): Float64Array {
  const { embedding: E, hiddenWeights: Wh } = params;
  const out = new Float64Array(words.length * H);
  for (let r = 0; r < words.length; r++) {
    const e0 = (words[r] as number) * d;
    const o0 = r * H;
    for (let j = 0; j < d; j++) {
      const x = E[e0 + j] as number;
      const w0 = (b * d + j) * H;
      for (let k = 0; k < H; k++) out[o0 + k] = (out[o0 + k] as number) + x * (Wh[w0 + k] as number);
    }
  }
  return out;
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
  const { vecs, hidden, query, candLogProbs, candProbs, entropy } = pass;
  const { contextSlot, candStart, candList, feats, invTemp, position } = batch;
  const dSlot = new Float64Array(batch.slotList.length * H);
  const dq = new Float64Array(d);
  const dTheta = new Float64Array(F);
  const dPre = new Float64Array(H);
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
      const p = candProbs[c] as number;
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
    for (let blk = 0; blk < CONTEXT_BLOCKS; blk++) {
      const s0 = (contextSlot[n * CONTEXT_BLOCKS + blk] as number) * H;
      for (let k = 0; k < H; k++) dSlot[s0 + k] = (dSlot[s0 + k] as number) + (dPre[k] as number);
    }
  }
  // Each slot's gradient into W_h's block rows and into its list's mean embedding, or into its words.
  const { plan } = pass;
  const { slotList, slotBlock, listStart, listIds, listWeights } = batch;
  const wordGrads = plan.words.map((words, b) =>
    plan.viaWords[b] ? new Float64Array(words.length * H) : undefined,
  );
  for (let s = 0; s < slotList.length; s++) {
    const list = slotList[s] as number;
    if (list === 0) continue;
    const b = slotBlock[s] as number;
    const s0 = s * H;
    if (plan.viaWords[b]) continue;
    const v0 = list * d;
    const b0 = b * d;
    for (let j = 0; j < d; j++) {
      const c = vecs[v0 + j] as number;
      const w0 = (b0 + j) * H;
      let dc = 0;
      for (let k = 0; k < H; k++) {
        const g = dSlot[s0 + k] as number;
        gWh[w0 + k] = (gWh[w0 + k] as number) + c * g;
        dc += (Wh[w0 + k] as number) * g;
      }
      dVecs[v0 + j] = (dVecs[v0 + j] as number) + dc;
    }
  }
  // Through the words: each word's gradient gathered from the slots it occurs in (four outputs at a time in
  // local sums), then the gradient of E[id]·W_h into both factors.
  const E = params.embedding;
  plan.words.forEach((words, b) => {
    const dew = wordGrads[b];
    if (!dew) return;
    const start = plan.occurrenceStart[b] as Int32Array;
    const slots = plan.occurrenceSlot[b] as Int32Array;
    const weights = plan.occurrenceWeight[b] as Float64Array;
    for (let r = 0; r < words.length; r++) {
      weightedRowSums(
        dew,
        r * H,
        dSlot,
        H,
        weights,
        slots,
        undefined,
        start[r] as number,
        start[r + 1] as number,
      );
    }
    for (let r = 0; r < words.length; r++) {
      const e0 = (words[r] as number) * d;
      const r0 = r * H;
      for (let j = 0; j < d; j++) {
        const x = E[e0 + j] as number;
        const w0 = (b * d + j) * H;
        let acc = 0;
        for (let k = 0; k < H; k++) {
          const g = dew[r0 + k] as number;
          gWh[w0 + k] = (gWh[w0 + k] as number) + x * g;
          acc += (Wh[w0 + k] as number) * g;
        }
        gE[e0 + j] = (gE[e0 + j] as number) + acc;
      }
    }
  });
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
  const dE = gE;
  for (let u = 1; u < batch.U; u++) {
    if (plan.needsVector[u] === 0) continue;
    const at = u * d;
    for (let e = listStart[u] as number; e < (listStart[u + 1] as number); e++) {
      const w = listWeights[e] as number;
      const row = (listIds[e] as number) * d;
      for (let j = 0; j < d; j++) dE[row + j] = (dE[row + j] as number) + w * (dVecs[at + j] as number);
    }
  }
  return grads;
}
