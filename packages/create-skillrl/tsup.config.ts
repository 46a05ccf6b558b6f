import { defineConfig } from 'tsup';
import { scaffoldVersionsDefine as define } from './scaffold-versions.config';

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: false,
    target: 'node20',
    define,
  },
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    sourcemap: true,
    clean: false,
    target: 'node20',
    define,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
