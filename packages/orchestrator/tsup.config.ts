import { mkdirSync, writeFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { configSchema } from './src/config/config-schema';

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: false,
    target: 'node20',
    async onSuccess() {
      // The published schema, for editors and for validating configs outside Node.
      mkdirSync('dist', { recursive: true });
      writeFileSync('dist/config-schema.json', `${JSON.stringify(configSchema, null, 2)}\n`);
    },
  },
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    sourcemap: true,
    clean: false,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
