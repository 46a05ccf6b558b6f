import { defineConfig } from 'vitest/config';
import { scaffoldVersionsDefine } from './scaffold-versions.config';

export default defineConfig({
  // As the build defines it (tsup.config.ts): the versions scaffolds depend on.
  define: scaffoldVersionsDefine,
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest/results.json' },
    testTimeout: 60_000,
  },
});
