/** One product of WebShop's `items_shuffle*.json` (the fields `load_products` reads). */
export interface RawWebShopProduct {
  asin: string;
  name: string;
  full_description: string;
  small_description: string | string[];
  /** `$12.99`, or two prices such as `$5.99 - $10.99`; empty or missing means none. */
  pricing?: string | null;
  customization_options?: Record<string, { value: string; image?: string | null }[] | null> | null;
  images: string[];
  query: string;
  category: string;
  product_category: string;
  [key: string]: unknown;
}

/** One entry of WebShop's `items_ins_v2*.json`, keyed by ASIN. */
export interface WebShopAttributeEntry {
  attributes?: string[];
  instruction?: string | null;
  instruction_attributes?: string[] | null;
  [key: string]: unknown;
}

/** One entry of WebShop's reviews file, when a user has it. */
export interface WebShopReviewEntry {
  asin: string;
  reviews: Record<string, unknown>[];
  average_rating: number | string;
}
