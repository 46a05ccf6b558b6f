export * from './page-segments.js';
export * from './parse-action.js';
export * from './shop-environment.js';
