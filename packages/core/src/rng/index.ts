export { createRng, type Rng, type RngState, restoreRng, type Seed } from './create-rng.js';
