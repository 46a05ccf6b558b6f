import { FEATURE_COUNT } from './agent-config.js';
import type { DecisionRecord } from './decision-record.js';

/**
 * B sequences of T decisions as padded typed arrays, row-major with B first, ready for `createTfPolicy`.
 * A missing decision (padding, or a step without a record) has no candidates and no chosen one.
 *
 * Word lists (candidates, goals, observations, recent actions) repeat across a batch ("go to cabinet 1" is
 * scored hundreds of times), so each distinct list is one row of a bag-of-words matrix `bags` [U, V]
 * (weights 1/length), embedded once by a matrix product; decisions point at rows by index.
 */
export interface PackedBatch {
  B: number;
  T: number;
  C: number;
  /** Most skill clauses in a decision. */
  S: number;
  /** Distinct word lists U and vocabulary size V of `bags`. */
  U: number;
  V: number;
  bags: Float32Array;
  /** Row of `bags` per candidate [B·T·C] and per decision's goal, observation and history [B·T]. */
  candIdx: Int32Array;
  goalIdx: Int32Array;
  obsIdx: Int32Array;
  histIdx: Int32Array;
  memIdx: Int32Array;
  feats: Float32Array;
  candMask: Float32Array;
  chosen: Float32Array;
  /**
   * Only candidates that share a word with some skill clause get the attention read (P pairs of decision
   * and candidate): `pairIdx` [B·T·C] is 1 + the pair's index, 0 for none; `pairDecision` [P] its decision
   * row; `sims` [P, S] its similarities; `rowPairs` [B + 1] where each sequence's pairs start.
   */
  P: number;
  pairIdx: Int32Array;
  pairDecision: Int32Array;
  rowPairs: Int32Array;
  sims: Float32Array;
  done: Float32Array;
  rank: Float32Array;
  sign: Float32Array;
  clauseMask: Float32Array;
  cond: Float32Array;
  invTemp: Float32Array;
}

