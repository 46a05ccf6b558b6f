export { environmentWon, stepWon } from './environment-won.js';
// The one policy for errored rollouts: left out of every score, counted where they are.
export { type ErroredSplit, rolloutErrored, rolloutScore, splitErrored } from './errored-rollouts.js';
// Step-level credit's inputs: each step's anchor state and reward.
export { stateKeyOf, stepRewardsOf } from './step-state.js';
