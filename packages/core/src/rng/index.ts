export { createRng, type Rng, type RngState, restoreRng, type Seed } from './create-rng.js';
export { REQUEST_SEED_RANGE } from './request-seed-range.js';
