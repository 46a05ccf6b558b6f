import { InvalidArgumentError } from '@skillrl/core';
import { CONTEXT_BLOCKS, FEATURE_COUNT } from './agent-config.js';
import type { DecisionRecord } from './decision-record.js';

/**
 * B sequences of T decisions packed once into flat typed arrays for the hand-written forward and backward
 * passes (`forwardDecisions`, `backwardDecisions`): no padding, no tensors. Only decisions with a record
 * are stored (N of them, each with its `[B, T]` position); candidates of all decisions lie end to end (K in
 * all, decision n's at `candStart[n] .. candStart[n + 1]`).
 *
 * Word lists repeat across a batch ("go to cabinet 1" is scored hundreds of times), so each distinct list is
 * stored once, as its distinct word ids with weights count/length (its mean embedding is Σ w·E[id]); the
 * memory's 50-action bag of ~90 ids has ~15 distinct ones.
 */
export interface DecisionBatch {
  B: number;
  T: number;
  /** Decisions with a record. */
  N: number;
  /** Total candidates over the N decisions. */
  K: number;
  /** Distinct word lists; list 0 is the empty one (embeds to zero). */
  U: number;
  vocabularySize: number;
  /** Per decision: its index b·T + t in the `[B, T]` matrix, chosen candidate (local), 1/temperature. */
  position: Int32Array;
  chosen: Int32Array;
  invTemp: Float64Array;
  /**
   * Per decision, the list of each context block the hidden layer reads, in `scoreDecision`'s order (goal,
   * latest observation, recent actions, memory): [N, CONTEXT_BLOCKS].
   */
  context: Int32Array;
  /** [N + 1]: where each decision's candidates start. */
  candStart: Int32Array;
  /** Per candidate: its word list and its FEATURE_COUNT features ([K, F]). */
  candList: Int32Array;
  feats: Float64Array;
  /** [U + 1], then per entry: the distinct word ids of each list and their weights. */
  listStart: Int32Array;
  listIds: Int32Array;
  listWeights: Float64Array;
  /**
   * The skill reader's inputs, for decisions with a skill: clauses of decision n at
   * `clauseStart[n] .. clauseStart[n + 1]` (done, rank, sign each); the non-zero similarities of candidate k
   * at `simStart[k] .. simStart[k + 1]` as (clause, value), the clause relative to its decision's first.
   */
  clauseStart: Int32Array;
  done: Float64Array;
  rank: Float64Array;
  sign: Float64Array;
  simStart: Int32Array;
  simClause: Int32Array;
  simValue: Float64Array;
}

