import type { PurchasedProduct, RewardGoal } from '../product/shop-product.js';
import { tokenSetRatio } from './token-set-ratio.js';

/**
 * Port of `get_attribute_reward` → `[r_attr, num_attr_matches]`. A goal attribute matches when some product
 * attribute has token-set ratio > 85, or else when it is a substring of the lower-cased title, bullet points
 * (joined by spaces) or description. Like WebShop, an empty goal attribute list divides by zero (NaN here).
 */
export function getAttributeReward(purchased: PurchasedProduct, goal: RewardGoal): [number, number] {
  const title = purchased.Title.toLowerCase();
  const bullets = purchased.BulletPoints.join(' ').toLowerCase();
  const description = purchased.Description.toLowerCase();
  let matches = 0;
  for (const goalAttr of goal.attributes) {
    let matched = false;
    for (const productAttr of purchased.Attributes) {
      if (tokenSetRatio(productAttr, goalAttr) > 85) {
        matches += 1;
        matched = true;
        break;
      }
    }
    if (
      !matched &&
      (title.includes(goalAttr) || bullets.includes(goalAttr) || description.includes(goalAttr))
    ) {
      matches += 1;
    }
  }
  return [matches / goal.attributes.length, matches];
}
