import type { AdvantageBatch } from '@skillrl/core';
import { InvalidArgumentError, MissingFieldError } from '@skillrl/core';

/** Per-sample fields of a batch besides `scores`, each of which must have one entry per score when present. */
const PER_SAMPLE_FIELDS = [
  'groupIds',
  'instanceIds',
  'generations',
  'conditions',
  'families',
  'lengths',
  'baselines',
  'stepRewards',
  'stepKeys',
  'successes',
  'attributionStrengths',
  'interGenerationWeights',
] as const;

export type BatchField = 'scores' | (typeof PER_SAMPLE_FIELDS)[number];

/** A checked batch: equal lengths everywhere, scores as a `Float64Array` the hot loops can read fast. */
export interface CheckedBatch {
  readonly batch: AdvantageBatch;
  readonly size: number;
  /** The scores; anything that is not a number (null, undefined, a string) reads as NaN, i.e. non-finite. */
  readonly scores: Float64Array;
}

function toFloat64(values: ArrayLike<unknown>): Float64Array {
  // A Float64Array is used as is (never written to): no copy on the fast path.
  if (values instanceof Float64Array) return values;
  const out = new Float64Array(values.length);
  for (let i = 0; i < out.length; i++) {
    const v = values[i];
    out[i] = typeof v === 'number' ? v : Number.NaN;
  }
  return out;
}

function isArrayLike(value: unknown): value is ArrayLike<unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { length?: unknown }).length === 'number' &&
    Number.isInteger((value as { length: number }).length)
  );
}

/**
 * Checks the shape every estimator relies on: `scores` and `groupIds` present, and every per-sample field
 * that is present of the same length. Fields an estimator needs beyond these are checked with `requireField`.
 */
export function readBatch(batch: AdvantageBatch, component: string): CheckedBatch {
  if (batch === null || typeof batch !== 'object') {
    throw new InvalidArgumentError('batch', `${component}: expected an object with scores and groupIds`);
  }
  if (batch.scores === undefined || batch.scores === null) throw new MissingFieldError(component, 'scores');
  if (!isArrayLike(batch.scores)) {
    throw new InvalidArgumentError(
      'batch.scores',
      `${component}: expected an array or typed array of numbers`,
    );
  }
  const size = batch.scores.length;
  for (const field of PER_SAMPLE_FIELDS) {
    const value = batch[field];
    if (value === undefined || value === null) {
      if (field === 'groupIds') {
        throw new MissingFieldError(component, 'groupIds', 'give each sample the id of its group (its task)');
      }
      continue;
    }
    if (!isArrayLike(value)) {
      throw new InvalidArgumentError(
        `batch.${field}`,
        `${component}: expected an array with one entry per sample`,
      );
    }
    if (value.length !== size) {
      throw new InvalidArgumentError(
        `batch.${field}`,
        `${component}: expected ${size} entries (one per score), got ${value.length}`,
      );
    }
  }
  return { batch, size, scores: toFloat64(batch.scores) };
}

/** The batch field an estimator cannot work without; throws `MissingFieldError` naming it when absent. */
export function requireField<F extends Exclude<BatchField, 'scores' | 'groupIds'>>(
  checked: CheckedBatch,
  field: F,
  component: string,
  hint?: string,
): NonNullable<AdvantageBatch[F]> {
  const value = checked.batch[field];
  if (value === undefined || value === null) throw new MissingFieldError(component, field, hint);
  return value as NonNullable<AdvantageBatch[F]>;
}

/** A numeric per-sample field as a `Float64Array` (non-numbers read as NaN). */
export function numericField(values: ArrayLike<unknown>): Float64Array {
  return toFloat64(values);
}
