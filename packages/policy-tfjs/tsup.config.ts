import { defineConfig } from 'tsup';

export default defineConfig({
  // `options` loads no tfjs: `skillrl check` imports it to check a config's options.
  entry: { index: 'src/index.ts', options: 'src/entries/options.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  // Source maps only with SKILLRL_SOURCEMAPS=1 (debugging): the published tarballs carry none.
  sourcemap: process.env.SKILLRL_SOURCEMAPS === '1',
  clean: true,
  target: 'node20',
});
