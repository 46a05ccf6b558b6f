import { mkdirSync, writeFileSync } from 'node:fs';
import { configSchema } from '@skillrl/core';
import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm'],
    dts: true,
    // Source maps only with SKILLRL_SOURCEMAPS=1 (debugging): the published tarballs carry none.
    sourcemap: process.env.SKILLRL_SOURCEMAPS === '1',
    clean: false,
    target: 'node20',
    async onSuccess() {
      // The published schema, for editors and for validating configs outside Node.
      mkdirSync('dist', { recursive: true });
      writeFileSync('dist/config-schema.json', `${JSON.stringify(configSchema, null, 2)}\n`);
    },
  },
  {
    entry: ['src/index.ts'],
    format: ['cjs'],
    // The declarations are the ESM build's: the package's build script copies index.d.ts to index.d.cts (the two
    // are the same text), rather than a second TypeScript pass.
    dts: false,
    sourcemap: process.env.SKILLRL_SOURCEMAPS === '1',
    clean: false,
    target: 'node20',
    // import-meta-resolve (Node's ESM resolution, for plugins) ships ESM only: `require()` cannot load it
    // on every Node 20, so the CommonJS build carries its own copy.
    noExternal: ['import-meta-resolve'],
  },
]);
