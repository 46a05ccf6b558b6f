import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  // Source maps only with SKILLRL_SOURCEMAPS=1 (debugging): the published tarballs carry none.
  sourcemap: process.env.SKILLRL_SOURCEMAPS === '1',
  clean: false,
  target: 'node20',
});
