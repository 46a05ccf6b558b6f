import type { AdvantageBatch, Rng } from '@skillrl/core';

/** The part of a batch the suite generates; a builder adds whatever else the estimator needs. */
export interface BaseBatch {
  scores: number[];
  groupIds: Array<string | number>;
}

/**
 * Adds the fields an estimator needs (conditions, generations, lengths...) to a generated base batch. It must
 * derive them from positions, group ids and `rng` — never from the scores — so that the isolation check
 * can change one group's scores and nothing else. The suite passes an `rng` seeded the same way for the
 * same base shape.
 */
export type BatchBuilder = (base: BaseBatch, rng: Rng) => AdvantageBatch;

/**
 * A random batch: 1–6 groups of 1–8 samples, samples of different groups interleaved, scores binary,
 * uniform, or small integers (with ties and constant groups), group ids numbers or strings.
 */
export function randomBaseBatch(rng: Rng, caseIndex: number): BaseBatch {
  const groups = 1 + rng.int(6);
  const kind = rng.int(3);
  const stringIds = caseIndex % 2 === 1;
  const samples: Array<{ score: number; group: string | number }> = [];
  for (let g = 0; g < groups; g++) {
    const size = 1 + rng.int(8);
    const id = stringIds ? `task-${g}` : g * 3 + 1;
    const constant = rng.bernoulli(0.15);
    const base = rng.float();
    for (let k = 0; k < size; k++) {
      const score = constant ? base : kind === 0 ? rng.int(2) : kind === 1 ? rng.float() : rng.int(-2, 4);
      samples.push({ score, group: id });
    }
  }
  const shuffled = rng.shuffle(samples);
  return { scores: shuffled.map((s) => s.score), groupIds: shuffled.map((s) => s.group) };
}

/** Distinct group ids in order of first appearance. */
export function groupsOf(base: BaseBatch): Array<string | number> {
  return [...new Set(base.groupIds)];
}

/** The same batch restricted to the samples at `keep`: every per-sample field is subset alike. */
export function subsetBatch(batch: AdvantageBatch, keep: readonly number[]): AdvantageBatch {
  const size = batch.scores.length;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(batch)) {
    const perSample =
      value !== null &&
      typeof value === 'object' &&
      typeof (value as ArrayLike<unknown>).length === 'number' &&
      (value as ArrayLike<unknown>).length === size;
    out[key] = perSample ? keep.map((i) => (value as ArrayLike<unknown>)[i]) : value;
  }
  return out as unknown as AdvantageBatch;
}

/** A deep copy of a batch's arrays as plain arrays, to detect an estimator writing into its input. */
export function snapshotBatch(batch: AdvantageBatch): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(batch)) {
    out[key] =
      value !== null && typeof value === 'object' && typeof (value as ArrayLike<unknown>).length === 'number'
        ? Array.from(value as ArrayLike<unknown>, (v) =>
            v !== null && typeof v === 'object' ? Array.from(v as ArrayLike<unknown>) : v,
          )
        : value;
  }
  return out;
}
