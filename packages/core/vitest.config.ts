import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    setupFiles: ['../../scripts/fast-check-seed.ts'],
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest/results.json' },
    testTimeout: 60_000,
    // One module graph per worker, not one per test file: these tests keep no state between files (each file
    // passes alone and shuffled, --sequence.shuffle), and loading the package and its dependencies once per
    // worker instead of once per file is about half of this suite's CPU time (the root README: CI's budget).
    isolate: false,
  },
});
