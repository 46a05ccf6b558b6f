import { tokenize } from '../text/tokenize.js';
import type { Vocabulary } from '../text/vocabulary.js';
import { RecentCache } from './recent-cache.js';

/**
 * Everything needed to recompute one decision's action probabilities from the weights, without the task,
 * the skill text or the environment: what the network reads (`scoreDecision`, `packDecisionBatch`). Agents
 * store it on the step in the smaller `StoredDecisionRecord` form (v2); a v1 record is this shape stored
 * whole (runs written before v2).
 */
export interface DecisionRecord {
  /** Format version. */
  v: 1;
  /** The candidates scored, in order (the admissible actions after template expansion). */
  candidates: string[];
  /** Index of the chosen candidate; -1 before a choice. */
  chosen: number;
  /** Sampling temperature the logits were divided by. */
  temperature: number;
  /** 1 when a skill was read. */
  condition: 0 | 1;
  /** Word ids per candidate. */
  cand: number[][];
  /** Word ids of the goal, the latest observation and the recent actions. */
  goal: number[];
  obs: number[];
  hist: number[];
  /** Hand-made features per candidate ([C][F]). */
  feats: number[][];
  /** Per skill clause: how far earlier actions already matched it, its pending rank, and ±1 (negated). */
  done: number[];
  rank: number[];
  sign: number[];
  /** Non-zero action–clause similarities as [candidate, clause, similarity]. */
  sims: [number, number, number][];
}

/**
 * A decision as the agent stores it on its step (`info.policy`): a `DecisionRecord` without what the
 * vocabulary rebuilds from the record's own text (the candidates' word ids), and with each candidate's
 * features as the small counts they are computed from, packed into one integer (`packFeatureCounts`). Plain
 * JSON, about 30 % smaller and half as costly to serialise as v1 (fractions like 1.3333333333333333 were
 * most of a run's JSON time); `decodeDecisionRecord` (or `agent.decisionRecord`) gives the exact record.
 */
export interface StoredDecisionRecord {
  v: 2;
  candidates: string[];
  chosen: number;
  temperature: number;
  condition: 0 | 1;
  goal: number[];
  obs: number[];
  hist: number[];
  /** Per candidate, its feature counts packed (`packFeatureCounts`); absent when one did not fit, see `feats`. */
  featureCounts?: number[];
  /** The features themselves, when some candidate's counts do not fit `packFeatureCounts`' fields. */
  feats?: number[][];
  done: number[];
  rank: number[];
  sign: number[];
  sims: [number, number, number][];
}

/** What a candidate's features are computed from (see the encoder): word counts and how often it was taken. */
export interface FeatureCounts {
  /** Content words of the candidate (at least 1). */
  words: number;
  /** Of them: in the goal, in the latest observation, in the goal and in no earlier action, in an earlier action. */
  inGoal: number;
  inObservation: number;
  pending: number;
  inMemory: number;
  /** Times taken before, capped at 3. */
  taken: number;
  /** 1 when it was the last action. */
  last: number;
}

/** Candidate features lie in [0, FEATURE_SCALE]. */
export const FEATURE_SCALE = 4;

/**
 * A candidate's features from its counts: the share of its words in the goal, in the observation, how often it
 * was taken, whether it was the last action, the share the goal names and no earlier action touched yet, and
 * the share in earlier actions, each scaled so that one optimiser step on a feature weight moves a logit by
 * FEATURE_SCALE·lr. The encoder and `decodeDecisionRecord` both compute them here, so a decoded record's
 * features are the very same numbers.
 */
export function featuresOf(c: FeatureCounts): number[] {
  return featureRow(c.words, c.inGoal, c.inObservation, c.pending, c.inMemory, c.taken, c.last);
}

/** `featuresOf` with the counts as arguments (the encoder's hot loop makes no object per candidate). */
export function featureRow(
  words: number,
  inGoal: number,
  inObservation: number,
  pending: number,
  inMemory: number,
  taken: number,
  last: number,
): number[] {
  return [
    (inGoal / words) * FEATURE_SCALE,
    (inObservation / words) * FEATURE_SCALE,
    (taken / 3) * FEATURE_SCALE,
    last * FEATURE_SCALE,
    (pending / words) * FEATURE_SCALE,
    (inMemory / words) * FEATURE_SCALE,
  ];
}

