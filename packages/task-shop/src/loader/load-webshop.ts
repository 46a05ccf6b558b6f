import { readFile } from 'node:fs/promises';
import { createRng, InvalidArgumentError, type Seed, ValidationError } from '@skillrl/core';
import { getHumanGoals, getSyntheticGoals } from '../catalogue/build-goals.js';
import { generateProductPrices, pythonFloatText } from '../catalogue/product-prices.js';
import { buildCatalogue, type ShopCatalogue } from '../catalogue/shop-catalogue.js';
import type { HumanInstruction, ShopGoal, ShopProduct, ShopReview } from '../product/shop-product.js';
import { webshopGoalOrder } from '../python-random/python-random.js';
import type { RawWebShopProduct, WebShopAttributeEntry, WebShopReviewEntry } from './raw-webshop-product.js';

export interface WebShopFiles {
  /** `items_shuffle.json` or `items_shuffle_1000.json`: a path, or the parsed array. */
  products: string | RawWebShopProduct[];
  /** `items_ins_v2.json` / `items_ins_v2_1000.json`: ASIN → mined attributes and synthetic instruction. */
  attributes: string | Record<string, WebShopAttributeEntry>;
  /** `items_human_ins.json`: ASIN → human instructions. Needed for human goals. */
  humanInstructions?: string | Record<string, HumanInstruction[]>;
  /** Optional reviews file (`items_reviews*.json`). */
  reviews?: string | WebShopReviewEntry[];
}

export interface LoadWebShopOptions {
  /** Human goals (WebShop's default and the papers' setting) or synthetic goals. Default true. */
  humanGoals?: boolean;
  /** Keep the first N products, as WebShop's `num_products`. */
  numProducts?: number;
  /** Seeds the prices drawn inside price ranges and the goals' price bounds. Default 0. */
  seed?: Seed;
  /**
   * `webshop` (default): goals in the order a WebShop session holds them, `random.seed(233);
   * random.shuffle(goals)` reproduced exactly, so goal i here is goal i there and the baselines' splits
   * (test 0–499, eval 500–1,499) pick the same goals. `file`: the order the files give.
   */
  goalOrder?: 'webshop' | 'file';
}

async function readJson<T>(source: string | T, field: string): Promise<T> {
  if (typeof source !== 'string') return source;
  try {
    return JSON.parse(await readFile(source, 'utf8')) as T;
  } catch (cause) {
    throw new InvalidArgumentError(field, `could not read JSON from ${source}`, { cause });
  }
}

/** `load_products`'s price parsing: every `$` starts a price; non-digits (but `.`) are dropped. */
export function parsePricing(pricing: string | null | undefined): { pricing: number[]; Price: string } {
  if (!pricing) return { pricing: [100.0], Price: '$100.0' };
  const values = pricing
    .split('$')
    .slice(1)
    .map((part) => Number.parseFloat(part.replace(/[^\d.]/g, '')));
  const [low, high] = values;
  if (low === undefined) return { pricing: [100.0], Price: '$100.0' };
  if (high === undefined) return { pricing: [low], Price: `$${pythonFloatText(low)}` };
  return { pricing: [low, high], Price: `$${pythonFloatText(low)} to $${pythonFloatText(high)}` };
}

function requireString(raw: RawWebShopProduct, field: keyof RawWebShopProduct, index: number): string {
  const value = raw[field];
  if (typeof value !== 'string') {
    throw new ValidationError('WebShop product', [
      { path: `products[${index}].${String(field)}`, message: `expected a string, got ${typeof value}` },
    ]);
  }
  return value;
}

/**
 * WebShop's `engine.load_products`: drop ASINs that are `nan` or longer than 10 characters and repeats, copy
 * `name` → `Title`, `full_description` → `Description`, `small_description` → `BulletPoints`, parse prices,
 * lower-case option names and values (`/` → ` | `), attach mined attributes (`DUMMY_ATTR` when missing) and
 * either human instructions or the synthetic instruction.
 */
