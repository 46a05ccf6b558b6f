/**
 * @skillrl/example-custom-estimator — a third-party advantage estimator. The skillrl orchestrator imports
 * this package when a config names it (`estimator: { package: "@skillrl/example-custom-estimator",
 * name: "centered-rank" }`) and registers everything in `estimators` under those names.
 */
import type { EstimatorFactory } from '@skillrl/core';
import { type CenteredRankOptions, createCenteredRank } from './centered-rank.js';

// The estimator and its options, for direct use.
export { type CenteredRankOptions, createCenteredRank } from './centered-rank.js';

// What the orchestrator registers: name → factory.
export const estimators: Record<string, EstimatorFactory<CenteredRankOptions>> = {
  'centered-rank': createCenteredRank,
};
