import { createRng, InvalidArgumentError, type Seed } from '@skillrl/core';

/** WebShop's own splits, as its baselines cut the shuffled goal list: test 0–499, eval 500–1499, train the rest. */
export const SHOP_SPLITS = ['train', 'eval', 'test'] as const;
export type ShopSplit = (typeof SHOP_SPLITS)[number];

/**
 * Where the splits start and end. WebShop's cuts (500 test, 1,000 eval) assume its 12,087 human goals; with
 * fewer than 5,000 goals they would leave little or nothing to train on, so there they shrink to 10 % and 20 %
 * of the goals (at 5,000 or more, both rules give WebShop's numbers).
 */
export function splitBoundaries(goalCount: number): Record<ShopSplit, [number, number]> {
  const test = Math.min(500, Math.floor(goalCount * 0.1));
  const evalEnd = test + Math.min(1000, Math.floor(goalCount * 0.2));
  return { test: [0, test], eval: [test, evalEnd], train: [evalEnd, goalCount] };
}

/**
 * The goal indices of a split, cut at the split boundaries: from the goals shuffled by `seed`, or, with
 * `seed` null, from the goals in their own order (a loaded catalogue already holds WebShop's order).
 */
export function splitGoalIndices(goalCount: number, split: string, seed: Seed | null): number[] {
  const range = (splitBoundaries(goalCount) as Record<string, [number, number] | undefined>)[split];
  if (!range) {
    throw new InvalidArgumentError('split', `expected one of ${SHOP_SPLITS.join(', ')}, got "${split}"`);
  }
  const indices = Array.from({ length: goalCount }, (_, i) => i);
  const order = seed === null ? indices : createRng(seed).fork('goal-order').shuffle(indices);
  return order.slice(range[0], range[1]);
}
