/**
 * Everything needed to recompute one decision's action probabilities from the weights, without the task,
 * the skill text or the environment. The agent stores it on the step (`info.policy`); it is plain JSON, so
 * trajectories stay JSON-serialisable and a trainer in another process can replay them.
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
