export type { BaseBatch, BatchBuilder } from './conformance-batches.js';
export { describeEstimatorConformance } from './describe-estimator-conformance.js';
export {
  type ConformanceCheck,
  DEFAULT_CONFORMANCE_METRICS,
  type EstimatorConformanceOptions,
  estimatorConformanceChecks,
} from './estimator-conformance-checks.js';
