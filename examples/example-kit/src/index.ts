/**
 * @skillrl/example-kit — private test helpers shared by the examples: run the `skillrl` CLI in-process on an
 * example's configs and read back what the run directory holds.
 */
export * from './run-example.js';
