/**
 * @skillrl/testkit — tools to test skillrl and its plugins for real: a fake OpenAI-compatible server with
 * injectable faults, and conformance checks that third-party estimators and task adapters run. This entry
 * loads without vitest (from `import` and `require`); the vitest suites are `@skillrl/testkit/vitest`.
 */

// Fake OpenAI-compatible HTTP server with fault injection.
export * from './fake-openai/index.js';

// Conformance checks for advantage estimators as plain functions, for any test runner.
export type { BaseBatch, BatchBuilder } from './estimator-conformance/conformance-batches.js';
export {
  type ConformanceCheck,
  DEFAULT_CONFORMANCE_METRICS,
  type EstimatorConformanceOptions,
  estimatorConformanceChecks,
} from './estimator-conformance/estimator-conformance-checks.js';

// Options of the adapter suite (types only: the suite itself is in `@skillrl/testkit/vitest`).
export type { AdapterConformanceOptions } from './adapter-conformance/index.js';

// A real Redis (Debian's redis-server) on a free port, for queue tests.
export * from './redis-server/index.js';

// Fake Tinker API server hosting a small learnable model, and the tiny-chat tokenizer fixture.
export * from './fake-tinker/index.js';

// A real OTLP/HTTP trace receiver (JSON and protobuf, gzip) that decodes spans into plain objects.
export * from './otlp-receiver/index.js';
