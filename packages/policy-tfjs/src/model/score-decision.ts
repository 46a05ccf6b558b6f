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
  start = 0,
  end = ids.length,
) {
  for (let j = 0; j < d; j++) out[at + j] = 0;
  if (end === start) return;
  for (let i = start; i < end; i++) {
    const row = (ids[i] as number) * d;
    for (let j = 0; j < d; j++) out[at + j] = (out[at + j] as number) + (embedding[row + j] as number);
  }
  const inv = 1 / (end - start);
  for (let j = 0; j < d; j++) out[at + j] = (out[at + j] as number) * inv;
}

const NO_WORDS: readonly number[] = [];

/** One decision to score: its record and the memory's word ids (`encoder.memory`, `agent.memoryIds`). */
export interface ScoredDecision {
  record: DecisionRecord;
  /** The memory's word ids: `memory[memoryStart, memoryEnd)` (default: all of it). */
  memory?: readonly number[];
  memoryStart?: number;
  memoryEnd?: number;
  /**
   * Any object standing for the decision's episode (an acting agent passes the history array). With a cache,
   * the memory's embedding sum is kept per episode and extended by the words added since its last decision.
   * Contract: while the episode object is the same, its `memory` array only grows (an agent passes its
   * encoder's per-episode ids); another array or window start is summed afresh.
   */
  episode?: object;
}

/**
 * Mean embeddings of word lists already computed under one set of weights, by list object: an acting agent's
 * encoder hands out one array per text (a candidate, a goal, an observation), and "go to cabinet 1" is scored
 * thousands of times between two updates. It is dropped when the weights object changes (weights are replaced
 * whole, never written in place: `setParameters`); a cached mean is the same float64 sum in the same order,
 * so the scores are bit for bit those without it.
 */
export interface EmbeddingCache {
  parameters?: AgentParameters;
  means: Map<readonly number[], Float64Array>;
  /** Per goal list: the hidden layer's bias plus the goal block's product (the first rows of the sum). */
  goals: Map<readonly number[], Float64Array>;
  /** Per episode: the memory array and window start summed, how many of its words, and their sum. */
  memories: WeakMap<object, { source: readonly number[]; start: number; count: number; sum: Float64Array }>;
  /**
   * The hidden layer's, the query's and the feature gate's weights transposed (float64), so that each
   * output's sum runs down one contiguous row in a register, in the same order as the row-major loops.
   */
  transposed?: { hidden: Float64Array; query: Float64Array; gate: Float64Array };
}

/** `w` [rows, cols] row-major as [cols, rows]. */
function transpose(w: Float32Array, rows: number, cols: number): Float64Array {
  const t = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) t[c * rows + r] = w[r * cols + c] as number;
  return t;
}

export function createEmbeddingCache(): EmbeddingCache {
  return { means: new Map(), goals: new Map(), memories: new WeakMap() };
}

const CACHED_LISTS = 200_000;

/**
 * Scratch arrays reused by every call (scoring is synchronous, so no two calls share them at once):
 * allocating typed arrays costs more than the arithmetic on them at these sizes.
 */
const scratch = {
  f64: new Map<string, Float64Array>(),
  i32: new Map<string, Int32Array>(),
};
function f64(name: string, length: number): Float64Array {
  let a = scratch.f64.get(name);
  if (a === undefined || a.length < length) {
    a = new Float64Array(Math.max(length, 2 * (a?.length ?? 16)));
    scratch.f64.set(name, a);
  }
  return a;
}
function i32(name: string, length: number): Int32Array {
  let a = scratch.i32.get(name);
  if (a === undefined || a.length < length) {
    a = new Int32Array(Math.max(length, 2 * (a?.length ?? 16)));
    scratch.i32.set(name, a);
  }
  return a;
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
  return scoreDecisions(params, [{ record, memory }], d)[0] as Float64Array;
}

/**
 * `scoreDecision` for a round of decisions at once (one per concurrent episode): the context rows of all of
 * them go through the hidden layer as one [B, 4d] × [4d, H] product. Each row's sums run in the same order as
 * a single decision's, so every decision's log-probs are exactly `scoreDecision`'s, whatever else is in the
 * round.
 */
