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
  /**
   * The distinct (block, list) pairs of `context` ("slots": the goal is one list for a whole episode, an
   * observation recurs across samples of a task), so the hidden layer's product with each is taken once:
   * `contextSlot` [N, CONTEXT_BLOCKS] is the slot of each entry, `slotList` and `slotBlock` [slots] what it is.
   */
  contextSlot: Int32Array;
  slotList: Int32Array;
  slotBlock: Int32Array;
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

/**
 * Distinct word lists, each as distinct ids with weights count/length. The encoder hands out one cached
 * array per text, so most repeats are the same object; the rest (records read back from JSON, memories) are
 * found by a hash of the length and up to 16 spread-out ids, then compared in full.
 */
class WordLists {
  readonly start = new IntList();
  readonly ids = new IntList();
  readonly weights = new FloatList();
  private readonly raw: (readonly number[])[] = [];
  private readonly byObject = new Map<readonly number[], number>();
  private readonly byHash = new Map<number, number[]>();
  private readonly weight: Float64Array;

  constructor(private readonly V: number) {
    this.weight = new Float64Array(V);
    this.start.push(0);
    this.of([]);
  }

  get size(): number {
    return this.raw.length;
  }

  of(ids: readonly number[]): number {
    const known = this.byObject.get(ids);
    if (known !== undefined) return known;
    const n = ids.length;
    let h = n | 0;
    const stride = n > 16 ? n / 16 : 1;
    for (let x = 0; x < n; x += stride) h = Math.imul(h ^ (ids[x | 0] as number), 0x01000193) | 0;
    const bucket = this.byHash.get(h);
    if (bucket) {
      for (const u of bucket) {
        const other = this.raw[u] as readonly number[];
        if (other.length !== n) continue;
        let i = 0;
        while (i < n && other[i] === ids[i]) i++;
        if (i === n) {
          this.byObject.set(ids, u);
          return u;
        }
      }
    }
    const u = this.add(ids);
    if (bucket) bucket.push(u);
    else this.byHash.set(h, [u]);
    this.byObject.set(ids, u);
    return u;
  }

