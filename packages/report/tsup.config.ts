import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // chart-library.ts finds Chart.js from import.meta.url, which the CJS build needs shimmed.
  shims: true,
});
