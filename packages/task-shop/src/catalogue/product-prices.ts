import type { Rng } from '@skillrl/core';
import type { ShopProduct } from '../product/shop-product.js';

/**
 * WebShop's `generate_product_prices`: the one price, or for a range a uniform draw inside it (fixed for
 * the session), or $100 when the product has none.
 */
export function generateProductPrices(products: readonly ShopProduct[], rng: Rng): Map<string, number> {
  const prices = new Map<string, number>();
  for (const product of products) {
    const [low, high] = product.pricing;
    let price: number;
    if (low === undefined) price = 100.0;
    else if (high === undefined) price = low;
    else price = low + (high - low) * rng.float();
    prices.set(product.asin, price);
  }
  return prices;
}

/** Python's `str(float)` for the prices WebShop prints in tags: `100.0`, `12.99`. */
export function pythonFloatText(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

/** The `Price` tag WebShop shows for a `pricing` list. */
export function priceTag(pricing: readonly number[]): string {
  const [low, high] = pricing;
  if (low === undefined) return '$100.0';
  if (high === undefined) return `$${pythonFloatText(low)}`;
  return `$${pythonFloatText(low)} to $${pythonFloatText(high)}`;
}
