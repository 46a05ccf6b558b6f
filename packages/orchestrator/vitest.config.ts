import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const version = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;

export default defineConfig({
  // As the build defines it (tsup.config.ts): the versions `skillrl init` scaffolds depend on.
  define: {
    __SKILLRL_SCAFFOLD_VERSIONS__: JSON.stringify({
      core: version('../core/package.json'),
      testkit: version('../testkit/package.json'),
      rollout: version('../rollout/package.json'),
      orchestrator: version('package.json'),
    }),
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest/results.json' },
    testTimeout: 60_000,
  },
});