export function scoreDecisions(
  params: AgentParameters,
  decisions: readonly ScoredDecision[],
  d: number,
  cache?: EmbeddingCache,
): Float64Array[] {
  const B = decisions.length;
  const { embedding, hiddenWeights, hiddenBias, query, actionBias, featureWeights, featureGate, prior } =
    params;
  const H = hiddenBias.length;
  const F = featureWeights.length;
  const width = CONTEXT_BLOCKS * d;
  if (cache && cache.parameters !== params) {
    cache.parameters = params;
    cache.means.clear();
    cache.goals.clear();
    cache.memories = new WeakMap();
    delete cache.transposed;
  }
  const F0 = featureWeights.length;
  if (cache && !cache.transposed) {
    cache.transposed = {
      hidden: transpose(hiddenWeights, CONTEXT_BLOCKS * d, hiddenBias.length),
      query: transpose(query, hiddenBias.length, d),
      gate: transpose(featureGate, hiddenBias.length, F0),
    };
  }
  const transposed = cache?.transposed;
  // A list's mean embedding, from the cache when the list was seen under these weights.
  const meanOf = (ids: readonly number[]): Float64Array => {
    let m = cache?.means.get(ids);
    if (m === undefined) {
      m = new Float64Array(d);
      meanEmbedding(m, embedding, ids, d);
      if (cache) {
        if (cache.means.size >= CACHED_LISTS) cache.means.clear();
        cache.means.set(ids, m);
      }
    }
    return m;
  };
  // The memory's mean from the episode's running sum: the same additions in the same order as summing it.
  const memoryMean = (
    c: EmbeddingCache,
    episode: object,
    memory: readonly number[],
    start: number,
    end: number,
    at: number,
  ) => {
    let entry = c.memories.get(episode);
    if (!(entry && entry.source === memory && entry.start === start && entry.count <= end - start)) {
      entry = { source: memory, start, count: 0, sum: new Float64Array(d) };
      c.memories.set(episode, entry);
    }
    const sum = entry.sum;
    for (let i = start + entry.count; i < end; i++) {
      const row = (memory[i] as number) * d;
      for (let j = 0; j < d; j++) sum[j] = (sum[j] as number) + (embedding[row + j] as number);
    }
    entry.count = end - start;
    if (end === start) {
      for (let j = 0; j < d; j++) ctx[at + j] = 0;
      return;
    }
    const inv = 1 / (end - start);
    for (let j = 0; j < d; j++) ctx[at + j] = (sum[j] as number) * inv;
  };
  const ctx = f64('ctx', B * width);
  for (let b = 0; b < B; b++) {
    const { record, memory = NO_WORDS, episode } = decisions[b] as ScoredDecision;
    const start = (decisions[b] as ScoredDecision).memoryStart ?? 0;
    const end = (decisions[b] as ScoredDecision).memoryEnd ?? memory.length;
    const at = b * width;
    if (cache) {
      ctx.set(meanOf(record.goal), at);
      ctx.set(meanOf(record.obs), at + d);
    } else {
      meanEmbedding(ctx, embedding, record.goal, d, at);
      meanEmbedding(ctx, embedding, record.obs, d, at + d);
    }
    meanEmbedding(ctx, embedding, record.hist, d, at + 2 * d);
    if (cache && episode) memoryMean(cache, episode, memory, start, end, at + 3 * d);
    else meanEmbedding(ctx, embedding, memory, d, at + 3 * d, start, end);
  }
  // The round's hidden layer: each weight row is read once for all B decisions. With a cache, each row's
  // sum starts from its goal's part (the first d rows, the same for a whole episode), computed once.
  const h = f64('hidden', B * H);
  const first = cache ? d : 0;
  for (let b = 0; b < B; b++) {
    const goal = (decisions[b] as ScoredDecision).record.goal;
    let start: Float32Array | Float64Array = hiddenBias;
    if (cache) {
      let g = cache.goals.get(goal);
      if (g === undefined) {
        g = Float64Array.from(hiddenBias);
        for (let i = 0; i < d; i++) {
          const ci = ctx[b * width + i] as number;
          if (ci === 0) continue;
          for (let k = 0; k < H; k++) g[k] = (g[k] as number) + ci * (hiddenWeights[i * H + k] as number);
        }
        if (cache.goals.size >= CACHED_LISTS) cache.goals.clear();
        cache.goals.set(goal, g);
      }
      start = g;
    }
    h.set(start, b * H);
  }
  if (transposed) {
    const wt = transposed.hidden;
    for (let b = 0; b < B; b++) {
      const o = b * H;
      const c0 = b * width;
      // A zero context entry is skipped, as in the row-major loop; rows without one need no test.
      let zero = false;
      for (let i = first; i < width; i++) if (ctx[c0 + i] === 0) zero = true;
      // Four units at a time: four independent sums, each still in order over i (a single running sum
      // waits on every add before the next).
      let k = 0;
      if (!zero) {
        for (; k + 3 < H; k += 4) {
          let a0 = h[o + k] as number;
          let a1 = h[o + k + 1] as number;
          let a2 = h[o + k + 2] as number;
          let a3 = h[o + k + 3] as number;
          const r0 = k * width - c0;
          const r1 = r0 + width;
          const r2 = r1 + width;
          const r3 = r2 + width;
          for (let i = c0 + first; i < c0 + width; i++) {
            const ci = ctx[i] as number;
            a0 += ci * (wt[r0 + i] as number);
            a1 += ci * (wt[r1 + i] as number);
            a2 += ci * (wt[r2 + i] as number);
            a3 += ci * (wt[r3 + i] as number);
          }
          h[o + k] = a0;
          h[o + k + 1] = a1;
          h[o + k + 2] = a2;
          h[o + k + 3] = a3;
        }
      }
      for (; k < H; k++) {
        let acc = h[o + k] as number;
        const r = k * width - c0;
        if (zero) {
          for (let i = c0 + first; i < c0 + width; i++) {
            const ci = ctx[i] as number;
            if (ci !== 0) acc += ci * (wt[r + i] as number);
          }
        } else {
          for (let i = c0 + first; i < c0 + width; i++) acc += (ctx[i] as number) * (wt[r + i] as number);
        }
        h[o + k] = acc;
      }
    }
  } else {
    for (let i = first; i < width; i++) {
      const row = i * H;
      for (let b = 0; b < B; b++) {
        const ci = ctx[b * width + i] as number;
        if (ci === 0) continue;
        const o = b * H;
        for (let k = 0; k < H; k++) h[o + k] = (h[o + k] as number) + ci * (hiddenWeights[row + k] as number);
      }
    }
  }
  for (let k = 0; k < B * H; k++) h[k] = Math.tanh(h[k] as number);
  const { query: queryScale, gate: gateScale } = hiddenScales(H);
  const out: Float64Array[] = [];
  // One buffer for the round's log-probs, each decision's a view of it (one allocation per round).
  let total = 0;
  for (let b = 0; b < B; b++) total += (decisions[b] as ScoredDecision).record.candidates.length;
  const roundLogits = new Float64Array(total);
  let offset = 0;
  const q = f64('query', d);
  const theta = f64('theta', F);
  const a = f64('mean', d);
  for (let b = 0; b < B; b++) {
    const { record } = decisions[b] as ScoredDecision;
    const C = record.candidates.length;
    const o = b * H;
    if (transposed) {
      const [qt, gt] = [transposed.query, transposed.gate];
      // h·(1/√H) and h·(1/H) once per unit: the products the row-major loops form.
      const hq = f64('hq', H);
      const hg = f64('hg', H);
      for (let k = 0; k < H; k++) {
        hq[k] = (h[o + k] as number) * queryScale;
        hg[k] = (h[o + k] as number) * gateScale;
      }
      let j = 0;
      for (; j + 3 < d; j += 4) {
        let a0 = actionBias[j] as number;
        let a1 = actionBias[j + 1] as number;
        let a2 = actionBias[j + 2] as number;
        let a3 = actionBias[j + 3] as number;
        const r0 = j * H;
        for (let k = 0; k < H; k++) {
          const x = hq[k] as number;
          a0 += x * (qt[r0 + k] as number);
          a1 += x * (qt[r0 + H + k] as number);
          a2 += x * (qt[r0 + 2 * H + k] as number);
          a3 += x * (qt[r0 + 3 * H + k] as number);
        }
        q[j] = a0;
        q[j + 1] = a1;
        q[j + 2] = a2;
        q[j + 3] = a3;
      }
      for (; j < d; j++) {
        let acc = actionBias[j] as number;
        for (let k = 0; k < H; k++) acc += (hq[k] as number) * (qt[j * H + k] as number);
        q[j] = acc;
      }
      for (let f = 0; f < F; f++) {
        let acc = featureWeights[f] as number;
        for (let k = 0; k < H; k++) acc += (hg[k] as number) * (gt[f * H + k] as number);
        theta[f] = acc;
      }
    } else {
      for (let j = 0; j < d; j++) q[j] = actionBias[j] as number;
      for (let f = 0; f < F; f++) theta[f] = featureWeights[f] as number;
      for (let k = 0; k < H; k++) {
        const hk = h[o + k] as number;
        const hq = hk * queryScale;
        const hg = hk * gateScale;
        for (let j = 0; j < d; j++) q[j] = (q[j] as number) + hq * (query[k * d + j] as number);
        for (let f = 0; f < F; f++) theta[f] = (theta[f] as number) + hg * (featureGate[k * F + f] as number);
      }
    }
    const logits = roundLogits.subarray(offset, offset + C);
    offset += C;
    let c = 0;
    if (cache) {
      // Four candidates at a time (four independent sums, each in the single-candidate order).
      for (; c + 3 < C; c += 4) {
        const m0 = meanOf(record.cand[c] ?? NO_WORDS);
        const m1 = meanOf(record.cand[c + 1] ?? NO_WORDS);
        const m2 = meanOf(record.cand[c + 2] ?? NO_WORDS);
        const m3 = meanOf(record.cand[c + 3] ?? NO_WORDS);
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        for (let j = 0; j < d; j++) {
          const qj = q[j] as number;
          s0 += (m0[j] as number) * qj;
          s1 += (m1[j] as number) * qj;
          s2 += (m2[j] as number) * qj;
          s3 += (m3[j] as number) * qj;
        }
        const x0 = record.feats[c] ?? NO_WORDS;
        const x1 = record.feats[c + 1] ?? NO_WORDS;
        const x2 = record.feats[c + 2] ?? NO_WORDS;
        const x3 = record.feats[c + 3] ?? NO_WORDS;
        for (let f = 0; f < F; f++) {
          const tf = theta[f] as number;
          s0 += (x0[f] ?? 0) * tf;
          s1 += (x1[f] ?? 0) * tf;
          s2 += (x2[f] ?? 0) * tf;
          s3 += (x3[f] ?? 0) * tf;
        }
        logits[c] = s0;
        logits[c + 1] = s1;
        logits[c + 2] = s2;
        logits[c + 3] = s3;
      }
    }
    for (; c < C; c++) {
      const ids = record.cand[c] ?? [];
      const mean = cache ? meanOf(ids) : a;
      if (!cache) meanEmbedding(a, embedding, ids, d);
      let s = 0;
      for (let j = 0; j < d; j++) s += (mean[j] as number) * (q[j] as number);
      const x = record.feats[c] ?? [];
      for (let f = 0; f < F; f++) s += (x[f] ?? 0) * (theta[f] as number);
      logits[c] = s;
    }
    const S = record.done.length;
    if (record.condition === 1 && S > 0) {
      addClauseReads(logits, record, prior, S);
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
    out.push(logits);
  }
  return out;
}

/**
 * Adds the skill reader's term to each candidate's logit. A candidate without any similarity reads exactly 0
 * (β·0/z), so only the candidates the record lists get a pass over the S clauses, each with its own dense
 * row of similarities (a clause listed twice counts with its last value). Records with similarities out of
 * range or non-finite strengths take the dense pass over every candidate, whose arithmetic this is.
 */
function addClauseReads(logits: Float64Array, record: DecisionRecord, prior: Float32Array, S: number): void {
  const C = logits.length;
  const [beta, tau, kappa, mu] = prior as unknown as [number, number, number, number];
  const base = f64('base', S);
  let finite = Number.isFinite(beta) && Number.isFinite(tau);
  for (let s = 0; s < S; s++) {
    const b = -kappa * (record.done[s] as number) - mu * (record.rank[s] as number);
    base[s] = b;
    if (!(Number.isFinite(b) && Number.isFinite(record.sign[s]))) finite = false;
  }
  const att = f64('attention', S);
  const entries = record.sims;
  let inRange = true;
  for (let e = 0; e < entries.length; e++) {
    const entry = entries[e] as [number, number, number];
    const c = entry[0];
    const s = entry[1];
    if (!(c >= 0 && c < C && s >= 0 && s < S && Number.isFinite(entry[2]))) inRange = false;
  }
  if (!(finite && inRange)) {
    const sims = new Float64Array(C * S);
    for (const [c, s, v] of entries) sims[c * S + s] = v;
    for (let c = 0; c < C; c++) {
      logits[c] = (logits[c] as number) + clauseRead(beta, tau, base, sims, c * S, record.sign, 0, S, att);
    }
    return;
  }
  // The entries grouped by candidate, in their order (a stable counting sort).
  const start = i32('start', C + 1).fill(0, 0, C + 1);
  for (let e = 0; e < entries.length; e++) {
    const c = (entries[e] as [number, number, number])[0];
    start[c + 1] = (start[c + 1] as number) + 1;
  }
  for (let c = 0; c < C; c++) start[c + 1] = (start[c + 1] as number) + (start[c] as number);
  const next = i32('next', C);
  next.set(start.subarray(0, C));
  const order = i32('order', entries.length);
  for (let i = 0; i < entries.length; i++) {
    const c = (entries[i] as [number, number, number])[0];
    order[next[c] as number] = i;
    next[c] = (next[c] as number) + 1;
  }
  // All zeros between uses: each candidate's entries are cleared after its read.
  const row = f64('row', S);
  for (let c = 0; c < C; c++) {
    const [lo, hi] = [start[c] as number, start[c + 1] as number];
    if (lo === hi) continue;
    for (let k = lo; k < hi; k++) {
      const entry = entries[order[k] as number] as [number, number, number];
      row[entry[1]] = entry[2];
    }
    logits[c] = (logits[c] as number) + clauseRead(beta, tau, base, row, 0, record.sign, 0, S, att);
    for (let k = lo; k < hi; k++) row[(entries[order[k] as number] as [number, number, number])[1]] = 0;
  }
}
