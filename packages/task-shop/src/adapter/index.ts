export * from './check-shop-adapter-options.js';
export * from './goal-splits.js';
export * from './shop-adapter.js';
export * from './shop-skill.js';
export * from './shop-verifier.js';
