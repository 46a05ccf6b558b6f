/**
 * The arithmetic mean of `xs`, 0 for an empty list: a generation's mean reward, a final evaluation's, a
 * report's per-generation metric. One definition, so an empty group means the same everywhere.
 */
export function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}