/** Grows like an array, reads back as a typed array. */
class IntList {
  data = new Int32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  done(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

class FloatList {
  data = new Float64Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  done(): Float64Array {
    return this.data.slice(0, this.length);
  }
}

export function packDecisionBatch(
  rows: readonly (readonly (DecisionRecord | null)[])[],
  options: {
    vocabularySize: number;
    T?: number;
    /** Per row and step, the memory's word ids (`agent.memoryIds` of the earlier actions); default none. */
    memories?: readonly (readonly (readonly number[])[])[];
  },
): DecisionBatch {
  if (CONTEXT_BLOCKS !== 4) {
    // The blocks are fields of the record (and the memory); a new block needs its list packed here too.
    throw new Error(`packDecisionBatch packs 4 context blocks, but the network reads ${CONTEXT_BLOCKS}`);
  }
  const B = rows.length;
  const V = options.vocabularySize;
  const T = options.T ?? Math.max(1, ...rows.map((r) => r.length));
  const F = FEATURE_COUNT;

  // Distinct lists: the encoder hands out one cached array per text, so most repeats are the same object;
  // the rest (records read back from JSON, memories) are found by a content hash and compared.
  const byObject = new Map<readonly number[], number>();
  const byHash = new Map<number, number[]>();
  const listStart = new IntList();
  const listIds = new IntList();
  const listWeights = new FloatList();
  const listLength: number[] = [];
  const listRaw: (readonly number[])[] = [];
  const weight = new Float64Array(V);
  listStart.push(0);
  const addList = (ids: readonly number[]): number => {
    const u = listRaw.length;
    listRaw.push(ids);
    listLength.push(ids.length);
    const start = listIds.length;
    const w = 1 / Math.max(1, ids.length);
    for (const id of ids) {
      if (!(id >= 0 && id < V)) {
        throw new InvalidArgumentError(
          'rows',
          `word id ${id} is outside the vocabulary [0, ${V}); were these records made with this agent?`,
        );
      }
      if (weight[id] === 0) listIds.push(id);
      weight[id] = (weight[id] as number) + w;
    }
    for (let e = start; e < listIds.length; e++) {
      const id = listIds.data[e] as number;
      listWeights.push(weight[id] as number);
      weight[id] = 0;
    }
    listStart.push(listIds.length);
    return u;
  };
  const listOf = (ids: readonly number[]): number => {
    const known = byObject.get(ids);
    if (known !== undefined) return known;
    let h = ids.length | 0;
    for (const id of ids) h = Math.imul(h ^ id, 0x01000193) | 0;
    const bucket = byHash.get(h);
    if (bucket) {
      for (const u of bucket) {
        const other = listRaw[u] as readonly number[];
        if (other.length !== ids.length) continue;
        let same = true;
        for (let i = 0; i < ids.length && same; i++) same = other[i] === ids[i];
        if (same) {
          byObject.set(ids, u);
          return u;
        }
      }
    }
    const u = addList(ids);
    if (bucket) bucket.push(u);
    else byHash.set(h, [u]);
    byObject.set(ids, u);
    return u;
  };
  listOf([]);

  const position = new IntList();
  const chosen = new IntList();
  const invTemp = new FloatList();
  const context = new IntList();
  const candStart = new IntList();
  const candList = new IntList();
  const feats = new FloatList();
  const clauseStart = new IntList();
  const done = new FloatList();
  const rank = new FloatList();
  const sign = new FloatList();
  const simStart = new IntList();
  const simClause = new IntList();
  const simValue = new FloatList();
  candStart.push(0);
  clauseStart.push(0);
  simStart.push(0);
  const simsOf: number[][] = [];
  rows.forEach((row, b) => {
    for (let t = 0; t < Math.min(T, row.length); t++) {
      const r = row[t];
      if (!r) continue;
      position.push(b * T + t);
      chosen.push(r.chosen);
      invTemp.push(1 / r.temperature);
      context.push(listOf(r.goal));
      context.push(listOf(r.obs));
      context.push(listOf(r.hist));
      context.push(listOf(options.memories?.[b]?.[t] ?? []));
      const C = r.cand.length;
      for (let c = 0; c < C; c++) {
        candList.push(listOf(r.cand[c] as number[]));
        const x = r.feats[c] ?? [];
        for (let f = 0; f < F; f++) feats.push(x[f] ?? 0);
      }
      // As `scoreDecision`: the reader runs only with a skill that has clauses.
      const S = r.condition === 1 ? r.done.length : 0;
      for (let s = 0; s < S; s++) {
        done.push(r.done[s] as number);
        rank.push(r.rank[s] as number);
        sign.push(r.sign[s] as number);
      }
      clauseStart.push(done.length);
      for (let c = 0; c < C; c++) simsOf[c] = [];
      if (S > 0) for (const [c, s, v] of r.sims) simsOf[c]?.push(s, v);
      for (let c = 0; c < C; c++) {
        const list = simsOf[c] as number[];
        for (let i = 0; i < list.length; i += 2) {
          simClause.push(list[i] as number);
          simValue.push(list[i + 1] as number);
        }
        simStart.push(simClause.length);
      }
      candStart.push(candList.length);
    }
  });
  return {
    B,
    T,
    N: position.length,
    K: candList.length,
    U: listRaw.length,
    vocabularySize: V,
    position: position.done(),
    chosen: chosen.done(),
    invTemp: invTemp.done(),
    context: context.done(),
    candStart: candStart.done(),
    candList: candList.done(),
    feats: feats.done(),
    listStart: listStart.done(),
    listIds: listIds.done(),
    listWeights: listWeights.done(),
    clauseStart: clauseStart.done(),
    done: done.done(),
    rank: rank.done(),
    sign: sign.done(),
    simStart: simStart.done(),
    simClause: simClause.done(),
    simValue: simValue.done(),
  };
}
