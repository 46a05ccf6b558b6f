import { createRng, InvalidArgumentError, type Rng, type Seed } from '@skillrl/core';
import type { ShopProduct } from '../product/shop-product.js';
import { getSyntheticGoals } from './build-goals.js';
import { BRAND_SYLLABLES, PRODUCT_KINDS, type ProductKind } from './product-kinds.js';
import { generateProductPrices, priceTag } from './product-prices.js';
import { buildCatalogue, type ShopCatalogue } from './shop-catalogue.js';

export interface GenerateCatalogueOptions {
  seed?: Seed;
  /** Number of products. Default 1000, the size of WebShop's small product set. */
  products?: number;
  /** Products per family: one product plus up to `familySize − 1` distractors. Default 3. */
  familySize?: number;
}

const ASIN_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function titleCase(text: string): string {
  return text.replace(/(^|[\s-])([a-z])/g, (_, sep: string, ch: string) => sep + ch.toUpperCase());
}

function article(phrase: string): string {
  return /^[aeiou]/.test(phrase) ? 'an' : 'a';
}

function brand(rng: Rng): string {
  const parts = 2 + rng.int(2);
  let name = '';
  for (let i = 0; i < parts; i++) name += rng.pick(BRAND_SYLLABLES);
  return titleCase(name);
}

function asin(rng: Rng, used: Set<string>): string {
  for (;;) {
    let id = 'B0';
    for (let i = 0; i < 8; i++) id += ASIN_CHARS[rng.int(ASIN_CHARS.length)];
    if (!used.has(id)) {
      used.add(id);
      return id;
    }
  }
}

function sample<T>(rng: Rng, items: readonly T[], count: number): T[] {
  return rng.shuffle(items).slice(0, Math.max(0, Math.min(count, items.length)));
}

/** Keeps the pool's order so titles read naturally and generation is independent of shuffle details. */
function inPoolOrder(pool: readonly string[], chosen: readonly string[]): string[] {
  return pool.filter((item) => chosen.includes(item));
}

function roundPrice(value: number): number {
  return Math.floor(value) + 0.99;
}

function instructionText(rng: Rng, kind: ProductKind, attrs: readonly string[]): string {
  const [a, b, c] = attrs;
  const noun = kind.noun;
  if (attrs.length === 1) {
    return rng.pick([
      `i need ${article(noun)} ${noun} which is ${a}`,
      `i am looking for ${article(a ?? '')} ${a} ${noun}`,
      `i want to buy ${article(noun)} ${noun} that is ${a}`,
    ]);
  }
  if (attrs.length === 2) {
    return rng.pick([
      `i need ${article(a ?? '')} ${a} ${noun} which is ${b}`,
      `i am looking for ${article(noun)} ${noun} that is ${a} and ${b}`,
      `find me ${article(a ?? '')} ${a}, ${b} ${noun}`,
    ]);
  }
  return rng.pick([
    `i need ${article(a ?? '')} ${a} ${noun} which is ${b} and ${c}`,
    `i am looking for ${article(noun)} ${noun} that is ${a}, ${b} and ${c}`,
  ]);
}

function makeProduct(
  rng: Rng,
  kind: ProductKind,
  attributes: string[],
  options: Record<string, string[]>,
  used: Set<string>,
): ShopProduct {
  const maker = brand(rng);
  const [first, second] = attributes;
  const title = `${maker} ${titleCase(kind.noun)}${first ? `, ${titleCase(first)}` : ''}${second ? ` and ${titleCase(second)}` : ''}`;
  const rest = attributes.slice(2);
  const description =
    `The ${maker} ${kind.noun} is made for everyday use.` +
    (rest.length > 0 ? ` It is ${rest.join(', ')}.` : '') +
    ' Backed by our customer care team and shipped in recyclable packaging.';
  const bullets = [
    ...attributes.map((attribute) => `${titleCase(attribute)}: chosen by customers who care about quality`),
    `Includes 1 ${kind.noun} from ${maker}`,
  ];
  const [low, high] = kind.price;
  const base = roundPrice(low + (high - low) * rng.float());
  const pricing = rng.bernoulli(0.25) ? [base, roundPrice(base * (1.2 + 0.5 * rng.float()))] : [base];
  const instruction_attributes = sample(rng, attributes, 1 + rng.int(Math.min(3, attributes.length)));
  const ordered = inPoolOrder(kind.attributes, instruction_attributes);
  return {
    asin: asin(rng, used),
    name: title,
    Title: title,
    Description: description,
    BulletPoints: bullets,
    Attributes: attributes,
    options,
    pricing,
    Price: priceTag(pricing),
    query: kind.query,
    category: kind.category,
    product_category: kind.product_category,
    Rating: 'N.A.',
    Reviews: [],
    instruction_text: instructionText(rng, kind, ordered),
    instruction_attributes: ordered,
  };
}

function sampleOptions(rng: Rng, kind: ProductKind): Record<string, string[]> {
  const options: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(kind.options)) {
    // One to four values per option: about seven goals per product, WebShop's ratio (6,910 from 1,000).
    options[name] = inPoolOrder(values, sample(rng, values, 1 + rng.int(4)));
  }
  return options;
}

/**
 * Products in families: a product and distractors of the same kind that swap one or two of its attributes
 * for others from the pool and offer a different subset of option values, so a search for the right words
 * returns near misses. Every product carries an instruction, as in WebShop's small set, so every product
 * is also a goal, and its siblings are the distractors for it.
 */
export function generateProducts(options: GenerateCatalogueOptions = {}): ShopProduct[] {
  const count = options.products ?? 1000;
  const familySize = options.familySize ?? 3;
  if (!Number.isInteger(count) || count < 1) {
    throw new InvalidArgumentError('options.products', `expected an integer >= 1, got ${count}`);
  }
  if (!Number.isInteger(familySize) || familySize < 1) {
    throw new InvalidArgumentError('options.familySize', `expected an integer >= 1, got ${familySize}`);
  }
  const rng = createRng(options.seed ?? 0).fork('products');
  const used = new Set<string>();
  const products: ShopProduct[] = [];
  while (products.length < count) {
    const kind = rng.pick(PRODUCT_KINDS);
    const base = sample(rng, kind.attributes, 3 + rng.int(2));
    products.push(makeProduct(rng, kind, inPoolOrder(kind.attributes, base), sampleOptions(rng, kind), used));
    const siblings = rng.int(familySize);
    for (let i = 0; i < siblings && products.length < count; i++) {
      const spare = kind.attributes.filter((attribute) => !base.includes(attribute));
      const dropped = new Set(sample(rng, base, 1 + rng.int(2)));
      const kept = base.filter((attribute) => !dropped.has(attribute));
      const attrs = inPoolOrder(kind.attributes, [...kept, ...sample(rng, spare, dropped.size)]);
      products.push(makeProduct(rng, kind, attrs, sampleOptions(rng, kind), used));
    }
  }
  return products;
}

/** A seeded catalogue: products, session prices, BM25 index, and WebShop-style synthetic goals. */
export function generateCatalogue(options: GenerateCatalogueOptions = {}): ShopCatalogue {
  const products = generateProducts(options);
  const root = createRng(options.seed ?? 0);
  const prices = generateProductPrices(products, root.fork('prices'));
  const goals = getSyntheticGoals(products, prices, root.fork('goals'));
  return buildCatalogue(products, prices, goals);
}
