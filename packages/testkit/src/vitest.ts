/**
 * @skillrl/testkit/vitest — the conformance suites as vitest tests: `describeAdapterConformance(adapter)`
 * and `describeEstimatorConformance(name, create)`. Needs vitest (an optional peer of this package).
 */

// Conformance suite for task adapters.
export * from './adapter-conformance/index.js';

// Conformance suite for advantage estimators (and its plain checks, as in the main entry).
export * from './estimator-conformance/index.js';
