import { createRng } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { generateCatalogue } from '../catalogue/generate-catalogue.js';
import type { ShopCatalogue } from '../catalogue/shop-catalogue.js';
import { ShopEnvironment } from '../env/shop-environment.js';
import type { ShopGoal } from '../product/shop-product.js';
import { expertActions } from './expert-actions.js';

function playExpert(catalogue: ShopCatalogue, goal: ShopGoal): number {
  const env = new ShopEnvironment({ catalogue, goal });
  env.reset();
  const actions = expertActions(goal, catalogue);
  expect(actions.length).toBeLessThanOrEqual(env.maxSteps);
  let reward = -1;
  for (const action of actions) {
    const result = env.step(action);
    expect(result.info?.valid, action).toBe(true);
    if (result.done) reward = result.reward;
  }
  return reward;
}

describe('expertActions', () => {
  it('scores 1.0 on a sampled goal of each of 1,000 seeds (small catalogues)', () => {
    const failures: string[] = [];
    for (let seed = 0; seed < 1000; seed++) {
      const catalogue = generateCatalogue({ seed, products: 12 });
      const rng = createRng(seed).fork('expert-test');
      const goal = rng.pick(catalogue.goals);
      const reward = playExpert(catalogue, goal);
      if (reward !== 1) failures.push(`seed ${seed} ${goal.asin}: ${reward}`);
    }
    expect(failures).toEqual([]);
  });

  it('scores 1.0 on 1,000 goals of 300-product catalogues with many distractors', () => {
    // One catalogue per seed would rebuild 1,000 indexes; 10 catalogues × 100 sampled goals cover 1,000
    // (catalogue seed, goal) pairs while keeping the suite fast.
    let episodes = 0;
    const failures: string[] = [];
    for (let seed = 0; seed < 10; seed++) {
      const catalogue = generateCatalogue({ seed, products: 300 });
      const step = Math.max(1, Math.floor(catalogue.goals.length / 100));
      for (let i = 0; i < catalogue.goals.length && episodes < (seed + 1) * 100; i += step) {
        const goal = catalogue.goals[i];
        if (!goal) continue;
        const reward = playExpert(catalogue, goal);
        if (reward !== 1) failures.push(`seed ${seed} goal ${i}: ${reward}`);
        episodes += 1;
      }
    }
    expect(episodes).toBe(1000);
    expect(failures).toEqual([]);
  });
});
