export * from './load-webshop.js';
export type * from './raw-webshop-product.js';
