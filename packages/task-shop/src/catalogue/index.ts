export * from './build-goals.js';
export * from './generate-catalogue.js';
export * from './product-kinds.js';
export * from './product-prices.js';
export * from './shop-catalogue.js';
