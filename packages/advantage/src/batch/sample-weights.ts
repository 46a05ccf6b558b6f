import type { AdvantageBatch } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import type { CheckedBatch } from './read-batch.js';

/** A method's per-sample weight field: SKILLC's λ_k or Skill-R1's weight of A_inter. */
export type SampleWeightField = 'attributionStrengths' | 'interGenerationWeights';

/**
 * The batch's `field` as one checked weight per sample (finite, >= 0), else undefined. Lengths were checked
 * with the other per-sample fields. `meaning` completes the error message.
 */
export function readSampleWeights(
  checked: CheckedBatch,
  field: SampleWeightField,
  component: string,
  meaning: string,
): Float64Array | undefined {
  const batch: AdvantageBatch = checked.batch;
  const values = batch[field];
  if (values === undefined || values === null) return undefined;
  const out = new Float64Array(checked.size);
  for (let i = 0; i < checked.size; i++) {
    const v: unknown = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
      throw new InvalidArgumentError(
        `batch.${field}[${i}]`,
        `${component}: expected a finite number >= 0 (${meaning}), got ${String(v)}`,
      );
    }
    out[i] = v;
  }
  return out;
}
