import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

// The CLI's version (`skillrl --version`, the traces' service.version): this package's.
const define = {
  __SKILLRL_CLI_VERSION__: JSON.stringify(
    (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version,
  ),
};

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    // Source maps only with SKILLRL_SOURCEMAPS=1 (debugging): the published tarballs carry none.
    sourcemap: process.env.SKILLRL_SOURCEMAPS === '1',
    clean: false,
    target: 'node20',
    define,
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
