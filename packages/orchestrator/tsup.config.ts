import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { configSchema } from './src/config/config-schema';

// The @skillrl versions `skillrl init` scaffolds depend on (caret ranges on this release's packages).
const version = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
const define = {
  __SKILLRL_SCAFFOLD_VERSIONS__: JSON.stringify({
    core: version('../core/package.json'),
    testkit: version('../testkit/package.json'),
    rollout: version('../rollout/package.json'),
    orchestrator: version('package.json'),
    taskHousehold: version('../task-household/package.json'),
  }),
};

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm'],
    dts: true,
    sourcemap: true,
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
    sourcemap: true,
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
    sourcemap: true,
    clean: false,
    target: 'node20',
    define,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
