import type { RewardGoal, TypedProduct } from '../product/shop-product.js';
import { titleNouns } from './title-nouns.js';

export interface TypeReward {
  r_type: number;
  query_match: boolean;
  category_match: boolean;
  title_score: number;
}

function categoryItems(productCategory: string): Set<string> {
  return new Set(productCategory.split('›').map((item) => item.trim()));
}

/**
 * Port of `get_type_reward`: is the purchase the same kind of product? Same query, or at least two shared
 * breadcrumb items, or a noun overlap above 0.2 keeps 1.0; otherwise 0.5; a noun overlap under 0.1 gives
 * 0.1 and none at all 0 — those two override the query and category matches, as in WebShop.
 */
export function getTypeReward(
  purchased: TypedProduct,
  goal: Pick<RewardGoal, 'query' | 'product_category' | 'name'>,
): TypeReward {
  const query_match = purchased.query === goal.query;

  const goalItems = categoryItems(goal.product_category);
  let shared = 0;
  for (const item of categoryItems(purchased.product_category)) if (goalItems.has(item)) shared += 1;
  const category_match = shared >= 2;

  const purchasedNouns = new Set(titleNouns(purchased.name));
  const desiredNouns = titleNouns(goal.name);
  const desiredSet = new Set(desiredNouns);
  let intersect = 0;
  for (const noun of desiredSet) if (purchasedNouns.has(noun)) intersect += 1;
  // WebShop divides the set intersection by the length of the *list* of desired nouns (repeats count).
  const title_score = desiredNouns.length === 0 ? 0.2 : intersect / desiredNouns.length;

  let r_type = 1.0;
  if (!(query_match || category_match || title_score > 0.2)) r_type = 0.5;
  if (title_score < 0.1) r_type = 0.1;
  if (title_score === 0) r_type = 0.0;
  return { r_type, query_match, category_match, title_score };
}