export function packBatch(
  rows: readonly (readonly (DecisionRecord | null)[])[],
  options: {
    vocabularySize: number;
    T?: number;
    /** Per row and step, the memory's word ids (`agent.memoryIds` of the earlier actions); default none. */
    memories?: readonly (readonly (readonly number[])[])[];
  },
): PackedBatch {
  const B = rows.length;
  const V = options.vocabularySize;
  const steps = options.T ?? Math.max(1, ...rows.map((r) => r.length));
  let C = 1;
  let S = 0;
  for (const row of rows) {
    for (const r of row) {
      if (!r) continue;
      C = Math.max(C, r.candidates.length);
      if (r.condition === 1) S = Math.max(S, r.done.length);
    }
  }
  // Row 0 is the empty list: padding points there and embeds to zero.
  const lists: (readonly number[])[] = [[]];
  const listIndex = new Map<string, number>([['', 0]]);
  const bag = (ids: readonly number[]): number => {
    const key = ids.join(',');
    let i = listIndex.get(key);
    if (i === undefined) {
      i = lists.length;
      lists.push(ids);
      listIndex.set(key, i);
    }
    return i;
  };
  const R = B * steps;
  const F = FEATURE_COUNT;
  const candIdx = new Int32Array(R * C);
  const goalIdx = new Int32Array(R);
  const obsIdx = new Int32Array(R);
  const histIdx = new Int32Array(R);
  const memIdx = new Int32Array(R);
  const p = {
    B,
    T: steps,
    C,
    S,
    V,
    candIdx,
    goalIdx,
    obsIdx,
    histIdx,
    memIdx,
    feats: new Float32Array(R * C * F),
    candMask: new Float32Array(R * C),
    chosen: new Float32Array(R * C),
    pairIdx: new Int32Array(R * C),
    done: new Float32Array(R * S),
    rank: new Float32Array(R * S),
    sign: new Float32Array(R * S),
    clauseMask: new Float32Array(R * S),
    cond: new Float32Array(R),
    invTemp: new Float32Array(R).fill(1),
  };
  const pairDecision: number[] = [];
  const pairSims: number[] = [];
  const rowPairs = new Int32Array(B + 1);
  rows.forEach((row, b) => {
    rowPairs[b] = pairDecision.length;
    for (let t = 0; t < Math.min(steps, row.length); t++) {
      const r = row[t];
      if (!r) continue;
      const d = b * steps + t;
      r.cand.forEach((ids, c) => {
        candIdx[d * C + c] = bag(ids);
        p.candMask[d * C + c] = 1;
        const x = r.feats[c] ?? [];
        for (let f = 0; f < F; f++) p.feats[(d * C + c) * F + f] = x[f] ?? 0;
      });
      if (r.chosen >= 0) p.chosen[d * C + r.chosen] = 1;
      goalIdx[d] = bag(r.goal);
      obsIdx[d] = bag(r.obs);
      histIdx[d] = bag(r.hist);
      memIdx[d] = bag(options.memories?.[b]?.[t] ?? []);
      p.invTemp[d] = 1 / r.temperature;
      if (r.condition === 1 && r.done.length > 0) {
        p.cond[d] = 1;
        for (let s = 0; s < r.done.length; s++) {
          p.done[d * S + s] = r.done[s] as number;
          p.rank[d * S + s] = r.rank[s] as number;
          p.sign[d * S + s] = r.sign[s] as number;
          p.clauseMask[d * S + s] = 1;
        }
        const byCand = new Map<number, number>();
        for (const [c, s, v] of r.sims) {
          let k = byCand.get(c);
          if (k === undefined) {
            k = pairDecision.length;
            byCand.set(c, k);
            pairDecision.push(d);
            for (let z = 0; z < S; z++) pairSims.push(0);
            p.pairIdx[d * C + c] = k + 1;
          }
          pairSims[k * S + s] = v;
        }
      }
    }
  });
  rowPairs[B] = pairDecision.length;
  const U = lists.length;
  const bags = new Float32Array(U * V);
  lists.forEach((ids, u) => {
    const w = 1 / Math.max(1, ids.length);
    for (const id of ids) bags[u * V + id] = (bags[u * V + id] as number) + w;
  });
  return {
    ...p,
    U,
    bags,
    P: pairDecision.length,
    pairDecision: Int32Array.from(pairDecision),
    rowPairs,
    sims: Float32Array.from(pairSims),
  };
}

/** Rows start..end of a packed batch (views, not copies; the bag matrix is shared). */
export function slicePackedBatch(p: PackedBatch, start: number, end: number): PackedBatch {
  const per = p.T;
  const rows = <A extends Int32Array | Float32Array>(a: A, width: number): A =>
    a.subarray(start * per * width, end * per * width) as A;
  const F = FEATURE_COUNT;
  const pairStart = p.rowPairs[start] as number;
  const pairEnd = p.rowPairs[end] as number;
  return {
    ...p,
    B: end - start,
    candIdx: rows(p.candIdx, p.C),
    goalIdx: rows(p.goalIdx, 1),
    obsIdx: rows(p.obsIdx, 1),
    histIdx: rows(p.histIdx, 1),
    memIdx: rows(p.memIdx, 1),
    feats: rows(p.feats, p.C * F),
    candMask: rows(p.candMask, p.C),
    chosen: rows(p.chosen, p.C),
    P: pairEnd - pairStart,
    // Pair numbers and decision rows are relative to the slice.
    pairIdx: rows(p.pairIdx, p.C).map((k) => (k === 0 ? 0 : k - pairStart)),
    pairDecision: p.pairDecision.subarray(pairStart, pairEnd).map((d) => d - start * per),
    rowPairs: p.rowPairs.subarray(start, end + 1).map((k) => k - pairStart),
    sims: p.sims.subarray(pairStart * p.S, pairEnd * p.S),
    done: rows(p.done, p.S),
    rank: rows(p.rank, p.S),
    sign: rows(p.sign, p.S),
    clauseMask: rows(p.clauseMask, p.S),
    cond: rows(p.cond, 1),
    invTemp: rows(p.invTemp, 1),
  };
}
