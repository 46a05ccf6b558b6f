export type * from './shop-product.js';
