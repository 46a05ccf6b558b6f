import { defineConfig } from 'vitest/config';

// Runs the sample adapters' suites on their own (one file per run, named on the command line), so the
// kit's test can check which checks fail.
export default defineConfig({
  test: { include: ['src/adapter-conformance/sample-adapters/*.fixture-test.ts'], reporters: ['json'] },
});