export async function loadWebShopProducts(
  files: WebShopFiles,
  options: Pick<LoadWebShopOptions, 'humanGoals' | 'numProducts'> = {},
): Promise<ShopProduct[]> {
  const humanGoals = options.humanGoals ?? true;
  let raws = await readJson<RawWebShopProduct[]>(files.products, 'files.products');
  if (!Array.isArray(raws))
    throw new ValidationError('WebShop products file', [
      { path: 'files.products', message: 'expected a JSON array' },
    ]);
  const attributes = await readJson<Record<string, WebShopAttributeEntry>>(
    files.attributes,
    'files.attributes',
  );
  const human = files.humanInstructions
    ? await readJson<Record<string, HumanInstruction[]>>(files.humanInstructions, 'files.humanInstructions')
    : undefined;
  if (humanGoals && !human) {
    throw new InvalidArgumentError(
      'files.humanInstructions',
      'human goals need items_human_ins.json; pass it or set humanGoals: false',
    );
  }
  const reviewRows = files.reviews
    ? await readJson<WebShopReviewEntry[]>(files.reviews, 'files.reviews')
    : [];
  const reviews = new Map(reviewRows.map((row) => [row.asin, row]));
  if (options.numProducts !== undefined) raws = raws.slice(0, options.numProducts);

  const seen = new Set<string>();
  const products: ShopProduct[] = [];
  raws.forEach((raw, index) => {
    const asin = requireString(raw, 'asin', index);
    if (asin === 'nan' || asin.length > 10 || seen.has(asin)) return;
    seen.add(asin);
    const name = requireString(raw, 'name', index);
    const productOptions: Record<string, string[]> = {};
    for (const [optionName, contents] of Object.entries(raw.customization_options ?? {})) {
      if (!contents) continue;
      productOptions[optionName.toLowerCase()] = contents.map((content) =>
        content.value.trim().replace(/\//g, ' | ').toLowerCase(),
      );
    }
    const review = reviews.get(asin);
    const productReviews: ShopReview[] = (review?.reviews ?? []).map((row) => ({
      score: (row.score ?? row.stars ?? '') as number | string,
      title: typeof row.title === 'string' ? row.title : undefined,
      body: typeof row.review === 'string' ? row.review : typeof row.body === 'string' ? row.body : '',
    }));
    const entry = attributes[asin];
    const { pricing, Price } = parsePricing(raw.pricing);
    const product: ShopProduct = {
      asin,
      name,
      Title: name,
      Description: raw.full_description ?? '',
      BulletPoints: Array.isArray(raw.small_description)
        ? raw.small_description
        : [raw.small_description ?? ''],
      Attributes: entry?.attributes ?? ['DUMMY_ATTR'],
      options: productOptions,
      pricing,
      Price,
      query: requireString(raw, 'query', index).toLowerCase().trim(),
      category: requireString(raw, 'category', index),
      product_category: requireString(raw, 'product_category', index),
      Rating: review?.average_rating ?? 'N.A.',
      Reviews: productReviews,
      MainImage: raw.images?.[0],
    };
    if (humanGoals) {
      const rows = human?.[asin];
      if (rows) product.instructions = rows;
    } else {
      product.instruction_text = entry?.instruction ?? null;
      product.instruction_attributes = entry?.instruction_attributes ?? null;
    }
    products.push(product);
  });
  return products;
}

/**
 * The real WebShop data as a catalogue: products as `load_products` builds them, session prices, the BM25
 * index, and goals as `get_human_goals` or `get_synthetic_goals` builds them. Prices inside ranges and the
 * goals' price bounds are drawn from `seed` (WebShop draws them from Python's global random stream, which
 * is not reproduced), so instruction texts can differ from a Python run in the price bound only.
 */
export async function loadWebShop(
  files: WebShopFiles,
  options: LoadWebShopOptions = {},
): Promise<ShopCatalogue> {
  const humanGoals = options.humanGoals ?? true;
  const products = await loadWebShopProducts(files, options);
  const rng = createRng(options.seed ?? 0);
  const prices = generateProductPrices(products, rng.fork('prices'));
  const built = humanGoals
    ? getHumanGoals(products, prices, rng.fork('goals')).goals
    : getSyntheticGoals(products, prices, rng.fork('goals'));
  const goals =
    (options.goalOrder ?? 'webshop') === 'webshop'
      ? webshopGoalOrder(built.length).map((i) => built[i] as ShopGoal)
      : built;
  return buildCatalogue(products, prices, goals);
}
