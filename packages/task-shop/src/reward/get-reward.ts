import { InvalidArgumentError } from '@skillrl/core';
import type { PurchasedProduct, RewardGoal } from '../product/shop-product.js';
import { getAttributeReward } from './get-attribute-reward.js';
import { getOptionReward } from './get-option-reward.js';
import { getTypeReward, type TypeReward } from './get-type-reward.js';
import type { OptionValue } from './normalize-color.js';

export interface RewardInfo extends TypeReward {
  r_att: number;
  w_att: number;
  r_option?: number;
  w_option?: number;
  r_price?: boolean;
  w_price?: number;
}

/** The goal's options in the shape `get_reward` passes them: `dict.items()` pairs, or the list as is. */
export function goalOptionValues(goalOptions: RewardGoal['goal_options']): OptionValue[] {
  if (Array.isArray(goalOptions)) return [...goalOptions];
  return Object.entries(goalOptions).map(([name, value]) => [name, value] as const);
}

/**
 * Port of `get_reward(purchased_product, goal, price, options)`:
 * `r_type · (attribute matches + option matches + [price ≤ price_upper]) / (|attributes| + |goal_options| + 1)`.
 * `options` is the chosen option name → value map; only its values are compared, in insertion order.
 */
export function getReward(
  purchased: PurchasedProduct,
  goal: RewardGoal,
  price: number,
  options: Record<string, string>,
): number {
  return getRewardWithInfo(purchased, goal, price, options).reward;
}

/** `get_reward(..., verbose=True)`: the reward and its parts under WebShop's names. */
export function getRewardWithInfo(
  purchased: PurchasedProduct,
  goal: RewardGoal,
  price: number,
  options: Record<string, string>,
): { reward: number; info: RewardInfo } {
  if (!(goal.price_upper > 0)) {
    // WebShop would add None to an int here and crash; say so instead.
    throw new InvalidArgumentError('goal.price_upper', `expected a number > 0, got ${goal.price_upper}`);
  }
  const typeReward = getTypeReward(purchased, goal);
  const r_price = price <= goal.price_upper;
  const [r_att, attrMatches] = getAttributeReward(purchased, goal);
  const goalOptions = goalOptionValues(goal.goal_options);
  const [r_option, optionMatches] = getOptionReward(Object.values(options), goalOptions);
  const denominator = goal.attributes.length + goalOptions.length + 1;
  // Same operation order as WebShop (divide, then scale) so floating-point results agree bit for bit.
  const reward = ((attrMatches + optionMatches + (r_price ? 1 : 0)) / denominator) * typeReward.r_type;
  const info: RewardInfo = { ...typeReward, r_att, w_att: goal.attributes.length / denominator };
  if (r_option !== null) {
    info.r_option = r_option;
    info.w_option = goalOptions.length / denominator;
  }
  info.r_price = r_price;
  info.w_price = 1 / denominator;
  return { reward, info };
}
