import { expect } from 'vitest';

/** Element-wise closeness of an advantage vector to hand-computed values (12 significant digits). */
export function expectAdvantages(actual: Float64Array, expected: readonly number[]): void {
  expect(actual).toBeInstanceOf(Float64Array);
  expect(actual.length).toBe(expected.length);
  expected.forEach((value, i) => {
    expect(actual[i], `advantage ${i}`).toBeCloseTo(value, 12);
  });
}
