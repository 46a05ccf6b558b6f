import type { EstimateOptions } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';

/**
 * The array an estimator writes its advantages into: the caller's `options.out` when given (checked, and
 * cleared unless the estimator writes every entry itself), else a fresh one. Reusing one output across
 * training steps spares faulting in a fresh array each call, which dominates on large batches.
 */
export function outputArray(
  component: string,
  size: number,
  options: EstimateOptions | undefined,
  writesEveryEntry = false,
): Float64Array {
  const out = options?.out;
  if (out === undefined) return new Float64Array(size);
  if (!(out instanceof Float64Array)) {
    throw new InvalidArgumentError(
      'options.out',
      `${component}: expected a Float64Array to write the advantages into, got ${describe(out)}`,
    );
  }
  if (out.length !== size) {
    throw new InvalidArgumentError(
      'options.out',
      `${component}: expected length ${size} (one entry per sample), got ${out.length}; allocate new Float64Array(${size})`,
    );
  }
  if (!writesEveryEntry) out.fill(0);
  return out;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return (value as object).constructor?.name ?? 'an object';
}
