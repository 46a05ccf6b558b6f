import type { Rng } from '@skillrl/core';
import type { ShopGoal, ShopProduct } from '../product/shop-product.js';

/** WebShop's price bounds: 10, 20, …, 990 dollars. */
export const PRICE_RANGE: readonly number[] = Array.from({ length: 99 }, (_, i) => 10.0 * (i + 1));

/**
 * The price bound of a goal, as WebShop draws it: of the first four bounds above the price, two are sampled
 * and the larger kept; with fewer than two above it, no bound (1,000,000 and no text).
 */
export function samplePriceUpper(price: number, rng: Rng): { price_upper: number; price_text: string } {
  const above = PRICE_RANGE.filter((p) => p > price).slice(0, 4);
  if (above.length < 2) return { price_upper: 1000000, price_text: '' };
  const [first, second] = rng.shuffle(above);
  const price_upper = Math.max(first ?? 0, second ?? 0);
  return { price_upper, price_text: `, and price lower than ${price_upper.toFixed(2)} dollars` };
}

function cartesian(lists: readonly (readonly string[])[]): string[][] {
  let combos: string[][] = [[]];
  for (const list of lists) {
    const next: string[][] = [];
    for (const combo of combos) for (const value of list) next.push([...combo, value]);
    combos = next;
  }
  return combos;
}

/** Python's `sorted` of option names: by code point, which `localeCompare` is not. */
function codePointOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * WebShop's `get_synthetic_goals`: for every product with an instruction, one goal per combination of its
 * option values (option names sorted), the instruction followed by ` with name: value, and name: value` and
 * the price text; `name` is the product's Title; weights are the mean inverse frequency of the attributes.
 */
export function getSyntheticGoals(
  products: readonly ShopProduct[],
  prices: ReadonlyMap<string, number>,
  rng: Rng,
): ShopGoal[] {
  const goals: ShopGoal[] = [];
  const attributeCounts = new Map<string, number>();
  for (const product of products) {
    if (product.instruction_text === undefined || product.instruction_text === null) continue;
    const attributes = product.instruction_attributes ?? [];
    const price = prices.get(product.asin);
    const { price_upper, price_text } =
      price === undefined ? { price_upper: 1000000, price_text: '' } : samplePriceUpper(price, rng);
    const names = Object.keys(product.options).sort(codePointOrder);
    for (const combination of cartesian(names.map((name) => product.options[name] ?? []))) {
      const goal_options: Record<string, string> = {};
      combination.forEach((value, i) => {
        goal_options[names[i] ?? ''] = value;
      });
      const optionText = Object.entries(goal_options)
        .map(([name, value]) => `${name}: ${value}`)
        .join(', and ');
      goals.push({
        asin: product.asin,
        category: product.category,
        query: product.query,
        name: product.Title,
        product_category: product.product_category,
        instruction_text: `${product.instruction_text}${optionText ? ` with ${optionText}` : ''}${price_text}`,
        attributes: [...attributes],
        price_upper,
        goal_options,
        weight: 0,
      });
      for (const attribute of attributes)
        attributeCounts.set(attribute, (attributeCounts.get(attribute) ?? 0) + 1);
    }
  }
  for (const goal of goals) {
    let sum = 0;
    for (const attribute of goal.attributes) sum += 1 / (attributeCounts.get(attribute) ?? 1);
    goal.weight = sum / goal.attributes.length;
  }
  return goals;
}

/**
 * WebShop's `get_human_goals`: one goal per human instruction with at least one attribute (the others are
 * skipped), the instruction stripped of leading and trailing dots plus the price text, options as the list
 * the annotators wrote, weight 1.
 */
export function getHumanGoals(
  products: readonly ShopProduct[],
  prices: ReadonlyMap<string, number> | null,
  rng: Rng,
): { goals: ShopGoal[]; skipped: number } {
  const goals: ShopGoal[] = [];
  let skipped = 0;
  for (const product of products) {
    if (!product.instructions) continue;
    for (const row of product.instructions) {
      if (row.instruction_attributes.length === 0) {
        skipped += 1;
        continue;
      }
      const price = prices?.get(product.asin);
      const { price_upper, price_text } =
        price === undefined ? { price_upper: 1000000, price_text: '' } : samplePriceUpper(price, rng);
      goals.push({
        asin: product.asin,
        category: product.category,
        query: product.query,
        name: product.name,
        product_category: product.product_category,
        instruction_text: row.instruction.replace(/^\.+|\.+$/g, '') + price_text,
        attributes: [...row.instruction_attributes],
        price_upper,
        goal_options: [...row.instruction_options],
        weight: 1,
      });
    }
  }
  return { goals, skipped };
}
