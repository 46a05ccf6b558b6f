import type { Task, Trajectory, Verdict, Verifier } from '@skillrl/core';
import type { ShopCatalogue } from '../catalogue/shop-catalogue.js';
import type { ShopPurchase } from '../env/shop-environment.js';
import type { ShopGoal } from '../product/shop-product.js';
import { getRewardWithInfo } from '../reward/get-reward.js';

function isPurchase(value: unknown): value is ShopPurchase {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.asin === 'string' && typeof v.price === 'number' && typeof v.options === 'object';
}

/**
 * Scores a trajectory by its purchase: WebShop's reward for the bought product and options (recomputed from
 * the goal when the step recorded the purchase, else the step's own reward). Passed means reward 1, WebShop's
 * "success". No purchase scores 0.
 */
export function createShopVerifier(
  goalOf: (task: Task) => ShopGoal,
  catalogueOf: (task: Task) => ShopCatalogue | undefined,
): Verifier {
  return {
    name: 'webshop-reward',
    verify(task: Task, trajectory: Trajectory): Verdict {
      const last = [...trajectory.steps].reverse().find((step) => step.done);
      if (!last) return { score: 0, passed: false, reason: 'no purchase: the episode ended without buy now' };
      // The environment's info, as the episode runner records it (core's TrajectoryStep.info).
      const purchase = last.info?.env?.purchase;
      let reward = last.reward;
      let details: Record<string, unknown> = {};
      const catalogue = catalogueOf(task);
      const product = isPurchase(purchase) ? catalogue?.byAsin.get(purchase.asin) : undefined;
      if (isPurchase(purchase) && product) {
        const result = getRewardWithInfo(product, goalOf(task), purchase.price, purchase.options);
        reward = result.reward;
        details = { purchase, ...result.info };
      }
      const score = Math.min(1, Math.max(0, reward));
      return {
        score,
        passed: reward === 1,
        reason: reward === 1 ? 'bought the goal product with every requested option' : `reward ${reward}`,
        details,
      };
    },
  };
}
