import { defineConfig } from 'vitest/config';

// Runs the broken adapter's suite on its own, so the kit's test can check that it fails.
export default defineConfig({
  test: { include: ['src/adapter-conformance/sample-adapters/*.fixture-test.ts'], reporters: ['json'] },
});