  private add(ids: readonly number[]): number {
    const u = this.raw.length;
    this.raw.push(ids);
    const first = this.ids.length;
    const w = 1 / Math.max(1, ids.length);
    const weight = this.weight;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      if (!(id >= 0 && id < this.V)) {
        throw new InvalidArgumentError(
          'rows',
          `word id ${id} is outside the vocabulary [0, ${this.V}); were these records made with this agent?`,
        );
      }
      if (weight[id] === 0) this.ids.push(id);
      weight[id] = (weight[id] as number) + w;
    }
    for (let e = first; e < this.ids.length; e++) {
      const id = this.ids.data[e] as number;
      this.weights.push(weight[id] as number);
      weight[id] = 0;
    }
    this.start.push(this.ids.length);
    return u;
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
  const steps = (row: readonly (DecisionRecord | null)[]) => Math.min(T, row.length);
  // First pass: sizes, so the second writes into arrays of the right length.
  let N = 0;
  let K = 0;
  let clauses = 0;
  let maxC = 1;
  for (const row of rows) {
    for (let t = 0; t < steps(row); t++) {
      const r = row[t];
      if (!r) continue;
      N += 1;
      K += r.cand.length;
      if (r.cand.length > maxC) maxC = r.cand.length;
      if (r.condition === 1) clauses += r.done.length;
    }
  }
  const lists = new WordLists(V);
  const position = new Int32Array(N);
  const chosen = new Int32Array(N);
  const invTemp = new Float64Array(N);
  const context = new Int32Array(N * CONTEXT_BLOCKS);
  const candStart = new Int32Array(N + 1);
  const candList = new Int32Array(K);
  const feats = new Float64Array(K * F);
  const clauseStart = new Int32Array(N + 1);
  const done = new Float64Array(clauses);
  const rank = new Float64Array(clauses);
  const sign = new Float64Array(clauses);
  const simStart = new Int32Array(K + 1);
  const simClause = new IntList();
  const simValue = new FloatList();
  const simCount = new Int32Array(maxC + 1);
  let n = 0;
  let k = 0;
  let q = 0;
  for (let b = 0; b < B; b++) {
    const row = rows[b] as readonly (DecisionRecord | null)[];
    for (let t = 0; t < steps(row); t++) {
      const r = row[t];
      if (!r) continue;
      position[n] = b * T + t;
      chosen[n] = r.chosen;
      invTemp[n] = 1 / r.temperature;
      const at = n * CONTEXT_BLOCKS;
      context[at] = lists.of(r.goal);
      context[at + 1] = lists.of(r.obs);
      context[at + 2] = lists.of(r.hist);
      context[at + 3] = lists.of(options.memories?.[b]?.[t] ?? []);
      const C = r.cand.length;
      const k0 = k;
      for (let c = 0; c < C; c++) {
        candList[k] = lists.of(r.cand[c] as number[]);
        const x = r.feats[c];
        if (x) {
          const o = k * F;
          const L = Math.min(F, x.length);
          for (let f = 0; f < L; f++) feats[o + f] = x[f] as number;
        }
        k += 1;
      }
      // As `scoreDecision`: the reader runs only with a skill that has clauses.
      const S = r.condition === 1 ? r.done.length : 0;
      for (let s = 0; s < S; s++) {
        done[q + s] = r.done[s] as number;
        rank[q + s] = r.rank[s] as number;
        sign[q + s] = r.sign[s] as number;
      }
      q += S;
      clauseStart[n + 1] = q;
      // Similarities grouped by candidate (counted, then placed), whatever order the record lists them in.
      simCount.fill(0, 0, C + 1);
      const sims = S > 0 ? r.sims : [];
      for (let i = 0; i < sims.length; i++) {
        const c = (sims[i] as [number, number, number])[0];
        if (c >= 0 && c < C) simCount[c + 1] = (simCount[c + 1] as number) + 1;
      }
      const base = simClause.length;
      for (let c = 0; c < C; c++) {
        simCount[c + 1] = (simCount[c + 1] as number) + (simCount[c] as number);
        simStart[k0 + c + 1] = base + (simCount[c + 1] as number);
      }
      for (let i = 0; i < (simCount[C] as number); i++) {
        simClause.push(0);
        simValue.push(0);
      }
      for (let i = 0; i < sims.length; i++) {
        const entry = sims[i] as [number, number, number];
        const c = entry[0];
        if (!(c >= 0 && c < C)) continue;
        const e = base + (simCount[c] as number);
        simCount[c] = (simCount[c] as number) + 1;
        simClause.data[e] = entry[1];
        simValue.data[e] = entry[2];
      }
      n += 1;
      candStart[n] = k;
    }
  }
  // One slot per distinct (block, list) pair.
  const U = lists.size;
  const contextSlot = new Int32Array(context.length);
  const slotList = new IntList();
  const slotBlock = new IntList();
  const seen = new Int32Array(U * CONTEXT_BLOCKS).fill(-1);
  for (let i = 0; i < context.length; i++) {
    const key = (context[i] as number) * CONTEXT_BLOCKS + (i % CONTEXT_BLOCKS);
    let slot = seen[key] as number;
    if (slot < 0) {
      slot = slotList.length;
      seen[key] = slot;
      slotList.push(context[i] as number);
      slotBlock.push(i % CONTEXT_BLOCKS);
    }
    contextSlot[i] = slot;
  }
  return {
    B,
    T,
    N,
    K,
    U,
    vocabularySize: V,
    position,
    chosen,
    invTemp,
    context,
    contextSlot,
    slotList: slotList.done(),
    slotBlock: slotBlock.done(),
    candStart,
    candList,
    feats,
    listStart: lists.start.done(),
    listIds: lists.ids.done(),
    listWeights: lists.weights.done(),
    clauseStart,
    done,
    rank,
    sign,
    simStart,
    simClause: simClause.done(),
    simValue: simValue.done(),
  };
}
