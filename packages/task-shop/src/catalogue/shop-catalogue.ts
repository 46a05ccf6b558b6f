import type { ShopGoal, ShopProduct } from '../product/shop-product.js';
import { Bm25Index, type Bm25Options } from '../search/bm25-index.js';

/** Products, their session prices, the search index and the goals: everything an episode reads. */
export interface ShopCatalogue {
  products: ShopProduct[];
  byAsin: Map<string, ShopProduct>;
  prices: Map<string, number>;
  index: Bm25Index;
  attributeToAsins: Map<string, Set<string>>;
  goals: ShopGoal[];
}

/**
 * The text WebShop indexes per product (`search_engine/convert_product_file_format.py`): title, description,
 * first bullet point and `name: v1, v2, and name: …` option text, lower-cased.
 */
export function searchDocument(product: ShopProduct): string {
  const optionText = Object.entries(product.options)
    .map(([name, values]) => `${name}: ${values.join(', ')}`)
    .join(', and ');
  return [product.Title, product.Description, product.BulletPoints[0] ?? '', optionText]
    .join(' ')
    .toLowerCase();
}

export function buildCatalogue(
  products: ShopProduct[],
  prices: Map<string, number>,
  goals: ShopGoal[],
  bm25?: Bm25Options,
): ShopCatalogue {
  const index = new Bm25Index(bm25);
  const byAsin = new Map<string, ShopProduct>();
  const attributeToAsins = new Map<string, Set<string>>();
  for (const product of products) {
    byAsin.set(product.asin, product);
    index.add(product.asin, searchDocument(product));
    for (const attribute of product.Attributes) {
      let set = attributeToAsins.get(attribute);
      if (!set) {
        set = new Set();
        attributeToAsins.set(attribute, set);
      }
      set.add(product.asin);
    }
  }
  return { products, byAsin, prices, index, attributeToAsins, goals };
}
