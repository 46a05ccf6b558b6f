import { InvalidArgumentError } from '@skillrl/core';

/** Returns the threshold, or the default when it is undefined; rejects values outside [0, 1]. */
export function checkThreshold(component: string, threshold: number | undefined, fallback: number): number {
  if (threshold === undefined) return fallback;
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) {
    throw new InvalidArgumentError(
      `${component} options.threshold`,
      `expected a number in [0, 1], got ${String(threshold)}`,
    );
  }
  return threshold;
}
