import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  // Source maps only with SKILLRL_SOURCEMAPS=1 (debugging): the published tarballs carry none.
  sourcemap: process.env.SKILLRL_SOURCEMAPS === '1',
  clean: true,
  target: 'node20',
  // static-assets.ts finds public/ and the libraries' browser files from import.meta.url, which the CJS
  // build needs shimmed.
  shims: true,
});
