/**
 * @skillrl/testkit — tools to test skillrl and its plugins for real: a fake OpenAI-compatible server with
 * injectable faults, and conformance suites that third-party estimators and task adapters run.
 */

// Conformance suite for advantage estimators (vitest).

// Conformance suite for task adapters (vitest).

// Fake OpenAI-compatible HTTP server with fault injection.
export * from './fake-openai/index.js';
