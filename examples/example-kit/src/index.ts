/**
 * @skillrl/example-kit — private test helpers shared by the examples: run the `skillrl` CLI in-process on an
 * example's configs (or as a child process to SIGKILL and resume) and read back what the run directory holds.
 */
export * from './kill-and-resume.js';
export * from './latest-policy-state.js';
export * from './run-example.js';
export * from './spawn-cli.js';
