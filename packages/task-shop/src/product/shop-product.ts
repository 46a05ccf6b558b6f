/**
 * A product as WebShop's `engine.load_products` leaves it: the raw scrape's fields plus the derived ones the
 * reward and the pages read (`Title`, `Description`, `BulletPoints`, `Attributes`, `options`, `pricing`,
 * `Price`). Field names are WebShop's own so a product loaded from the real files and a generated one are
 * interchangeable.
 */
export interface ShopProduct {
  asin: string;
  /** The scraped product name; WebShop copies it into `Title`. */
  name: string;
  Title: string;
  /** `full_description` in the raw file. */
  Description: string;
  /** `small_description` in the raw file (a list, or one string wrapped into a list). */
  BulletPoints: string[];
  /** Mined attributes (WebShop's `items_ins_v2` file); `['DUMMY_ATTR']` when the file has none. */
  Attributes: string[];
  /** Option name (lower case) to its values (lower case, `/` written as ` | `). */
  options: Record<string, string[]>;
  /** One price, or a `[low, high]` range. */
  pricing: number[];
  /** The price tag the pages show: `$12.99` or `$5.99 to $10.99`. */
  Price: string;
  /** The search query the product was scraped under, lower-cased and trimmed. */
  query: string;
  /** One of WebShop's five top-level categories (beauty, food, fashion, furniture, electronics). */
  category: string;
  /** Amazon's breadcrumb, items separated by ` › `. */
  product_category: string;
  Rating: number | string;
  Reviews: ShopReview[];
  MainImage?: string;
  /** Synthetic-goal fields (from the attributes file): the instruction and the attributes it names. */
  instruction_text?: string | null;
  instruction_attributes?: string[] | null;
  /** Human-goal fields (from `items_human_ins.json`). */
  instructions?: HumanInstruction[];
}

export interface ShopReview {
  score: number | string;
  title?: string;
  body: string;
}

/** One row of WebShop's `items_human_ins.json`. */
export interface HumanInstruction {
  instruction: string;
  instruction_attributes: string[];
  instruction_options: string[];
  [key: string]: unknown;
}

/** A goal exactly as WebShop's `goal.py` builds it. */
export interface ShopGoal {
  asin: string;
  category: string;
  query: string;
  /** The product type the reward's noun overlap compares against (synthetic goals: the product's Title). */
  name: string;
  product_category: string;
  instruction_text: string;
  attributes: string[];
  price_upper: number;
  /** Synthetic goals: option name to value; human goals: a list of option values. */
  goal_options: Record<string, string> | string[];
  weight: number;
}

/** The fields of a product that `get_type_reward` reads. */
export type TypedProduct = Pick<ShopProduct, 'query' | 'product_category' | 'name'>;

/**
 * The fields of a product that `get_attribute_reward` reads. `Title`, `BulletPoints` and `Description` are read
 * only for a goal attribute that no product attribute matches, so they may be absent when every attribute
 * matches (as in WebShop's own tests). `BulletPoints` may be one string, as WebShop's tests pass it; it is then
 * read with Python's `' '.join(string)` semantics (its characters joined by spaces).
 */
export interface AttributedProduct {
  Attributes: readonly string[];
  Title?: string;
  BulletPoints?: string | readonly string[];
  Description?: string;
}

/** The fields of a product the reward reads; a `ShopProduct` is one. */
export type PurchasedProduct = TypedProduct & AttributedProduct;

/** The fields of a goal the reward reads. */
export type RewardGoal = Pick<
  ShopGoal,
  'query' | 'product_category' | 'name' | 'attributes' | 'goal_options' | 'price_upper'
>;
