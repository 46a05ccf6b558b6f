import { computeBatchMoments } from '../group/group-moments.js';

/**
 * Whitening over the whole batch as verl's `masked_whiten` does it: subtract the mean, divide by
 * sqrt(unbiased variance + epsilon) (epsilon inside the root, 1e-8 by default). Non-finite entries are left
 * out of the mean and variance and come out as 0. Works in place.
 */
export function whitenInPlace(values: Float64Array, epsilon: number): { mean: number; std: number } {
  const { count, mean, m2 } = computeBatchMoments(values);
  const variance = count > 1 ? m2 / (count - 1) : 0;
  const root = Math.sqrt(variance + epsilon);
  const inv = root === 0 ? 1 : 1 / root;
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    values[i] = x - x === 0 ? (x - mean) * inv : 0;
  }
  return { mean: count === 0 ? 0 : mean, std: Math.sqrt(variance) };
}
