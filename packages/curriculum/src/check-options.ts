import { InvalidArgumentError } from '@skillrl/core';

/** Throws an error naming the option unless `value` is a finite number in [min, max]. */
export function checkNumber(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new InvalidArgumentError(
      `options.${name}`,
      `expected a number in [${min}, ${max}], got ${String(value)}`,
    );
  }
  return value;
}

export function checkFamilies(families: unknown): string[] {
  if (
    !Array.isArray(families) ||
    families.length === 0 ||
    families.some((f) => typeof f !== 'string' || !f)
  ) {
    throw new InvalidArgumentError(
      'options.families',
      "expected a non-empty list of skill types (task families), e.g. the adapter's `families`",
    );
  }
  if (new Set(families).size !== families.length) {
    throw new InvalidArgumentError('options.families', 'contains the same family twice');
  }
  return [...families] as string[];
}

export const clip01 = (x: number): number => (x < 0 ? 0 : Math.min(x, 1));
