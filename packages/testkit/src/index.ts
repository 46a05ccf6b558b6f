/**
 * @skillrl/testkit — tools to test skillrl and its plugins for real: a fake OpenAI-compatible server with
 * injectable faults, and conformance suites that third-party estimators and task adapters run.
 */

// Conformance suite for task adapters (vitest).
export * from './adapter-conformance/index.js';
// Conformance suite for advantage estimators (vitest).
export * from './estimator-conformance/index.js';

// Fake OpenAI-compatible HTTP server with fault injection.
export * from './fake-openai/index.js';
