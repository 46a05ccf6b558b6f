import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { configSchema } from './src/config/config-schema';

// The CLI's version (`skillrl --version`): this package's.
const define = {
  __SKILLRL_CLI_VERSION__: JSON.stringify(
    (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version,
  ),
};

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm'],
    dts: true,
    // Source maps only with SKILLRL_SOURCEMAPS=1 (debugging): the published tarballs carry none.
    sourcemap: process.env.SKILLRL_SOURCEMAPS === '1',
    clean: false,
    target: 'node20',
    define,
    async onSuccess() {
      // The published schema, for editors and for validating configs outside Node.
      mkdirSync('dist', { recursive: true });
      writeFileSync('dist/config-schema.json', `${JSON.stringify(configSchema, null, 2)}\n`);
    },
  },
  {
    entry: ['src/index.ts'],
    format: ['cjs'],
    dts: true,
    sourcemap: process.env.SKILLRL_SOURCEMAPS === '1',
    clean: false,
    target: 'node20',
    define,
    // import-meta-resolve (Node's ESM resolution, for plugins) ships ESM only: `require()` cannot load it
    // on every Node 20, so the CommonJS build carries its own copy.
    noExternal: ['import-meta-resolve'],
  },
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    sourcemap: process.env.SKILLRL_SOURCEMAPS === '1',
    clean: false,
    target: 'node20',
    define,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
