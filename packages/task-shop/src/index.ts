import { createShopAdapter } from './adapter/shop-adapter.js';

// The TaskAdapter (default export), its splits, skill, step vocabulary and verifier.
export * from './adapter/index.js';
// Seeded synthetic catalogues in WebShop's product schema, and WebShop's goal builders.
export * from './catalogue/index.js';
// The text environment: search/click, WebShop pages and observations.
export * from './env/index.js';
// The expert (scores 1.0 on generated goals) and the random baseline.
export * from './expert/index.js';
// Loader for the real WebShop files.
export * from './loader/index.js';
// Product and goal types, with WebShop's field names.
export type * from './product/index.js';
// CPython's random for WebShop's goal order (random.seed(233); random.shuffle).
export * from './python-random/index.js';
// Port of WebShop's engine/goal.py reward.
export * from './reward/index.js';
// BM25 search as pyserini scores it.
export * from './search/index.js';

const shopAdapter = createShopAdapter();
export default shopAdapter;
