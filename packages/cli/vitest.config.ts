import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // As the build defines it (tsup.config.ts): the CLI's version.
  define: {
    __SKILLRL_CLI_VERSION__: JSON.stringify(
      (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version,
    ),
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest/results.json' },
    testTimeout: 60_000,
    // Most of this suite is runs in child processes and servers waiting on each other, and some files mostly
    // wait (Redis connect timeouts, a lapsed job lock, a worker that never comes): one file more than there
    // are cores, so that two waiting files do not leave the cores idle while this, the longest suite,
    // finishes alone (vitest's default on two cores is one file at a time). Measured in .ci/run on two
    // cores: with two files at once the CPU sat at 26-57 % for 25 s while workers-redis-down and workers-cli
    // both waited.
    maxWorkers: availableParallelism() + 1,
  },
});
