import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest/results.json' },
    testTimeout: 60_000,
    // Most of this suite is runs in child processes and servers waiting on each other, not CPU: two files at
    // once even on two cores (vitest's default there is one, which leaves a core idle while this, the
    // longest suite, finishes alone).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