/** The largest word count `packFeatureCounts` holds (5 bits per word count). */
export const MAX_PACKED_WORDS = 31;

/**
 * One integer below 2^28 for a candidate's counts (a small integer serialises several times faster than six
 * fractions): words, inGoal, inObservation, pending, inMemory in 5 bits each, taken in 2, last in 1.
 * Undefined when a count does not fit (more than `MAX_PACKED_WORDS` content words).
 */
export function packFeatureCounts(c: FeatureCounts): number | undefined {
  return packCounts(c.words, c.inGoal, c.inObservation, c.pending, c.inMemory, c.taken, c.last);
}

/** `packFeatureCounts` with the counts as arguments. */
export function packCounts(
  words: number,
  inGoal: number,
  inObservation: number,
  pending: number,
  inMemory: number,
  taken: number,
  last: number,
): number | undefined {
  const w = MAX_PACKED_WORDS + 1;
  if (!(words >= 1 && words <= MAX_PACKED_WORDS && taken <= 3 && last <= 1)) return undefined;
  return (((((words * w + inGoal) * w + inObservation) * w + pending) * w + inMemory) * 4 + taken) * 2 + last;
}

// Few distinct counts occur (a household candidate has at most a handful of content words), far fewer than
// decisions: one row per code instead of one array per candidate of every decision, which lived as long as
// the step's records and was a third of what acting allocated.
const ROWS_KEPT = 4096;
const rowsByCode = new RecentCache<number, readonly number[]>(ROWS_KEPT);

/**
 * The features of packed counts (`featuresOf(unpackFeatureCounts(code))`, the same numbers), one array per
 * code shared by every record that has it: read-only.
 */
export function featureRowOf(code: number): number[] {
  let row = rowsByCode.get(code);
  if (row === undefined) {
    row = featuresOf(unpackFeatureCounts(code));
    rowsByCode.set(code, row);
  }
  return row as number[];
}

export function unpackFeatureCounts(code: number): FeatureCounts {
  const w = MAX_PACKED_WORDS + 1;
  let x = code;
  const take = (base: number) => {
    const v = x % base;
    x = (x - v) / base;
    return v;
  };
  const last = take(2);
  const taken = take(4);
  const inMemory = take(w);
  const pending = take(w);
  const inObservation = take(w);
  const inGoal = take(w);
  return { words: x, inGoal, inObservation, pending, inMemory, taken, last };
}

/** A full record as stored before v2 (its candidates' word ids and features included). */
export function isDecisionRecord(value: unknown): value is DecisionRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Partial<DecisionRecord>;
  return (
    r.v === 1 &&
    Array.isArray(r.candidates) &&
    Array.isArray(r.cand) &&
    Array.isArray(r.feats) &&
    typeof r.chosen === 'number' &&
    r.chosen >= 0 &&
    r.chosen < r.candidates.length &&
    r.cand.length === r.candidates.length
  );
}

/** A v2 record with a choice, as an agent stores it on a step. */
export function isStoredDecisionRecord(value: unknown): value is StoredDecisionRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Partial<StoredDecisionRecord>;
  const C = Array.isArray(r.candidates) ? r.candidates.length : -1;
  return (
    r.v === 2 &&
    C >= 0 &&
    typeof r.chosen === 'number' &&
    r.chosen >= 0 &&
    r.chosen < C &&
    (Array.isArray(r.featureCounts)
      ? r.featureCounts.length === C
      : Array.isArray(r.feats) && r.feats.length === C)
  );
}

/**
 * The network's record of a stored decision: a v1 record as it is, a v2 one with its candidates' word ids
 * from `idsOf` (default: `tokenize` and the vocabulary, as the encoder computes them) and its features from
 * their counts. Undefined for anything that is not a record with a choice.
 */
export function decodeDecisionRecord(
  value: unknown,
  vocabulary: Vocabulary,
  idsOf: (text: string) => number[] = (text) => tokenize(text).map((w) => vocabulary.id(w)),
): DecisionRecord | undefined {
  if (isDecisionRecord(value)) return value;
  if (!isStoredDecisionRecord(value)) return undefined;
  const { v: _v, featureCounts, feats, ...rest } = value;
  return {
    ...rest,
    v: 1,
    cand: value.candidates.map(idsOf),
    feats: featureCounts ? featureCounts.map(featureRowOf) : (feats as number[][]),
  };
}
